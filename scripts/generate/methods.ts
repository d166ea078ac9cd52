// The generated method layer: for every operation of the OpenAPI, its entry in OPERATIONS (the
// public manifest) and its runtime rules (paging, the conveniences its fields get); its typed,
// documented method is written by resources.ts from what is decided here, once, for every operation:
// - retry policy (the manifest's `kind`): a read (retried as reads) when it is a GET or its summary
//   starts with List, Get, Batch get, Search, Query, Preview, Export or Download; every other
//   operation is a mutation;
// - paging: a list operation pages by one of the client's paging schemes (src/client/pagination/
//   schemes/, which say which request and answer fields each takes: a cursor, a page number, an
//   offset), at most one by cursor and one by number; its items are the response's `items` (or `docs`,
//   `list`, else its one array), its page size the default of `limit`; scripts/generate/paging.ts
//   adds what the OpenAPI does not say, named.ts the name a list's walks carry where not its method's;
// - fields: which take a `Date` (Unix times, at any depth) or an array (comma-separated, with their
//   allowed values), by the rules of scripts/generate/fields.ts; path parameters are fields of the
//   params, put into the path; an operation whose security is a bearer token of its own (not the app
//   key) takes it as the call option `token`;
// - the wire: a request described as `multipart/form-data` only is sent as a form (its binary fields take a
//   Blob or File); an answer described as `application/x-ndjson` resolves to its lines, each parsed (one
//   also described as JSON, to its lines or its envelope's data, by the answer's Content-Type).

import type { PagingMode, SchemeFacts } from '../../src/client/pagination/scheme.js';
import { SCHEMES } from '../../src/client/pagination/schemes/index.js';
import type { PagingRule } from '../../src/client/resources/rules.js';
import { listFields, propertiesOf as fieldsOf, requiredOf, timeFields } from './fields.js';
import { NAMED } from './named.js';
import { methodNames } from './naming.js';
import { PAGING_OVERRIDES } from './paging.js';
import { table } from './table.js';

export interface Operation {
  summary?: string;
  description?: string;
  responses?: Record<
    string,
    {
      content?: {
        'application/json'?: { schema?: unknown; example?: { data?: unknown } };
        'application/x-ndjson'?: { schema?: unknown };
      };
    }
  >;
  requestBody?: {
    content?: {
      'application/json'?: { schema?: unknown; example?: unknown };
      'multipart/form-data'?: { schema?: unknown; example?: unknown };
    };
  };
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: unknown; description?: string }>;
  /** The credentials the operation takes; absent: the document's (the app key). */
  security?: Array<Record<string, unknown>>;
}
export interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes?: Record<string, { type?: string; scheme?: string }>;
  };
}

interface Property {
  type?: string | string[];
  format?: string;
  description?: string;
  default?: unknown;
  $ref?: string;
}
interface ObjectSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Property>;
  required?: string[];
  allOf?: ObjectSchema[];
  items?: ObjectSchema;
}

const READ_SUMMARY = /^(List|Get|Batch get|Search|Query|Preview|Export|Download)\b/;

/** What the generator knows of one operation. */
export interface Described {
  path: string;
  method: string;
  http: 'GET' | 'POST';
  /** The retry policy, `kind` in the manifest. */
  retry: 'read' | 'mutation';
  summary: string;
  description: string;
  /** The body (or query) has required fields. */
  required: boolean;
  /** How a list operation pages: by cursor, by number or both (the manifest's `paging`), and its rule. */
  paging?: PagingRule & { mode: 'cursor' | 'number' | 'both' };
  /** Unix-time fields by their place (`start_time`, `time_filter.start_time`, `layers[].start`) and unit. */
  times: Record<string, 's' | 'ms'>;
  /** Comma-separated fields, each with its allowed values (empty: any). */
  lists: Record<string, string[]>;
  /** Path parameters (`/safari/automation/triggers/{trigger_id}/fire`): fields of the params, put into the path. */
  pathParams: string[];
  /** The operation takes a bearer token of its own (the call option `token`), not the client's credential. */
  token: boolean;
  idempotency: boolean;
  /** The request is a `multipart/form-data` form. */
  multipart: boolean;
  /** The answer is `application/x-ndjson` lines, not an envelope. */
  ndjson: boolean;
  /** The answer is NDJSON lines or an envelope, as the request asks (`url_mode`): read by its Content-Type. */
  orEnvelope: boolean;
  /** The file the operation was kept from, where the newest file does not have it (merge.ts). */
  source: string | undefined;
}

function resolve(document: Document, schema: ObjectSchema | undefined): ObjectSchema | undefined {
  let current = schema;
  for (let hops = 0; current?.$ref && hops < 16; hops++) {
    current = document.components.schemas[current.$ref.replace('#/components/schemas/', '')] as ObjectSchema;
  }
  return current;
}

