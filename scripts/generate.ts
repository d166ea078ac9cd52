// `npm run generate`: from the vendored OpenAPI, made one description from its files
// (generate/merge.ts: go-flashduty's newest file, the operations only the older files have, and those
// openapi/supplement.json describes), the types of every operation (openapi-typescript: types only, no
// runtime bytes), every operation as a named method in src/generated/resources/ (generate/resources.ts)
// with its manifest entry and runtime rules (generate/methods.ts, names by generate/naming.ts, paging
// facts the OpenAPI lacks in generate/paging.ts, the SDK's own names in generate/named.ts), the request
// schemas the client checks bodies with, the command line's examples, the mock's answers and the
// resource families its engine keeps (generate/mock-families.ts), and the report of what changed
// between the two files (openapi/CHANGES.md, generate/changes.ts). Tables are
// written one entry per line (generate/table.ts), so that a diff shows which operations changed. Path
// parameters are fields of the request schema, as required non-empty strings (the client puts them
// into the path).
// `--check` (part of `npm test`) fails when the committed output differs from what the files give, or
// src/generated/resources/ holds a file it would not write: edit the files or the generator, never
// the output.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import type { Schema } from '../src/internal/schema.js';
import { changesFile } from './generate/changes.js';
import { examplesFile } from './generate/examples.js';
import { fieldAt, type FieldSchema } from './generate/fields.js';
import { loadDescription, NEWEST } from './generate/merge.js';
import { familiesFile, mockFamilies } from './generate/mock-families.js';
import {
  bodySchemaOf,
  type Described,
  type Document,
  describeOperations,
  type Operation,
  manifestFile,
  requestFields,
  rulesFile,
} from './generate/methods.js';
import { resourceFiles } from './generate/resources.js';
import { table } from './generate/table.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TYPES = path.join(root, 'src/generated/openapi.ts');
const OPERATIONS = path.join(root, 'src/generated/operations.ts');
const RULES = path.join(root, 'src/generated/operation-rules.ts');
const RESOURCES = path.join(root, 'src/generated/resources');
const SCHEMAS = path.join(root, 'src/generated/request-schemas.ts');
const RESPONSES = path.join(root, 'src/testing/generated/responses.ts');
const FAMILIES = path.join(root, 'src/testing/generated/families.ts');
const CHANGES = path.join(root, 'openapi/CHANGES.md');
const EXAMPLES = path.join(root, 'src/generated/examples.ts');

/** The keywords the SDK's checker (src/internal/schema.ts) reads; the rest (descriptions, examples) is left out. */
const KEPT = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  '$ref',
  'allOf',
  'oneOf',
  'anyOf',
  'nullable',
]);

/**
 * A form's file field (`format: binary` in a `multipart/form-data` body): a Blob (or File) to the
 * checker and to the types. Elsewhere (a JSON body, an answer) a binary string stays a string: the
 * OpenAPI describes `/enrichment/mapping/data/upload`'s file in a JSON body, and its callers send text.
 */
const isBinary = (schema: Record<string, unknown>) => schema.type === 'string' && schema.format === 'binary';

/** The shared schemas a value names, and those they name in turn. */
function reachable(document: Document, value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) reachable(document, item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key !== '$ref' || typeof child !== 'string') reachable(document, child, found);
      else if (!found.has(child.replace('#/components/schemas/', ''))) {
        const name = child.replace('#/components/schemas/', '');
        found.add(name);
        reachable(document, document.components.schemas[name], found);
      }
    }
  }
  return found;
}

/** The shared schemas of forms' bodies: their binary fields are files. One also in a JSON body would be both: refused. */
function formSchemas(document: Document): Set<string> {
  const operations = Object.values(document.paths).map((methods) => methods.post ?? methods.get);
  const content = operations.map((operation) => operation?.requestBody?.content);
  const forms = reachable(
    document,
    content.map((c) => c?.['multipart/form-data']?.schema),
  );
  const json = reachable(
    document,
    content.map((c) => c?.['application/json']?.schema),
  );
  const both = [...forms].filter((name) => json.has(name));
  if (both.length > 0) throw new Error(`generate: ${both.join(', ')} describe a form and a JSON body at once`);
  return forms;
}

/** Doc comments for the top-level declarations openapi-typescript leaves bare (typedoc needs one on each export). */
const TOP_LEVEL_DOCS: Record<string, string> = {
  'export interface paths': 'Every operation of the Flashduty Open API by path, as the vendored OpenAPI describes it.',
  'export type webhooks': 'The OpenAPI document declares no webhooks.',
  'export interface components': 'The schemas, responses and parameters the operations share.',
  'export type $defs': 'The OpenAPI document declares no `$defs`.',
  'export interface operations': 'Every operation of the Flashduty Open API by operation id.',
  'type WithRequired': "openapi-typescript's helper: `T` with the keys `K` required.",
};

