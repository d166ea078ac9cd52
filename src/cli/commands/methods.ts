// One command per named method of the manifest (OPERATIONS), so that no command is written by hand
// that the manifest can give: its words are the method's (`channels.escalateRules.list` is
// `channels escalate-rules list`), its body comes from --data (an upload's file from --file, path
// parameters from the arguments: `automations triggers fire <trigger_id>`), the method is called by
// its dotted name (with --token where the operation takes a token of its own), a list is walked to
// its end and an answer of NDJSON lines printed line by line. `--help` lists the body's fields from
// the OpenAPI's request schema, and an example made from the OpenAPI's (src/generated/examples.ts).

import type { Flashduty } from '../../client/client.js';
import type { OperationInfo } from '../../operations.js';
import type { Command, Context } from '../command.js';
import { EXIT, UsageError } from '../exit.js';
import { DATA_FLAG, type Flag } from '../flags.js';
import { printData, printItems, shellQuote } from '../output.js';
import { readData, readFile } from '../values.js';

/** `escalateRules` → `escalate-rules`: a method's words as the command line writes them. */
export const kebab = (word: string): string => word.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const FILE: Flag = {
  type: 'string',
  value: '<path>',
  description: 'the file to upload (sent as the form’s file, under its name on disk)',
};

const TOKEN: Flag = {
  type: 'string',
  value: '<token>',
  description: 'the operation’s own token (an automation trigger’s), sent instead of the app key; never printed',
};

/** What the generated rules say of an operation that shapes its command (src/generated/operation-rules.ts). */
export interface MethodRule {
  pathParams?: readonly string[];
  multipart?: boolean;
  token?: boolean;
  ndjson?: boolean;
}

/** How a generated command prints: every item of a list, each line of an NDJSON answer, or the data. */
type Output = 'items' | 'lines' | 'data';

/**
 * The command of the method at `path`. An upload (a form, as the generated rules say) also takes
 * --file; an operation with path parameters takes them as arguments, one with a token of its own
 * takes --token; a list, and an answer of NDJSON lines, print one item (line) after another.
 */
export function methodCommand(path: string, info: OperationInfo, rule: MethodRule | undefined): Command {
  const words = info.method.split('.').map(kebab);
  const output: Output = info.paging ? 'items' : rule?.ndjson ? 'lines' : 'data';
  const shape: CommandShape = {
    path,
    pathParams: [...(rule?.pathParams ?? [])],
    upload: rule?.multipart === true,
    token: rule?.token === true,
  };
  return {
    words,
    summary: `${info.summary} (${info.http} ${path})${info.paging ? '; walks every page' : ''}`,
    ...(shape.pathParams.length > 0 ? { args: shape.pathParams.map((name) => `<${name}>`).join(' ') } : {}),
    flags: { data: DATA_FLAG, ...(shape.upload ? { file: FILE } : {}), ...(shape.token ? { token: TOKEN } : {}) },
    example: () => example(words, shape, output),
    details: () => bodyHelp(path),
    run: (context) => callMethod(context, info.method, output, shape),
  };
}

/** The client's method of a dotted name (`'channels.escalateRules.list'`). */
export function methodOf(client: Flashduty, name: string): (body: unknown, options?: { token?: string }) => unknown {
  let target: unknown = client;
  for (const part of name.split('.')) target = (target as Record<string, unknown> | undefined)?.[part];
  if (typeof target !== 'function') throw new UsageError(`no method ${name}`);
  return target as (body: unknown, options?: { token?: string }) => unknown;
}

/** What a generated command knows of its operation beyond its method: how its call is made. */
interface CommandShape {
  path: string;
  /** Path parameters, given as the command's arguments in this order. */
  pathParams: string[];
  /** A form: the file comes from --file. */
  upload: boolean;
  /** The operation takes a token of its own, from --token. */
  token: boolean;
}

/**
 * Calls the method `name` and prints what it gives: every item of a list (`items`), the lines of an
 * NDJSON answer one by one (`lines`), or the data.
 */
async function callMethod(context: Context, name: string, output: Output, shape: CommandShape): Promise<number> {
  const { positionals } = context;
  if (positionals.length !== shape.pathParams.length) {
    const extra = positionals[shape.pathParams.length];
    throw new UsageError(
      extra === undefined
        ? `${shape.pathParams.map((param) => `<${param}>`).join(' ')} ${shape.pathParams.length === 1 ? 'is' : 'are'} required`
        : `unexpected argument ${JSON.stringify(extra)}; the body goes in --data`,
      context.name,
    );
  }
  const body = readData(context.values.data as string | undefined, context.name, context.stdin) ?? {};
  const file = context.values.file as string | undefined;
  const params = Object.fromEntries(shape.pathParams.map((param, i) => [param, positionals[i]]));
  if (file !== undefined || shape.pathParams.length > 0) {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new UsageError('--data must be a JSON object beside --file or arguments', context.name);
    Object.assign(body, params, file === undefined ? {} : { file: readFile(file, '--file', context.name) });
  }
  const token = context.values.token as string | undefined;
  const method = methodOf(await context.client(), name);
  const call = (params: unknown) => (token === undefined ? method(params) : method(params, { token }));
  if (output === 'items') await printItems(context.io, call(body) as AsyncIterable<unknown>, context.json);
  else if (output === 'lines') await printItems(context.io, each((await call(body)) as unknown[]), context.json);
  else printData(context.io, await call(body), context.json);
  return EXIT.ok;
}

/**
 * The command's example line: its arguments, --token, the example body's other fields as --data
 * (quoted for a POSIX shell), --file for an upload, --json for a list.
 */
async function example(words: string[], shape: CommandShape, output: Output): Promise<string> {
  const { EXAMPLES } = await import('../../generated/examples.js');
  const { [shape.path]: given = {} } = EXAMPLES;
  const fields = Array.isArray(given) ? {} : given;
  const body = Array.isArray(given)
    ? given
    : Object.fromEntries(Object.entries(given).filter(([field]) => !shape.pathParams.includes(field)));
  const parts = [
    'flashduty',
    ...words,
    ...shape.pathParams.map((param) => (typeof fields[param] === 'string' ? fields[param] : `<${param}>`)),
    ...(shape.token ? ['--token', '"$TRIGGER_TOKEN"'] : []),
    ...(Object.keys(body).length > 0 ? ['--data', shellQuote(JSON.stringify(body))] : []),
    ...(shape.upload ? ['--file', 'skill.zip'] : []),
    ...(output === 'data' ? [] : ['--json']),
  ];
  return parts.join(' ');
}

/** An array as the async iterable printItems takes. */
async function* each<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}

/** The request body's fields, for `--help`: name, type, and whether it is required. */
async function bodyHelp(path: string): Promise<string> {
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
