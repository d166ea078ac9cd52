// The everyday incident commands: `incidents list` with the conveniences of listIncidents as flags
// (a window as durations or dates, comma lists), and the lifecycle with ids as arguments
// (`incidents ack <id…>`, `resolve`, `reopen`, `comment <id> --text …`). Each also takes the
// request body as --data, as the generated commands do (and wins over the generated command of its words).

import type { Command, Context } from '../command.js';
import { EXIT, UsageError } from '../exit.js';
import { DATA_FLAG, SINCE_FLAG, UNTIL_FLAG } from '../flags.js';
import { printData, printItems } from '../output.js';
import { readData, readWindow } from '../values.js';
import type { ProgressFilter, SeverityFilter } from '../../schemas/list.js';

type Lifecycle = 'ack' | 'resolve' | 'reopen';

export const INCIDENT_COMMANDS: Command[] = [
  {
    words: ['incidents', 'list'],
    summary: 'list incidents of a time window (every page)',
    flags: {
      since: SINCE_FLAG,
      until: UNTIL_FLAG,
      progress: { type: 'string', value: '<list>', description: 'Triggered,Processing,Closed' },
      severity: { type: 'string', value: '<list>', description: 'Critical,Warning,Info' },
      data: { ...DATA_FLAG, description: 'more filters as the request body (JSON, @file or -)' },
    },
    example: 'flashduty incidents list --since 24h --progress Triggered,Processing --json',
    run: list,
  },
  ...(['ack', 'resolve', 'reopen'] as const).map((verb): Command => ({
    words: ['incidents', verb],
    summary: `${verb === 'ack' ? 'acknowledge' : verb} incidents by id`,
    args: '<incident_id…>',
    flags: { data: { ...DATA_FLAG, description: 'the request body instead of ids (JSON, @file or -)' } },
    example: `flashduty incidents ${verb} 69da451ef77b1b51f40e83ee`,
    run: (context) => lifecycle(context, verb),
  })),
  {
    words: ['incidents', 'comment'],
    summary: 'add a comment to an incident',
    args: '<incident_id>',
    flags: { text: { type: 'string', value: '<text>', description: 'the comment' }, data: DATA_FLAG },
    example: `flashduty incidents comment 69da451ef77b1b51f40e83ee --text 'rolling back'`,
    run: comment,
  },
];

async function list(context: Context): Promise<number> {
  const { values, name } = context;
  if (context.positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(context.positionals[0])}`, name);
  const extra = readData(values.data as string | undefined, name, context.stdin) ?? {};
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra))
    throw new UsageError('--data: expected a JSON object', name);
  const { since, until } = readWindow(values, name);
  const params = {
    ...extra,
    start_time: new Date(since),
    end_time: new Date(until),
    // Checked by listIncidents against the values the contract lists: another is a usage error (exit 2).
    ...(values.progress !== undefined ? { progress: (values.progress as string).split(',') as ProgressFilter[] } : {}),
    ...(values.severity !== undefined
      ? { incident_severity: (values.severity as string).split(',') as SeverityFilter[] }
      : {}),
  };
  const client = await context.client();
  await printItems(context.io, client.listIncidents(params), context.json);
  return EXIT.ok;
}

/** `incidents ack|resolve|reopen <id…>`, or the body as --data. */
async function lifecycle(context: Context, verb: Lifecycle): Promise<number> {
  const body = bodyOf(context, (ids) => ({ incident_ids: ids }));
  const client = await context.client();
  printDone(context, await client.incidents[verb](body as never), `${verb}: ${describeIds(body)}`);
  return EXIT.ok;
}

/** `incidents comment <id> --text …`, or the body as --data. */
async function comment(context: Context): Promise<number> {
  const text = context.values.text as string | undefined;
  const body = bodyOf(context, (ids) => {
    if (ids.length !== 1) throw new UsageError('expected one incident id', context.name);
    if (text === undefined || text === '') throw new UsageError('--text is required', context.name);
    return { incident_ids: ids, comment: text };
  });
  const client = await context.client();
  printDone(context, await client.incidents.comment(body as never), `comment: ${describeIds(body)}`);
  return EXIT.ok;
}

function bodyOf(context: Context, fromIds: (ids: string[]) => Record<string, unknown>): unknown {
  const data = readData(context.values.data as string | undefined, context.name, context.stdin);
  if (data !== undefined && context.positionals.length > 0)
    throw new UsageError('give incident ids or --data, not both', context.name);
  if (data !== undefined) return data;
  if (context.positionals.length === 0) throw new UsageError('incident ids (or --data) are required', context.name);
  return fromIds(context.positionals);
}

function describeIds(body: unknown): string {
  const ids = (body as { incident_ids?: unknown }).incident_ids;
  return Array.isArray(ids) ? ids.join(', ') : 'done';
}

/** What a lifecycle command did: one line for people, the answer's data with --json. */
function printDone(context: Context, data: unknown, line: string): void {
  if (context.json) printData(context.io, data, true);
  else context.io.out(`${line}\n`);
}
