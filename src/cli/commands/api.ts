// `flashduty api <path>` calls any operation by its path, as `gh api` calls any route: the body from
// --data, the response's `data` printed as JSON; `--paginate` walks a list operation's pages and
// prints every item, one JSON object per line. The path goes to the service as given (it may know
// routes the manifest does not yet); when the service answers RouteNotFound, the error names the
// nearest path of the manifest (OPERATIONS).

import { closest } from '../../internal/closest.js';
import type { Command, Context } from '../command.js';
import { addNote, EXIT, UsageError } from '../exit.js';
import { DATA_FLAG } from '../flags.js';
import { printData, printItems } from '../output.js';
import { readData } from '../values.js';
import { methodOf } from './methods.js';

export const API_COMMAND: Command = {
  words: ['api'],
  summary: 'call any operation by its path (as `gh api`); prints the response data as JSON',
  args: '<path>',
  flags: {
    data: DATA_FLAG,
    paginate: { type: 'boolean', description: 'every item of a list operation, one JSON object per line' },
  },
  example: `flashduty api /incident/ack --data '{"incident_ids":["69da451ef77b1b51f40e83ee"]}'`,
  run: api,
};

async function api(context: Context): Promise<number> {
  const [path, extra] = context.positionals;
  if (path === undefined) throw new UsageError('the operation path is required, e.g. /incident/list', context.name);
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`, context.name);
  if (!path.startsWith('/'))
    throw new UsageError(`expected a path such as /incident/ack, got ${JSON.stringify(path)}`, context.name);
  const body = readData(context.values.data as string | undefined, context.name, context.stdin) ?? {};
  const client = await context.client();
  if (context.values.paginate === true) {
    const operations = await manifest();
    const info = operations[path];
    if (!info?.paging) {
      const lists = Object.keys(operations).filter((known) => operations[known]?.paging);
      throw new UsageError(
        `--paginate: ${path} is not a list operation of the OpenAPI${meant(path, lists, ' (did you mean ', '?)')}`,
        context.name,
      );
    }
    await printItems(context.io, methodOf(client, info.method)(body) as AsyncIterable<unknown>, true);
    return EXIT.ok;
  }
  try {
    printData(context.io, await client.request(path as never, body as never), context.json);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'RouteNotFound') throw error;
    const near = meant(path, Object.keys(await manifest()), 'Did you mean ', '?');
    throw near ? addNote(error, near) : error;
  }
  return EXIT.ok;
}

/** The manifest of operations by path (large: loaded when asked). */
async function manifest(): Promise<Record<string, { method: string; paging?: string }>> {
  return (await import('../../operations.js')).OPERATIONS;
}

/** The known path nearest to `path`, between `before` and `after`; empty when none is near. */
function meant(path: string, known: string[], before: string, after: string): string {
  const near = closest(path, known);
  return near ? `${before}${near}${after}` : '';
}