/** Every property of an object schema, through `$ref` and `allOf`. */
function propertiesOf(document: Document, schema: ObjectSchema | undefined): Record<string, Property> {
  return fieldsOf((field) => resolve(document, field), schema);
}

/** Whether an operation's security is a bearer token of its own rather than the document's app key. */
function ownToken(document: Document, operation: Operation): boolean {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.length === 0) return false;
  return schemes.every((name) => {
    const scheme = document.components.securitySchemes?.[name];
    return scheme?.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer';
  });
}

/** The required fields of an object schema of `document`. */
function requiredIn(document: Document, schema: ObjectSchema | undefined): string[] {
  return requiredOf((part: ObjectSchema | undefined) => resolve(document, part), schema);
}

/** The request body's schema, JSON or a form (an operation has one or the other). */
export function bodySchemaOf(operation: Operation): unknown {
  const content = operation.requestBody?.content;
  return content?.['application/json']?.schema ?? content?.['multipart/form-data']?.schema;
}

/** The `data` schema of an operation's success envelope. */
function dataSchema(operation: Operation): ObjectSchema | undefined {
  const envelope = operation.responses?.['200']?.content?.['application/json']?.schema as ObjectSchema | undefined;
  return envelope?.allOf?.find((part) => part.properties?.data)?.properties?.data;
}

/**
 * What the generator knows of every operation of `document`; `kept` are the paths the newest file
 * lacks, each with the file it was kept from; `partial` describes an older file alone (for the
 * report of what changed, see naming.ts).
 */
export function describeOperations(
  document: Document,
  kept: Readonly<Record<string, string>> = {},
  partial = false,
): Described[] {
  const names = methodNames(Object.keys(document.paths), partial);
  return Object.entries(document.paths).map(([path, methods]) => {
    const http = methods.post ? 'POST' : 'GET';
    const operation = (methods.post ?? methods.get) as Operation;
    const bodySchema = bodySchemaOf(operation) as ObjectSchema | undefined;
    const form = operation.requestBody?.content?.['multipart/form-data'];
    const parameters = operation.parameters ?? [];
    const query = parameters.filter((parameter) => parameter.in === 'query');
    const pathParams = parameters.filter((parameter) => parameter.in === 'path');
    const fields = requestFields(document, operation);
    const required =
      pathParams.length > 0 ||
      (bodySchema ? requiredIn(document, bodySchema).length > 0 : query.some((p) => p.required));
    const summary = operation.summary ?? path;
    const success = operation.responses?.['200']?.content;
    return {
      path,
      method: names.get(path) as string,
      http,
      retry: http === 'GET' || READ_SUMMARY.test(summary) ? 'read' : 'mutation',
      summary,
      description: operation.description ?? '',
      required,
      ...pagingOf(document, path, operation, fields),
      times: timeFields((field) => resolve(document, field), path, fields),
      lists: listFields(path, fields),
      pathParams: pathParams.map((p) => p.name),
      token: ownToken(document, operation),
      idempotency: 'idempotency_key' in fields,
      // A form only where JSON is not taken too (/incident/create takes either: JSON, the usual way).
      multipart: form !== undefined && operation.requestBody?.content?.['application/json'] === undefined,
      ndjson: success?.['application/x-ndjson'] !== undefined,
      orEnvelope: success?.['application/x-ndjson'] !== undefined && success['application/json'] !== undefined,
      source: kept[path],
    } satisfies Described;
  });
}

/**
 * A request's top-level fields: its body's properties (the document's own objects, through `$ref`
 * and `allOf`), or for a GET its query parameters; and its path parameters.
 */
export function requestFields(document: Document, operation: Operation): Record<string, Property> {
  const parameters = operation.parameters ?? [];
  const bodySchema = bodySchemaOf(operation) as ObjectSchema | undefined;
  const asField = (p: (typeof parameters)[number]) => [
    p.name,
    { ...(p.schema as Property), description: p.description },
  ];
  return {
    ...(bodySchema
      ? propertiesOf(document, bodySchema)
      : Object.fromEntries(parameters.filter((p) => p.in === 'query').map(asField))),
    ...Object.fromEntries(parameters.filter((p) => p.in === 'path').map(asField)),
  };
}