const BLOB = ts.factory.createTypeReferenceNode('Blob');

/**
 * The document with the unit of every Unix-time request field in its description where the OpenAPI
 * does not name it (`schedules.list`'s `start`): the types' documentation then says it. A copy.
 */
function withUnits(document: Document): Document {
  const copy = structuredClone(document);
  const resolve = (schema: FieldSchema | undefined) => {
    let current = schema;
    for (let hops = 0; current?.$ref && hops < 16; hops++)
      current = copy.components.schemas[current.$ref.replace('#/components/schemas/', '')] as FieldSchema;
    return current;
  };
  for (const operation of describeOperations(copy, description.kept)) {
    const methods = copy.paths[operation.path];
    const fields = requestFields(copy, (methods?.post ?? methods?.get) as Operation);
    for (const [place, unit] of Object.entries(operation.times)) {
      const field = fieldAt(resolve, fields, place);
      if (field && !/second|milli/i.test(field.description ?? ''))
        field.description = `${field.description ?? ''} (Unix ${unit === 's' ? 'seconds' : 'milliseconds'})`.trim();
    }
  }
  return copy;
}

async function generateTypes(document: Document): Promise<string> {
  const forms = formSchemas(document);
  /** Whether a schema, at its place in the document (`#/components/schemas/X/…`, `#/paths/…`), is a form's file. */
  const file = (schema: Record<string, unknown>, at: string) =>
    isBinary(schema) &&
    (at.includes('/multipart~1form-data/') || forms.has(/^#\/components\/schemas\/([^/]+)/.exec(at)?.[1] ?? ''));
  // defaultNonNullable would make every field with a default required in request bodies too.
  // A copy: openapi-typescript changes the document it is given (it writes discriminators' properties into their schemas).
  const ast = await openapiTS(structuredClone(document) as unknown as OpenAPI3, {
    defaultNonNullable: false,
    transform: (schema, { path: at }) => (file(schema as Record<string, unknown>, at ?? '') ? BLOB : undefined),
  });
  // typedoc knows no @description: its text becomes the comment's summary.
  let text = `\n${astToString(ast)}`.replace(/(\/\*\*| \*) @description /g, '$1 ');
  for (const [declaration, doc] of Object.entries(TOP_LEVEL_DOCS)) {
    if (!text.includes(`\n${declaration}`))
      throw new Error(`generate: openapi-typescript no longer emits "${declaration}"`);
    const exported = declaration.startsWith('export ') ? declaration : `export ${declaration}`;
    text = text.replace(`\n${declaration}`, `\n/** ${doc} */\n${exported}`);
  }
  return `${HEADER.replace('. Do not edit.', ', with openapi-typescript. Do not edit.')}\n${text}`;
}

/**
 * The fields of the spec's AssignedTo that the server fills in: an incident's `assigned_to` carries
 * them, and may be sent back as an `assigned_to` of a request (the named methods refuse a key its
 * schema does not list).
 */
const ASSIGNED_BY_SERVER = {
  escalate_rule_name: { type: 'string' },
  assigned_at: { type: 'integer' },
  id: { type: 'string' },
};

/**
 * The spec's rules for request fields that the OpenAPI leaves loose, by field name, applied to every
 * operation's request schema (so the client and the mock check them alike): a cursor is never empty;
 * incident ids are 24 hexadecimal characters; member, team and channel ids are whole numbers ≥ 0;
 * an incident number, an event id and an event type are never empty; an `assigned_to` takes every
 * field of the spec's AssignedTo.
 */
function refine(name: string, schema: Record<string, unknown>): Record<string, unknown> {
  const items = schema.items as Record<string, unknown> | undefined;
  if (name === 'search_after_ctx' && schema.type === 'string') return { minLength: 1, ...schema };
  if (name === 'incident_ids' && items?.type === 'string')
    return { ...schema, items: { pattern: '^[0-9a-fA-F]{24}$', ...items } };
  if (name.endsWith('_ids') && items?.type === 'integer') return { ...schema, items: { minimum: 0, ...items } };
  if ((name === 'nums' || name === 'event_types') && items?.type === 'string') {
    return { ...schema, items: { minLength: 1, ...items } };
  }
  if (name === 'event_id' && schema.type === 'string') return { minLength: 1, ...schema };
  if (name === 'assigned_to' && schema.properties) {
    const properties: Record<string, unknown> = { ...schema.properties };
    for (const [field, type] of Object.entries(ASSIGNED_BY_SERVER)) properties[field] ??= type;
    return { ...schema, properties };
  }
  return schema;
}

/** Keeps a schema as it is (the responses' schemas: the spec's request rules are not theirs). */
const asIs = (_name: string, schema: Record<string, unknown>) => schema;

/**
 * A schema with only the checked keywords; `properties` keep every name (a property may be called
 * `type`). In a form (`form`), a binary string is a file: the checker's type `binary`. In a request
 * (`request`), an object that takes keys beyond its properties says so (`additionalProperties: true`):
 * the named methods refuse the keys of every other object that lists its properties.
 */
function compact(schema: unknown, refs: Set<string>, refined = asIs, form = false, request = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => compact(item, refs, refined, form, request));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && request && value !== false) out.additionalProperties = true;
    if (!KEPT.has(key)) continue;
    if (key === 'type' && form && isBinary(schema as Record<string, unknown>)) {
      out.type = 'binary'; // the checker's name for a Blob (src/internal/schema.ts)
    } else if (key === '$ref') {
      const name = String(value).replace('#/components/schemas/', '');
      refs.add(name);
      out.$ref = name;
    } else if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as object).map(([name, sub]) => [
          name,
          refined(name, compact(sub, refs, refined, form, request) as Record<string, unknown>),
        ]),
      );
    } else if (key === 'enum' || key === 'required' || key === 'const' || typeof value !== 'object') {
      out[key] = value;
    } else {
      out[key] = compact(value, refs, refined, form, request);
    }
  }
  return out;
}

