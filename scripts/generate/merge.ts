// The one OpenAPI description everything is generated from, made from the two vendored files
// (openapi/SOURCES.md): the newer file (go-flashduty's) whole, and each operation only the older file
// (flashduty-docs') has, taken from it unchanged, so that no method of the SDK disappears because the
// vendor's newer description left its operation out. Rules owned here:
// - the newer file wins for every path both have, and for every shared component;
// - a kept operation may name a component (`$ref`) of the older file: the newer file's component of
//   that name is used when it differs at most in documentation (descriptions, examples, summaries,
//   `x-` extensions); one it lacks is copied from the older file; one it changed in substance stops
//   the generator, since the kept operation would silently change shape;
// - kept paths come after the newer file's, in the older file's order: the result is deterministic;
// - a reference to a component the description does not define is an error, but for the repairs
//   REPAIRS lists, each with its reason (openapi-typescript and Prism refuse such a document).
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

/** The two vendored files, relative to the repository's root. */
export const NEWER = 'openapi/go-flashduty/openapi.en.json';
export const OLDER = 'openapi/openapi.en.json';

/** The merged description, and what it took from which file. */
export interface Description {
  document: OpenAPIDocument;
  newer: OpenAPIDocument;
  older: OpenAPIDocument;
  /** Paths only the older file has, kept from it. */
  kept: string[];
}

/** Dangling references, each with the component it means and why. */
export type Repairs = Record<string, { to: string; why: string }>;

/**
 * References of the newer file to a component it does not define, and the one they mean. Each
 * repair is checked still to be needed: once the vendor fixes the file, the generator says so.
 */
export const REPAIRS: Repairs = {
  '#/components/responses/InternalError': {
    to: '#/components/responses/ServerError',
    why: '/account/info names it for its 500 answer; every other operation names ServerError, the 500 the file defines',
  },
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as OpenAPIDocument;

/** Reads both vendored files and merges them. */
export function loadDescription(): Description {
  const newer = read(NEWER);
  const older = read(OLDER);
  const { document, kept } = mergeDescriptions(newer, older);
  return { document, newer, older, kept };
}

/** The newer description with every operation only the older one has (see the file's comment). */
export function mergeDescriptions(
  newer: OpenAPIDocument,
  older: OpenAPIDocument,
  repairs: Repairs = REPAIRS,
): { document: OpenAPIDocument; kept: string[] } {
  const document = repaired(newer, repairs);
  const kept = Object.keys(older.paths).filter((route) => !(route in newer.paths));
  for (const route of kept) {
    document.paths[route] = structuredClone(older.paths[route] as Record<string, unknown>);
    for (const [kind, name] of referencesOf(older, older.paths[route])) {
      const theirs = older.components[kind]?.[name];
      const ours = document.components[kind]?.[name];
      if (ours === undefined) {
        (document.components[kind] ??= {})[name] = structuredClone(theirs);
      } else if (JSON.stringify(substance(ours)) !== JSON.stringify(substance(theirs))) {
        throw new Error(
          `merge: ${route} (kept from ${OLDER}) uses #/components/${kind}/${name}, which ${NEWER} changed in substance; decide how to keep it`,
        );
      }
    }
    for (const tag of tagsOf(older.paths[route])) {
      const known = document.tags?.some((entry) => entry.name === tag);
      const theirs = older.tags?.find((entry) => entry.name === tag);
      if (!known && theirs) (document.tags ??= []).push(structuredClone(theirs));
    }
  }
  const dangling = [
    ...new Set(referencesOf(document, [document.paths, document.components], false).map(([, , ref]) => ref)),
  ].filter((ref) => componentOf(document, ref) === undefined);
  if (dangling.length > 0) throw new Error(`merge: the description names undefined components: ${dangling.join(', ')}`);
  return { document, kept };
}

/** A copy of the newer file with its repairs applied, each checked still to be needed. */
function repaired(newer: OpenAPIDocument, repairs: Repairs): OpenAPIDocument {
  for (const [ref, { to }] of Object.entries(repairs)) {
    if (componentOf(newer, ref) !== undefined) throw new Error(`merge: ${NEWER} now defines ${ref}: drop its repair`);
    if (componentOf(newer, to) === undefined) throw new Error(`merge: the repair of ${ref} names ${to}, undefined`);
  }
  let text = JSON.stringify(newer);
  for (const [ref, { to }] of Object.entries(repairs)) {
    const named = JSON.stringify({ $ref: ref }).slice(1, -1); // "$ref":"#/components/…"
    if (!text.includes(named)) throw new Error(`merge: ${NEWER} no longer names ${ref}: drop its repair`);
    text = text.replaceAll(named, JSON.stringify({ $ref: to }).slice(1, -1));
  }
  return JSON.parse(text) as OpenAPIDocument;
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