function pagingOf(
  document: Document,
  path: string,
  operation: Operation,
  fields: Record<string, Property>,
): Pick<Described, 'paging'> {
  const data = propertiesOf(document, dataSchema(operation));
  // The first scheme of each mode that recognises the request's and the answer's fields.
  const [request, answer] = [new Set(Object.keys(fields)), new Set(Object.keys(data))];
  const modes: PagingMode[] = [];
  const facts: SchemeFacts = {};
  for (const scheme of SCHEMES) {
    const found = modes.includes(scheme.by) ? undefined : scheme.recognise(request, answer);
    if (!found) continue;
    modes.push(scheme.by);
    Object.assign(facts, found);
  }
  const { detail, ...override } = PAGING_OVERRIDES[path] ?? {};
  if (detail) {
    if (modes.length === 0) throw new Error(`generate: paging.ts calls ${path} a detail, but it does not page`);
    return {};
  }
  if (modes.length === 0) {
    if (PAGING_OVERRIDES[path]) throw new Error(`generate: paging.ts names ${path}, which does not page`);
    return {};
  }
  const promised = requiredIn(document, dataSchema(operation));
  // The usual names first; else the data's one array (AI SRE's lists: `skills`, `servers`, `sessions`).
  const arrays = Object.keys(data).filter((key) => resolve(document, data[key])?.type === 'array');
  const items = ['items', 'docs', 'list'].find((key) => key in data) ?? (arrays.length === 1 ? arrays[0] : undefined);
  if (!items) throw new Error(`generate: ${path} pages but its data has no items array`);
  const limit = resolve(document, fields.limit)
    ? Number((resolve(document, fields.limit) as Property).default ?? 20)
    : 20;
  const limitRequired = requiredIn(
    document,
    operation.requestBody?.content?.['application/json']?.schema as ObjectSchema,
  ).includes('limit');
  return {
    paging: {
      ...(limitRequired ? { limitRequired: true as const } : {}),
      mode: modes.length === 2 ? 'both' : (modes[0] as PagingMode),
      items,
      limit,
      ...(promised.includes('total') ? { total: true as const } : {}),
      ...(promised.includes('has_next_page') ? { hasNext: true as const } : {}),
      ...(facts.cursorFields ? { cursorFields: facts.cursorFields } : {}),
      ...(facts.offset ? { offset: true as const } : {}),
      ...override,
      ...(NAMED[path]?.name ? { name: NAMED[path].name } : {}),
    },
  };
}

/** How the runtime reads a paging mode: which of cursor and page number it has. */
function pagingModes(mode: string): { cursor?: true; number?: true } {
  return {
    ...(mode === 'cursor' || mode === 'both' ? { cursor: true } : {}),
    ...(mode === 'number' || mode === 'both' ? { number: true } : {}),
  };
}

/** `src/generated/operations.ts`: the public manifest. */
export function manifestFile(operations: Described[], header: string): string {
  const entries = operations.map(({ path, method, http, retry, summary, paging }): [string, unknown] => [
    path,
    { method, http, kind: retry, summary, ...(paging ? { paging: paging.mode } : {}) },
  ]);
  return `${header}
// Every operation: its method's name (the naming rule, scripts/generate/naming.ts), its HTTP method,
// its retry policy as \`kind\` (a read when a GET or its summary starts with List, Get, Batch get, Search, Query,
// Preview, Export or Download; else a mutation), the OpenAPI's summary, and how a list operation pages. The
// entry \`flashduty-sdk/operations\` exports it; the client loads it with its first call.

import type { OperationInfo } from '../operations.js';

/** Every operation of the Flashduty Open API by path: its method, HTTP method, retry policy, summary and paging. */
export const OPERATIONS = ${table(entries)} as const satisfies Record<string, OperationInfo>;
`;
}

/** `src/generated/operation-rules.ts`: what the client's runtime needs beyond the manifest. */
export function rulesFile(operations: Described[], header: string): string {
  const entries = operations.flatMap((operation) => {
    const { path, paging, times, lists, pathParams, token, idempotency, multipart, ndjson, orEnvelope } = operation;
    const rule = {
      ...(paging ? { paging: { ...paging, mode: undefined, ...pagingModes(paging.mode) } } : {}),
      ...(Object.keys(times).length > 0 ? { times } : {}),
      ...(Object.keys(lists).length > 0 ? { lists } : {}),
      ...(pathParams.length > 0 ? { pathParams } : {}),
      ...(token ? { token } : {}),
      ...(idempotency ? { idempotency } : {}),
      ...(multipart ? { multipart } : {}),
      ...(ndjson ? { ndjson } : {}),
      ...(orEnvelope ? { orEnvelope } : {}),
    };
    return Object.keys(rule).length > 0 ? [[path, rule] as const] : [];
  });
  return `${header}
// The runtime rules of the operations that have rules (scripts/generate/methods.ts and fields.ts say
// how each is read from the OpenAPI): how a list pages, which fields take a Date or an array (and
// which values a list allows), which fields go into the path, which operations take a token of their
// own, which bodies get an idempotency key, which requests are forms and which answers NDJSON lines.
// Loaded with a client's first method call.

import type { OperationRule } from '../client/resources/rules.js';

/** The rules of each operation that has rules, by path. */
export const RULES: Record<string, OperationRule> = ${table(entries)};
`;
}