/**
 * The shared schemas \`refs\` name, and those they name in turn, compacted (those of \`forms\` as forms;
 * with \`request\`, as requests' schemas).
 */
function closure(
  document: Document,
  refs: Set<string>,
  refined = asIs,
  forms = new Set<string>(),
  request = false,
): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (let pending = [...refs]; pending.length > 0;) {
    const name = pending.pop() as string;
    if (name in defs) continue;
    const before = new Set(refs);
    defs[name] = compact(document.components.schemas[name], refs, refined, forms.has(name), request);
    pending.push(...[...refs].filter((ref) => !before.has(ref)));
  }
  return Object.fromEntries(Object.entries(defs).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Parameters given as an object schema: required ones listed; a required string sent empty is a missing one. */
function parameterObject(
  parameters: NonNullable<Operation['parameters']>,
  refs: Set<string>,
): { type: 'object'; required: string[]; properties: Record<string, unknown> } {
  return {
    type: 'object',
    required: parameters.filter((p) => p.required).map((p) => p.name),
    properties: Object.fromEntries(
      parameters.map((p) => {
        const schema = refine(p.name, compact(p.schema ?? {}, refs, refine, false, true) as Record<string, unknown>);
        // `?job_id=` or `/triggers//fire`: the service refuses it as a missing parameter.
        return [p.name, p.required && schema.type === 'string' ? { minLength: 1, ...schema } : schema];
      }),
    ),
  };
}

/**
 * Each operation's request schema: its body (a form's too; GET: its query parameters as one object,
 * an empty one where it has none), with its path parameters as fields beside the body's; and the
 * shared schemas they use.
 */
function requestSchemas(document: Document): { requests: Record<string, Schema>; defs: Record<string, Schema> } {
  const refs = new Set<string>();
  const requests: Record<string, unknown> = {};
  for (const [route, methods] of Object.entries(document.paths)) {
    const operation = methods.post ?? methods.get;
    if (!operation) continue;
    const body = bodySchemaOf(operation);
    // A form where it is the only body (an operation that takes JSON too is sent JSON: methods.ts).
    const content = operation.requestBody?.content;
    const form = content?.['multipart/form-data'] !== undefined && content['application/json'] === undefined;
    const parameters = operation.parameters ?? [];
    const request = body
      ? compact(body, refs, refine, form, true)
      : parameterObject(
          parameters.filter((p) => p.in === 'query'),
          refs,
        );
    const inPath = parameters.filter((p) => p.in === 'path');
    requests[route] = inPath.length > 0 ? { ...parameterObject(inPath, refs), allOf: [request] } : request;
  }
  const defs = closure(document, refs, refine, formSchemas(document), true);
  return { requests: requests as Record<string, Schema>, defs: defs as Record<string, Schema> };
}

/** `src/generated/request-schemas.ts`: the request schemas, and the shared schemas they name. */
function schemasFile({ requests, defs }: ReturnType<typeof requestSchemas>): string {
  const sorted = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
  return `${HEADER}
// Every operation's request schema, reduced to what src/internal/schema.ts checks. Loaded on demand
// (resource methods check their params with it; the mock validates every request with it).

import type { Schema } from '../internal/schema.js';

/** The request body (for GET: query parameters) of each operation, by path. */
export const REQUEST_SCHEMAS: Record<string, Schema> = ${table(requests)};

/** The shared schemas the request schemas name in \`$ref\`. */
export const SCHEMA_DEFS: Record<string, Schema> = ${table(sorted(defs))};
`;
}

/**
 * For the mock: each operation's success \`data\` schema and the OpenAPI's example of it; and the
 * resource families its engine keeps (generate/mock-families.ts), whose items' schemas name the same
 * shared schemas.
 */
function generateMock(document: Document, operations: Described[]): { responses: string; families: string } {
  const refs = new Set<string>();
  const responses: Record<string, { schema: unknown; example?: unknown }> = {};
  for (const [route, methods] of Object.entries(document.paths)) {
    const success = (methods.post ?? methods.get)?.responses?.['200']?.content?.['application/json'];
    const envelope = success?.schema as { allOf?: Array<{ properties?: { data?: unknown } }> } | undefined;
    const data = envelope?.allOf?.find((part) => part.properties?.data)?.properties?.data;
    responses[route] = {
      schema: compact(data ?? {}, refs),
      ...(success?.example?.data !== undefined ? { example: success.example.data } : {}),
    };
  }
  const paging = new Map(operations.map((operation) => [operation.path, operation.paging?.items]));
  const families = mockFamilies(
    document,
    (schema) => compact(schema, refs),
    (route) => paging.get(route),
  );
  return {
    responses: `${HEADER}
// The mock's answer to the operations it does not model: the OpenAPI's example of the success
// \`data\` where it fits the schema, else a minimal value built from the schema.

import type { Schema } from '../../internal/schema.js';

/** Each operation's success \`data\` schema, and the OpenAPI's example of it where it has one. */
export const RESPONSES: Record<string, { schema: Schema; example?: unknown }> = ${table(responses)};

/** The shared schemas the responses name. */
export const RESPONSE_DEFS: Record<string, Schema> = ${table(closure(document, refs))};
`,
    families: familiesFile(families, HEADER),
  };
}

const description = loadDescription();
const document = description.document as unknown as Document;
const HEADER = `// Generated by \`npm run generate\` from ${NEWEST} and the ${Object.keys(description.kept).length} operations it lacks, kept from the other files of openapi/SOURCES.md (scripts/generate/merge.ts). Do not edit.`;
const described = describeOperations(document, description.kept);
const schemas = requestSchemas(document);
const mock = generateMock(document, described);
const outputs: Array<[string, string]> = [
  [TYPES, await generateTypes(withUnits(document))],
  [OPERATIONS, manifestFile(described, HEADER)],
  [RULES, rulesFile(described, HEADER)],
  ...[...resourceFiles(described, HEADER)].map(([name, text]): [string, string] => [path.join(RESOURCES, name), text]),
  [SCHEMAS, schemasFile(schemas)],
  [EXAMPLES, examplesFile(document, schemas, described, HEADER)],
  [RESPONSES, mock.responses],
  [FAMILIES, mock.families],
  [CHANGES, changesFile(description, described)],
];

/** Files in the folder the generator owns whole (src/generated/resources/) that it no longer writes: a namespace gone. */
function orphans(): string[] {
  const files = existsSync(RESOURCES) ? readdirSync(RESOURCES).map((name) => path.join(RESOURCES, name)) : [];
  return files.filter((file) => !outputs.some(([output]) => output === file));
}

if (process.argv.includes('--check')) {
  const stale = outputs.filter(([file, text]) => {
    try {
      return readFileSync(file, 'utf8') !== text;
    } catch {
      return true;
    }
  });
  const names = [...stale.map(([file]) => file), ...orphans()].map((file) => path.relative(root, file));
  if (names.length > 0) {
    console.error(
      `generate: out of date with the files of openapi/SOURCES.md: ${names.join(', ')}; run npm run generate`,
    );
    process.exit(1);
  }
  console.log(`generate: ${outputs.length} files match the files of openapi/SOURCES.md`);
} else {
  mkdirSync(RESOURCES, { recursive: true });
  for (const [file, text] of outputs) writeFileSync(file, text);
  for (const file of orphans()) rmSync(file);
  console.log(
    `generate: wrote ${outputs.length} files (${path.relative(root, RESOURCES)}/ and ${outputs
      .filter(([file]) => !file.startsWith(RESOURCES))
      .map(([file]) => path.relative(root, file))
      .join(', ')})`,
  );
}
