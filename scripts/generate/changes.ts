// openapi/CHANGES.md: what the newest vendored OpenAPI file changed, against the description the
// older files make together (what the SDK was generated from before it), as `npm run generate` writes
// it (and `--check` compares it), so that the report can never drift from the files. Rules owned here:
// - operations are told apart by path: added (only the newest file has it), removed (the newest file
//   lacks it: kept from an older one, merge.ts), described here (openapi/supplement.json: no vendored
//   file has it), reshaped (both have it and its request, or its answer's `data`,
//   differs in substance: what a request may hold or an answer holds, with `$ref`s followed and
//   descriptions, examples and `x-` extensions left out), reworded (only documentation differs);
// - each change of a reshaped operation is judged for the SDK's existing callers: a request may
//   gain optional fields, lose requirements and accept more (wider types, more enum values, looser
//   bounds); an answer may gain fields and promise more. Anything else is marked incompatible, with
//   what it breaks: a new requirement or tighter rule is refused by the client's own check before
//   sending; a field gone from a request no longer type-checks; a field gone from an answer, or one
//   that may now be missing or null, needs the caller's care;
// - the methods of the operations both have are compared too (name, HTTP method, retry policy,
//   paging), as the generator derives them from each.

import type { Described, Document } from './methods.js';
import { describeOperations } from './methods.js';
import { BODY_REPAIRS, type Description, NEWEST, REPAIRS, SOURCES, substance } from './merge.js';

type Json = Record<string, unknown>;

/** One change of a reshaped operation: where, what, and whether existing callers are unaffected. */
export interface Change {
  at: string;
  what: string;
  compatible: boolean;
}

/** Which side of a call a schema describes: the rules of compatibility are each other's mirror. */
export type Side = 'request' | 'answer';

const BOUNDS_LOW = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems'] as const;
const BOUNDS_HIGH = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems'] as const;

/** The operation object of a path (its POST, else its GET). */
function operationOf(document: Document, path: string): Json | undefined {
  const methods = document.paths[path] as Record<string, Json> | undefined;
  return methods?.post ?? methods?.get;
}

/** A request as one object schema: its JSON body, its form, or its query parameters. */
function requestSchema(operation: Json): unknown {
  const content = (operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content;
  const body = content?.['application/json']?.schema ?? content?.['multipart/form-data']?.schema;
  if (body) return body;
  const query = ((operation.parameters as Json[] | undefined) ?? []).filter((p) => p.in === 'query');
  return {
    type: 'object',
    required: query.filter((p) => p.required).map((p) => p.name),
    properties: Object.fromEntries(query.map((p) => [p.name, p.schema ?? {}])),
  };
}

/** The `data` of an operation's success answer (the whole answer where it is not an envelope). */
function answerSchema(operation: Json): unknown {
  const content = (
    operation.responses as Record<string, { content?: Record<string, { schema?: Json }> }> | undefined
  )?.['200']?.content;
  const json = content?.['application/json']?.schema as { allOf?: Json[] } | undefined;
  if (!json) return Object.values(content ?? {})[0]?.schema ?? {};
  const data = json.allOf?.find((part) => (part.properties as Json | undefined)?.data)?.properties as Json | undefined;
  return data?.data ?? {};
}

/** The schema `$ref` names (followed), its `allOf` parts folded into one, `nullable` as a `null` type. */
function resolve(document: Document, schema: unknown, seen: string[] = []): { schema: Json; seen: string[] } {
  let current = (schema ?? {}) as Json;
  let path = seen;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 16; hops++) {
    const name = current.$ref.replace('#/components/schemas/', '');
    if (path.includes(name)) return { schema: { $recursive: name }, seen: path };
    path = [...path, name];
    current = (document.components.schemas[name] ?? {}) as Json;
  }
  if (Array.isArray(current.allOf)) {
    const { allOf, ...rest } = current;
    const merged: Json = {
      ...rest,
      properties: { ...(rest.properties as Json) },
      required: [...((rest.required as string[]) ?? [])],
    };
    for (const part of allOf as unknown[]) {
      const { schema: folded } = resolve(document, part, path);
      Object.assign(merged.properties as Json, folded.properties);
      (merged.required as string[]).push(...((folded.required as string[] | undefined) ?? []));
      for (const [key, value] of Object.entries(folded)) if (!(key in merged)) merged[key] = value;
    }
    if ((merged.required as string[]).length === 0) delete merged.required;
    if (Object.keys(merged.properties as Json).length === 0) delete merged.properties;
    current = merged;
  }
  return { schema: current, seen: path };
}

