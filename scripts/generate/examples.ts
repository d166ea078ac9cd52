// `src/generated/examples.ts`: for every operation, the body its command's `--help` example sends:
// the required fields of the OpenAPI's own request example where that example fits the request
// schema, else the smallest body the schema allows; path parameters from their own examples; a time
// window that is empty there (0 to 0) made one day from 2026-01-01, in the fields' unit. Only
// required fields, so that an example stays one line; a form's file is left to `--file`. Loaded only
// by the command line's `--help`.

import { checkSchema, type Schema } from '../../src/internal/schema.js';
import { sample } from '../../src/internal/schema-sample.js';
import { requiredOf } from './fields.js';
import { bodySchemaOf, type Described, type Document } from './methods.js';
import { table } from './table.js';

/** 2026-01-01T00:00:00Z, in seconds: where an example's empty window starts. */
const WINDOW_START = 1_767_225_600;
const DAY = 86_400;

/** A body whose start and end times (top-level, as `times` has them) make no window: one day from WINDOW_START instead. */
function withWindow(body: Record<string, unknown>, times: Described['times']): Record<string, unknown> {
  const out = { ...body };
  for (const [start, unit] of Object.entries(times)) {
    const end = start.replace(/(^|_)start(_|$)/, '$1end$2');
    if (end === start || start.includes('.') || !(start in out) || !(end in out)) continue;
    if ((out[end] as number) > (out[start] as number)) continue;
    const scale = unit === 'ms' ? 1000 : 1;
    [out[start], out[end]] = [WINDOW_START * scale, (WINDOW_START + DAY) * scale];
  }
  return out;
}

/** A schema with its `$ref`s followed. */
function resolved(schema: Schema | undefined, defs: Record<string, Schema>): Schema | undefined {
  let current = schema;
  for (let hops = 0; current?.$ref !== undefined && hops < 8; hops++) current = defs[current.$ref];
  return current;
}

/** Whether a value holds a file (a form's binary field): the command line takes it as `--file`. */
const isFile = (value: unknown) => typeof Blob !== 'undefined' && value instanceof Blob;

export function examplesFile(
  document: Document,
  { requests, defs }: { requests: Record<string, Schema>; defs: Record<string, Schema> },
  described: Described[],
  header: string,
): string {
  const timesOf = new Map(described.map((operation) => [operation.path, operation.times]));
  const examples: Record<string, Record<string, unknown> | unknown[]> = {};
  for (const [route, methods] of Object.entries(document.paths)) {
    const operation = methods.post ?? methods.get;
    const schema = requests[route];
    if (!operation || !schema) continue;
    const content = operation.requestBody?.content;
    const given = (content?.['application/json'] ?? content?.['multipart/form-data'])?.example;
    const params = Object.fromEntries(
      (operation.parameters ?? [])
        .filter((p) => p.in === 'path' || (!bodySchemaOf(operation) && p.in === 'query'))
        .flatMap((p) =>
          (p as { example?: unknown }).example === undefined ? [] : [[p.name, (p as { example?: unknown }).example]],
        ),
    );
    if (Array.isArray(given) || [resolved(schema, defs)?.type].flat().includes('array')) {
      // A body that is a list (an import): the example's, else the smallest list the schema allows.
      examples[route] = (
        Array.isArray(given) && !checkSchema(given, schema, defs) ? given : sample(schema, defs)
      ) as never;
      continue;
    }
    const candidate = typeof given === 'object' && given !== null ? { ...given, ...params } : params;
    const body = withWindow(
      (checkSchema(candidate, schema, defs) ? sample(schema, defs) : candidate) as Record<string, unknown>,
      timesOf.get(route) ?? {},
    );
    const required = new Set(requiredOf((part: Schema | undefined) => resolved(part, defs), schema));
    examples[route] = Object.fromEntries(
      Object.entries(body).filter(([name, value]) => required.has(name) && !isFile(value)),
    );
  }
  return `${header}
// The body each operation's command shows in its \`--help\` example (scripts/generate/examples.ts):
// the required fields of the OpenAPI's request example where it fits, else the smallest body the
// schema allows. Loaded only by the command line's \`--help\`.

/** The example body of each operation, by path (its path parameters included). */
export const EXAMPLES: Record<string, Record<string, unknown> | unknown[]> = ${table(examples)};
`;
}
