// One command per named method (made from OPERATIONS in commands.ts): the body from --data (an
// upload's file from --file), the method called by its dotted name, a list walked to its end and an
// answer of NDJSON lines printed line by line. `--help` lists the body's fields from the OpenAPI's
// request schema.

import type { Flashduty } from '../../client/client.js';
import { readData, readFile, UsageError } from '../args.js';
import { type Context, EXIT } from '../command.js';
import { printData, printItems } from '../output.js';

/** The client's method of a dotted name (`'channels.escalateRules.list'`). */
export function methodOf(client: Flashduty, name: string): (body: unknown) => unknown {
  let target: unknown = client;
  for (const part of name.split('.')) target = (target as Record<string, unknown> | undefined)?.[part];
  if (typeof target !== 'function') throw new UsageError(`no method ${name}`);
  return target as (body: unknown) => unknown;
}

/**
 * Calls the method `name` and prints what it gives: every item of a list (`items`), the lines of an
 * NDJSON answer one by one (`lines`), or the data.
 */
export async function method(context: Context, name: string, output: 'items' | 'lines' | 'data'): Promise<number> {
  if (context.positionals.length > 0) {
    throw new UsageError(
      `unexpected argument ${JSON.stringify(context.positionals[0])}; the body goes in --data`,
      context.name,
    );
  }
  const body = readData(context.values.data as string | undefined, context.name, context.stdin) ?? {};
  const file = context.values.file as string | undefined;
  if (file !== undefined) {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new UsageError('--data must be a JSON object beside --file', context.name);
    (body as Record<string, unknown>).file = readFile(file, '--file', context.name);
  }
  const call = methodOf(await context.client(), name);
  if (output === 'items') await printItems(context.io, call(body) as AsyncIterable<unknown>, context.json);
  else if (output === 'lines') await printItems(context.io, each((await call(body)) as unknown[]), context.json);
  else printData(context.io, await call(body), context.json);
  return EXIT.ok;
}

/** An array as the async iterable printItems takes. */
async function* each<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}

/** The request body's fields, for `--help`: name, type, and whether it is required. */
export async function bodyHelp(path: string): Promise<string> {
  const { REQUEST_SCHEMAS, SCHEMA_DEFS } = await import('../../generated/request-schemas.js');
  let schema = REQUEST_SCHEMAS[path];
  for (let hops = 0; schema?.$ref !== undefined && hops < 8; hops++) schema = SCHEMA_DEFS[schema.$ref];
  const fields = Object.entries(schema?.properties ?? {});
  if (fields.length === 0) return 'Body: none.\n';
  const required = new Set(schema?.required ?? []);
  const width = Math.max(...fields.map(([name]) => name.length));
  const lines = fields.map(([name, field]) => {
    const type =
      field.type === 'binary'
        ? 'file (--file)'
        : (field.$ref ?? (Array.isArray(field.type) ? field.type.join('|') : (field.type ?? 'any')));
    const values = field.enum ? ` (${field.enum.map((v) => JSON.stringify(v)).join(', ')})` : '';
    return `  ${name.padEnd(width)}  ${type}${values}${required.has(name) ? '  required' : ''}`;
  });
  return `Body fields (--data):\n${lines.join('\n')}\n`;
}