/** A schema's types as a set (`nullable` adds `null`; none given: none). */
function typesOf(schema: Json): Set<string> {
  const types = new Set([schema.type ?? []].flat() as string[]);
  if (schema.nullable === true) types.add('null');
  return types;
}

/** Whether every value `narrow` admits, `wide` admits too (`number` takes integers). */
function covers(wide: Set<string>, narrow: Set<string>): boolean {
  return [...narrow].every((type) => wide.has(type) || (type === 'integer' && wide.has('number')));
}

const show = (value: unknown) =>
  Array.isArray(value) ? value.map((v) => JSON.stringify(v)).join(', ') : JSON.stringify(value);
const join = (at: string, name: string) => (at ? `${at}.${name}` : name);

/** The changes from `before` to `after` of a request or an answer schema. */
function compare(
  document: { old: Document; new: Document },
  before: unknown,
  after: unknown,
  side: Side,
  at: string,
  seen: { old: string[]; new: string[] },
  out: Change[],
): void {
  const a = resolve(document.old, before, seen.old);
  const b = resolve(document.new, after, seen.new);
  const next = { old: a.seen, new: b.seen };
  const older = a.schema;
  const newer = b.schema;
  if (older.$recursive !== undefined || newer.$recursive !== undefined) return; // compared where it was first met
  const request = side === 'request';
  const add = (what: string, compatible: boolean) => out.push({ at: at || '(the whole)', what, compatible });

  const [typesBefore, typesAfter] = [typesOf(older), typesOf(newer)];
  if (typesBefore.size > 0 || typesAfter.size > 0) {
    const was = [...typesBefore].join(' | ') || 'any';
    const is = [...typesAfter].join(' | ') || 'any';
    const wider = typesAfter.size === 0 || (typesBefore.size > 0 && covers(typesAfter, typesBefore));
    const narrower = typesBefore.size === 0 || (typesAfter.size > 0 && covers(typesBefore, typesAfter));
    if (!(wider && narrower)) {
      // A request's type accepts values; an answer's holds them.
      const more = request ? 'accepts more' : 'may hold more';
      const less = request ? 'accepts less' : 'holds less';
      if (wider) add(`type ${was} → ${is} (${more})`, request);
      else if (narrower) add(`type ${was} → ${is} (${less})`, !request);
      else add(`type ${was} → ${is}`, false);
    }
  }

  const enumBefore = older.enum as unknown[] | undefined;
  const enumAfter = newer.enum as unknown[] | undefined;
  if (enumBefore && !enumAfter) add(`no longer limited to ${show(enumBefore)}`, request);
  else if (!enumBefore && enumAfter) add(`now limited to ${show(enumAfter)}`, !request);
  else if (enumBefore && enumAfter) {
    const gained = enumAfter.filter((v) => !enumBefore.includes(v));
    const lost = enumBefore.filter((v) => !enumAfter.includes(v));
    if (gained.length > 0) add(`new values ${show(gained)}`, true);
    if (lost.length > 0) add(`values ${show(lost)} gone`, !request);
  }
  if (JSON.stringify(older.const) !== JSON.stringify(newer.const))
    add(`const ${show(older.const)} → ${show(newer.const)}`, false);

  for (const [keys, tighter] of [
    [BOUNDS_LOW, (x: number, y: number) => y > x],
    [BOUNDS_HIGH, (x: number, y: number) => y < x],
  ] as const) {
    for (const key of keys) {
      const [x, y] = [older[key] as number | undefined, newer[key] as number | undefined];
      if (x === y) continue;
      const tightened = x === undefined || (y !== undefined && tighter(x, y));
      add(`${key} ${x ?? 'none'} → ${y ?? 'none'}`, tightened ? !request : request);
    }
  }
  if (older.pattern !== newer.pattern) {
    // A request may lose a pattern (accepts more); an answer may gain one (promises more).
    const compatible = request ? newer.pattern === undefined : older.pattern === undefined;
    add(`pattern ${show(older.pattern ?? 'none')} → ${show(newer.pattern ?? 'none')}`, compatible);
  }

  const propsBefore = (older.properties ?? {}) as Json;
  const propsAfter = (newer.properties ?? {}) as Json;
  const requiredBefore = new Set((older.required as string[] | undefined) ?? []);
  const requiredAfter = new Set((newer.required as string[] | undefined) ?? []);
  for (const name of new Set([...Object.keys(propsBefore), ...Object.keys(propsAfter)])) {
    const where = join(at, name);
    if (!(name in propsBefore)) {
      const required = requiredAfter.has(name);
      out.push({ at: where, what: required ? 'new, required' : 'new', compatible: !request || !required });
    } else if (!(name in propsAfter)) {
      out.push({ at: where, what: 'gone', compatible: false });
    } else {
      if (!requiredBefore.has(name) && requiredAfter.has(name))
        out.push({ at: where, what: 'now required', compatible: !request });
      if (requiredBefore.has(name) && !requiredAfter.has(name))
        out.push({ at: where, what: 'no longer required', compatible: request });
      compare(document, propsBefore[name], propsAfter[name], side, where, next, out);
    }
  }
  if (older.items !== undefined || newer.items !== undefined)
    compare(document, older.items, newer.items, side, `${at}[]`, next, out);
  const [extraBefore, extraAfter] = [older.additionalProperties, newer.additionalProperties];
  if (typeof extraBefore === 'object' && typeof extraAfter === 'object')
    compare(document, extraBefore, extraAfter, side, `${at}{}`, next, out);
  else if (JSON.stringify(substance(extraBefore)) !== JSON.stringify(substance(extraAfter)))
    add(`other fields: ${show(extraBefore ?? 'unsaid')} → ${show(extraAfter ?? 'unsaid')}`, false);

  for (const key of ['oneOf', 'anyOf'] as const) {
    const [x, y] = [(older[key] as unknown[] | undefined) ?? [], (newer[key] as unknown[] | undefined) ?? []];
    if (x.length === y.length)
      x.forEach((part, i) => compare(document, part, y[i], side, `${at}<${key} ${i + 1}>`, next, out));
    else add(`${key}: ${x.length} alternatives → ${y.length}`, false);
  }
}

