// The one OpenAPI description everything is generated from, made from the vendored files
// (openapi/SOURCES.md), newest first: the newest file whole, then from each older file the
// operations none before it has, taken unchanged, so that no method of the SDK disappears because
// the vendor's newer description left its operation out; last, openapi/supplement.json, the
// operations no vendored file describes (written here from the vendor's Go SDK). Rules owned here:
// - the first file that has a path wins it, and the newest file wins every shared component;
// - an operation taken from a later file may name a component (`$ref`) of its own file: the
//   description's component of that name is used when it differs at most in documentation
//   (descriptions, examples, summaries, `x-` extensions); one it lacks is copied over; one changed in
//   substance stops the generator, since the kept operation would silently change shape. A component
//   its file does not define is the description's (the supplement is written against the others);
// - kept paths come after the newest file's, file by file, each in its file's order: the result is
//   deterministic;
// - a reference to a component the description does not define is an error, and so is a security
//   requirement naming a scheme it does not define, but for the repairs REPAIRS lists per file, each
//   with its reason (openapi-typescript and Prism refuse such a document);
// - a request schema that refuses what the operation takes (BODY_REPAIRS: a body described as empty
//   and closed whose example, and the service, take an id) is replaced, with its reason; each repair
//   is checked still to be needed, and the report of what changed lists it.
// The generator, the tests that read the OpenAPI and the Prism test all take the description from
// here (`loadDescription`), so they can never judge against different documents.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** An OpenAPI document as far as merging reads it. */
export interface OpenAPIDocument {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  tags?: Array<{ name: string }>;
  [key: string]: unknown;
}

/** One file the description is made from: where it is, and what it is, for the report and the docs. */
export interface Source {
  /** Relative to the repository's root. */
  file: string;
  /** Where it comes from, in a few words. */
  origin: string;
  /** Written here, not the vendor's: left out of `previous`, and reported apart. */
  ours?: true;
}

/** The files, newest first: each gives the operations no file before it has. */
export const SOURCES: readonly Source[] = [
  { file: 'openapi/go-flashduty/openapi.en.json', origin: 'flashcatcloud/go-flashduty at 734caba' },
  { file: 'openapi/go-flashduty-02193386/openapi.en.json', origin: 'flashcatcloud/go-flashduty at 0219338' },
  { file: 'openapi/openapi.en.json', origin: 'flashcatcloud/flashduty-docs at 57fd7ad' },
  { file: 'openapi/supplement.json', origin: 'described here, from the vendor’s Go SDK', ours: true },
];

/** The newest vendored file: the description is this one whole, and what it lacks. */
export const NEWEST = (SOURCES[0] as Source).file;

/** The merged description, and what it took from which file. */
export interface Description {
  document: OpenAPIDocument;
  /** Each file as read, in the order of SOURCES. */
  files: OpenAPIDocument[];
  /** The paths not from the newest file, each with the file it was kept from. */
  kept: Record<string, string>;
  /**
   * The vendored files but the newest, merged (what the SDK was generated from before it): the report
   * of what changed compares the two.
   */
  previous: OpenAPIDocument;
}

/** Dangling references, each with the component it means and why. */
export type Repairs = Record<string, { to: string; why: string }>;

/**
 * References of a file to a component it does not define, and the one they mean, by file. Each repair
 * is checked still to be needed: once the vendor fixes the file, the generator says so.
 */
export const REPAIRS: Record<string, Repairs> = {
  'openapi/go-flashduty-02193386/openapi.en.json': {
    '#/components/responses/InternalError': {
      to: '#/components/responses/ServerError',
      why: '/account/info names it for its 500 answer; every other operation names ServerError, the 500 the file defines',
    },
  },
};

/**
 * A request schema replaced: the one the file has (checked), the one used instead (or how to make it
 * from the file's components), and why.
 */
export interface BodyRepair {
  was: unknown;
  body: Json | ((document: OpenAPIDocument) => Json);
  why: string;
}

/**
 * An `allOf` of object schemas as one object schema: properties merged, a later part's replacing
 * an earlier part's of the same name (the operation's own over the shared filter's), required joined.
 */