/** The changes from `before` (a schema of `older`) to `after` (of `newer`), judged for a request or an answer. */
export function schemaChanges(older: Document, newer: Document, before: unknown, after: unknown, side: Side): Change[] {
  const out: Change[] = [];
  compare({ old: older, new: newer }, before, after, side, '', { old: [], new: [] }, out);
  return out;
}

/** What the report says of a kept or added operation's method. */
const methodCell = (operation: Described) =>
  `\`${operation.method}\`${operation.paging ? ' (pages)' : ''}${operation.multipart ? ' (a form)' : ''}${operation.ndjson ? ' (NDJSON lines)' : ''}`;

/** A Markdown table cell: pipes escaped, one line. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The report, as Markdown. */
export function changesFile(description: Description, described: Described[]): string {
  const older = description.previous as unknown as Document;
  const newer = description.document as unknown as Document;
  const newest = description.files[0] as unknown as Document;
  const byPath = new Map(described.map((operation) => [operation.path, operation]));
  const before = new Map(describeOperations(older, {}, true).map((operation) => [operation.path, operation]));
  const olderPaths = Object.keys(older.paths);
  const newerPaths = Object.keys(newest.paths);
  const added = newerPaths.filter((path) => !(path in older.paths));
  const common = newerPaths.filter((path) => path in older.paths);
  const ours = new Set(SOURCES.filter((source) => source.ours).map((source) => source.file));
  const kept = Object.entries(description.kept).filter(([, file]) => !ours.has(file));
  const supplied = Object.entries(description.kept).filter(([, file]) => ours.has(file));
  const vendored = SOURCES.filter((source) => !source.ours);

  const reshaped: Array<{ path: string; request: Change[]; answer: Change[] }> = [];
  const reworded: string[] = [];
  for (const path of common) {
    const [was, is] = [operationOf(older, path) as Json, operationOf(newer, path) as Json];
    const request: Change[] = [];
    const answer: Change[] = [];
    request.push(...schemaChanges(older, newer, requestSchema(was), requestSchema(is), 'request'));
    answer.push(...schemaChanges(older, newer, answerSchema(was), answerSchema(is), 'answer'));
    if (request.length > 0 || answer.length > 0) reshaped.push({ path, request, answer });
    else if (JSON.stringify(ownText(older, was)) !== JSON.stringify(ownText(newer, is))) reworded.push(path);
  }
  const incompatible = reshaped.filter(({ request, answer }) => [...request, ...answer].some((c) => !c.compatible));

  const surface = common.flatMap((path) => {
    const [was, is] = [before.get(path) as Described, byPath.get(path) as Described];
    const facts = (o: Described) =>
      `\`${o.method}\`, ${o.http}, ${o.retry}${o.paging ? `, pages by ${o.paging.mode}` : ''}`;
    return facts(was) === facts(is) ? [] : [`| \`${path}\` | ${facts(was)} | ${facts(is)} |`];
  });

  const resources = new Map<string, Described[]>();
  for (const path of added) {
    const operation = byPath.get(path) as Described;
    const resource = operation.method.split('.')[0] as string;
    resources.set(resource, [...(resources.get(resource) ?? []), operation]);
  }

  const row = (path: string) => {
    const o = byPath.get(path) as Described;
    return `| ${methodCell(o)} | \`${o.http} ${o.path}\` | ${cell(o.summary)} |`;
  };
  const lines = [
    '# What changed in the newest OpenAPI',
    '',
    `<!-- Written by \`npm run generate\` (scripts/generate/changes.ts) from the files of openapi/SOURCES.md. Do not edit. -->`,
    '',
    `The newest description (\`${NEWEST}\`, ${vendored[0]?.origin}) has ${newerPaths.length} operations; the`,
    `older ones (${vendored
      .slice(1)
      .map((source) => `\`${source.file}\`, ${source.origin}`)
      .join('; ')}) make together the description the SDK was generated from before it, with ${olderPaths.length}.`,
    `The SDK is generated from all of them (scripts/generate/merge.ts): the newest whole, the ${kept.length} operations it`,
    `lacks kept from the older ones, and ${supplied.length} described in \`openapi/supplement.json\`, so it has ${Object.keys(newer.paths).length} operations, each a method.`,
    `Of the ${common.length} operations the newest and the older ones share, ${reshaped.length} are reshaped`,
    `(${incompatible.length} of them in a way existing callers may notice, marked ✗ below) and ${reworded.length} changed in their documentation only.`,
    '',
    '| | operations |',
    '| --- | --- |',
    `| added | ${added.length} |`,
    `| removed from the newest description (kept from an older one) | ${kept.length} |`,
    `| described here (no vendored file has them) | ${supplied.length} |`,
    `| reshaped (request or answer) | ${reshaped.length} |`,
    `| reworded only | ${reworded.length} |`,
    `| unchanged | ${common.length - reshaped.length - reworded.length} |`,
    '',
    `## Added (${added.length})`,
    '',
    ...[...resources.entries()].flatMap(([resource, operations]) => [
      `### \`client.${resource}\` (${operations.length})`,
      '',
      '| method | operation | summary |',
      '| --- | --- | --- |',
      ...operations.map((o) => row(o.path)),
      '',
    ]),
    `## Removed (${kept.length}): kept from an older description`,
    '',
    'The newest description does not list these; their methods stay, generated from the file named, and',
    'their documentation says so.',
    '',
    '| method | operation | summary | kept from |',
    '| --- | --- | --- | --- |',
    ...kept.map(([path, file]) => `${row(path)} \`${file}\` |`),
    '',
    `## Described here (${supplied.length})`,
    '',
    'No vendored file describes these, but the vendor’s Go SDK calls them: `openapi/supplement.json` does',
    '(see SOURCES.md), and they are methods like any other.',
    '',
    '| method | operation | summary |',
    '| --- | --- | --- |',
    ...supplied.map(([path]) => row(path)),
    '',
    `## Reshaped (${reshaped.length})`,
    '',
    'Each change, where it is (`a.b[]` is a field of the items of `b`), and whether code written against the',
    'older description is unaffected (✓) or may notice it (✗). ✗ in a request: the client now refuses the',
    'older body before sending it (a new requirement, a tighter rule), or the field is gone from the',
    'params’ type; ✗ in an answer: a field may now be missing, null or of another type.',
    '',
    ...reshaped.flatMap(({ path, request, answer }) => {
      const all = [...request, ...answer];
      const verdict = all.every((c) => c.compatible) ? 'compatible' : 'callers may notice';
      return [
        `### \`${(byPath.get(path) as Described).method}\` (\`${path}\`): ${verdict}`,
        '',
        ...request.map((c) => `- ${c.compatible ? '✓' : '✗'} request \`${c.at}\`: ${c.what}`),
        ...answer.map((c) => `- ${c.compatible ? '✓' : '✗'} answer \`${c.at}\`: ${c.what}`),
        '',
      ];
    }),
    `## Reworded only (${reworded.length})`,
    '',
    'Their summaries, descriptions or examples changed; what they take and answer did not.',
    '',
    ...reworded.map((path) => `- \`${path}\` (\`${(byPath.get(path) as Described).method}\`)`),
    '',
    '## The methods of the operations both have',
    '',
    ...(surface.length === 0
      ? ['Every one keeps its name, HTTP method, retry policy and paging.']
      : [
          'These methods changed what the generator derives from the description:',
          '',
          '| operation | from the older | from the newer |',
          '| --- | --- | --- |',
          ...surface,
        ]),
    '',
    '## Repaired in the merged description',
    '',
    ...Object.entries(REPAIRS).flatMap(([file, repairs]) =>
      Object.entries(repairs).map(([ref, { to, why }]) => `- \`${file}\`: \`${ref}\` → \`${to}\`: ${why}.`),
    ),
    ...Object.entries(BODY_REPAIRS).flatMap(([file, repairs]) =>
      Object.entries(repairs).map(
        ([route, { why }]) =>
          `- \`${file}\`: the request schema of \`${route}\` is replaced (scripts/generate/merge.ts): ${why}.`,
      ),
    ),
    '',
  ];
  return lines.join('\n');
}

/**
 * What an operation says of itself, every `$ref` followed: its summary, description and notes, its
 * request and its success answer with their examples. Not its error answers: those are shared by
 * every operation, and their rewording is no operation's.
 */
function ownText(document: Document, operation: Json): unknown {
  const { summary, description, parameters, requestBody, responses } = operation;
  const success = (responses as Json | undefined)?.['200'];
  const notes = operation['x-mint'];
  return resolveDeep(document, { summary, description, notes, parameters, requestBody, success });
}

/** A value with every `$ref` followed (cycles cut). */
function resolveDeep(document: Document, value: unknown, seen: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveDeep(document, item, seen));
  if (typeof value !== 'object' || value === null) return value;
  const ref = (value as Json).$ref;
  if (typeof ref === 'string') {
    const [, , kind, name] = ref.split('/') as [string, string, string, string];
    if (seen.includes(ref)) return { $recursive: name };
    const target = (document.components as unknown as Record<string, Json | undefined>)[kind]?.[name];
    return resolveDeep(document, target, [...seen, ref]);
  }
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, resolveDeep(document, child, seen)]));
}