function flattened(document: OpenAPIDocument, schema: unknown): { properties: Json; required: string[] } {
  const resolve = (node: unknown): Json => {
    const ref = (node as { $ref?: string }).$ref;
    return (ref ? componentOf(document, ref) : node) as Json;
  };
  const node = resolve(schema);
  const merged = { properties: {} as Json, required: [] as string[] };
  for (const part of (node.allOf as unknown[] | undefined) ?? []) {
    const inner = flattened(document, part);
    Object.assign(merged.properties, inner.properties);
    merged.required.push(...inner.required.filter((name) => !merged.required.includes(name)));
  }
  Object.assign(merged.properties, (node.properties as Json | undefined) ?? {});
  for (const name of (node.required as string[] | undefined) ?? [])
    if (!merged.required.includes(name)) merged.required.push(name);
  return merged;
}

type Json = Record<string, unknown>;

/** An open object taking `page_id` (int64), as the status page operations' examples send it. */
const PAGE_BODY = {
  type: 'object',
  description: 'The status page (`page_id`) and, to update it, the fields to change.',
  required: ['page_id'],
  properties: { page_id: { type: 'integer', format: 'int64', description: 'Status page ID.' } },
  additionalProperties: true,
};

/** Request schemas replaced, by file and path. */
export const BODY_REPAIRS: Record<string, Record<string, BodyRepair>> = {
  'openapi/go-flashduty/openapi.en.json': {
    '/status-page/update': {
      was: { $ref: '#/components/schemas/EmptyRequest' },
      body: PAGE_BODY,
      why: 'its body is EmptyRequest (no field, no other allowed) while its example sends page_id, name, page_header and contact_info: typed so, no call would compile; now an open object taking page_id',
    },
    '/status-page/delete': {
      was: { $ref: '#/components/schemas/EmptyRequest' },
      body: PAGE_BODY,
      why: 'its body is EmptyRequest while its example sends the page_id of the page to delete; now an object taking page_id',
    },
    '/insight/alert/topk-by-label': {
      was: { $ref: '#/components/schemas/InsightTopkAlertByLabelRequest' },
      body: (document: OpenAPIDocument) => ({
        type: 'object',
        ...flattened(document, { $ref: '#/components/schemas/InsightTopkAlertByLabelRequest' }),
      }),
      why: 'an allOf of the shared insight filter (orderby: created_at) and its own part (orderby: total_alert_cnt or total_alert_event_cnt, as its example sends): both at once, no orderby could pass and its type was never; now one object, its own orderby in place of the filter’s',
    },
  },
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as OpenAPIDocument;

/** Reads every file and merges them. */
export function loadDescription(): Description {
  const files = SOURCES.map(({ file }) => read(file));
  const named = files.map((document, i) => ({ ...(SOURCES[i] as Source), document }));
  const { document, from } = mergeDescriptions(named);
  const kept = Object.fromEntries(Object.entries(from).filter(([, file]) => file !== NEWEST));
  const previous = mergeDescriptions(named.slice(1).filter((source) => !source.ours)).document;
  return { document, files, kept, previous };
}

/** The files as one description (see the file's comment), and which file each path came from. */
export function mergeDescriptions(
  sources: ReadonlyArray<Source & { document: OpenAPIDocument }>,
  repairs: Record<string, Repairs> = REPAIRS,
  bodies: Record<string, Record<string, BodyRepair>> = BODY_REPAIRS,
): { document: OpenAPIDocument; from: Record<string, string> } {
  const [first, ...rest] = sources.map((source) => ({
    ...source,
    document: repaired(source, repairs[source.file], bodies[source.file]),
  }));
  if (!first) throw new Error('merge: no file to merge');
  const document = first.document;
  const from: Record<string, string> = Object.fromEntries(
    Object.keys(document.paths).map((route) => [route, first.file]),
  );
  for (const { file, document: older } of rest) {
    for (const route of Object.keys(older.paths).filter((name) => !(name in document.paths))) {
      from[route] = file;
      document.paths[route] = structuredClone(older.paths[route] as Record<string, unknown>);
      for (const [kind, name] of referencesOf(older, older.paths[route])) {
        const theirs = older.components[kind]?.[name];
        const ours = document.components[kind]?.[name];
        if (theirs === undefined) continue; // the description's own: the file is written against it
        if (ours === undefined) {
          (document.components[kind] ??= {})[name] = structuredClone(theirs);
        } else if (JSON.stringify(substance(ours)) !== JSON.stringify(substance(theirs))) {
          throw new Error(
            `merge: ${route} (kept from ${file}) uses #/components/${kind}/${name}, which a newer file changed in substance; decide how to keep it`,
          );
        }
      }
      for (const tag of tagsOf(older.paths[route])) {
        const known = document.tags?.some((entry) => entry.name === tag);
        const theirs = older.tags?.find((entry) => entry.name === tag);
        if (!known && theirs) (document.tags ??= []).push(structuredClone(theirs));
      }
    }
  }
  const dangling = [
    ...new Set(referencesOf(document, [document.paths, document.components], false).map(([, , ref]) => ref)),
  ].filter((ref) => componentOf(document, ref) === undefined);
  if (dangling.length > 0) throw new Error(`merge: the description names undefined components: ${dangling.join(', ')}`);
  const schemes = document.components.securitySchemes ?? {};
  const unknown = securityOf(document).filter((scheme) => !(scheme in schemes));
  if (unknown.length > 0)
    throw new Error(`merge: the description names undefined security schemes: ${unknown.join(', ')}`);
  return { document, from };
}

/** Every security scheme the document's security requirements name, its own and its operations'. */
function securityOf(document: OpenAPIDocument): string[] {
  type Requirements = Array<Record<string, unknown>> | undefined;
  const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
  const requirements = [
    document.security,
    ...operations.map((operation) => (operation as { security?: unknown }).security),
  ];
  return [
    ...new Set(requirements.flatMap((list) => ((list as Requirements) ?? []).flatMap((entry) => Object.keys(entry)))),
  ];
}

/** A copy of a file with its repairs applied, each checked still to be needed (the file as read stays as it is). */
function repaired(
  { file, document }: Source & { document: OpenAPIDocument },
  repairs: Repairs = {},
  bodies: Record<string, BodyRepair> = {},
): OpenAPIDocument {
  for (const [ref, { to }] of Object.entries(repairs)) {
    if (componentOf(document, ref) !== undefined) throw new Error(`merge: ${file} now defines ${ref}: drop its repair`);
    if (componentOf(document, to) === undefined) throw new Error(`merge: the repair of ${ref} names ${to}, undefined`);
  }
  let text = JSON.stringify(document);
  for (const [ref, { to }] of Object.entries(repairs)) {
    const named = JSON.stringify({ $ref: ref }).slice(1, -1); // "$ref":"#/components/…"
    if (!text.includes(named)) throw new Error(`merge: ${file} no longer names ${ref}: drop its repair`);
    text = text.replaceAll(named, JSON.stringify({ $ref: to }).slice(1, -1));
  }
  const copy = JSON.parse(text) as OpenAPIDocument;
  for (const [route, { was, body }] of Object.entries(bodies)) {
    const json = (copy.paths[route]?.post as { requestBody?: { content?: Record<string, { schema?: unknown }> } })
      ?.requestBody?.content?.['application/json'];
    if (!json || JSON.stringify(json.schema) !== JSON.stringify(was))
      throw new Error(`merge: ${file} changed the request of ${route}: drop or redo its repair`);
    json.schema = structuredClone(typeof body === 'function' ? body(copy) : body);
  }
  return copy;
}

/** The component a `$ref` names, or undefined. */
function componentOf(document: OpenAPIDocument, ref: string): unknown {
  const [, , kind, name] = ref.split('/') as [string, string, string, string];
  return document.components[kind]?.[name];
}

/** Every component a value names (and with `deep`, those they name in turn), as [kind, name, ref]. */
function referencesOf(document: OpenAPIDocument, value: unknown, deep = true): Array<[string, string, string]> {
  const found = new Map<string, [string, string, string]>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        if (key === '$ref' && typeof child === 'string') {
          const [, , kind, name] = child.split('/') as [string, string, string, string];
          if (!found.has(child)) {
            found.set(child, [kind, name, child]);
            if (deep) visit(componentOf(document, child));
          }
        } else visit(child);
      }
    }
  };
  visit(value);
  return [...found.values()];
}

/** What an operation's tags name. */
function tagsOf(operations: unknown): string[] {
  return Object.values(operations as Record<string, { tags?: string[] }>).flatMap((operation) => operation.tags ?? []);
}

/** Documentation only: what a reader sees, never what a request or an answer may hold. */
const DOCUMENTATION = new Set(['description', 'summary', 'example', 'examples', 'title']);

/**
 * A schema (or response) without its documentation, for telling a change in substance from a
 * reworded one. Under `properties` the keys are field names (a field may be called `description`):
 * those are all kept.
 */
export function substance(value: unknown, names = false): unknown {
  if (Array.isArray(value)) return value.map((item) => substance(item));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => names || (!DOCUMENTATION.has(key) && !key.startsWith('x-')))
      .map(([key, child]) => [key, substance(child, !names && key === 'properties')]),
  );
}
