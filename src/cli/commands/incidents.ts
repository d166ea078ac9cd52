// The everyday incident commands: `incidents list` with the conveniences of listIncidents as flags
// (a window as durations or dates, comma lists), and the lifecycle with ids as arguments
// (`incidents ack <id…>`, `resolve`, `reopen`, `comment <id> --text …`). Each also takes the
// request body as --data, as the generated commands do.

import { readData, readTime, UsageError } from '../args.js';
import { type Context, EXIT } from '../command.js';
import { printData, printItems } from '../output.js';
import type { ProgressFilter, SeverityFilter } from '../../schemas/list.js';

const DAY_MS = 86_400_000;

export async function list(context: Context): Promise<number> {
  const { values, name } = context;
  if (context.positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(context.positionals[0])}`, name);
  const extra = readData(values.data as string | undefined, name, context.stdin) ?? {};
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra))
    throw new UsageError('--data: expected a JSON object', name);
  const now = Date.now();
  const end = values.until === undefined ? now : readTime(values.until as string, '--until', name, now);
  const start = values.since === undefined ? end - DAY_MS : readTime(values.since as string, '--since', name, now);
  if (end <= start) throw new UsageError('--since must be before --until', name);
  const params = {
    ...extra,
    start_time: new Date(start),
    end_time: new Date(end),
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
export async function lifecycle(context: Context, verb: 'ack' | 'resolve' | 'reopen'): Promise<number> {
  const body = bodyOf(context, (ids) => ({ incident_ids: ids }));
  const client = await context.client();
  report(context, await client.incidents[verb](body as never), `${verb}: ${describeIds(body)}`);
  return EXIT.ok;
}

/** `incidents comment <id> --text …`, or the body as --data. */
export async function comment(context: Context): Promise<number> {
  const text = context.values.text as string | undefined;
  const body = bodyOf(context, (ids) => {
    if (ids.length !== 1) throw new UsageError('expected one incident id', context.name);
    if (text === undefined || text === '') throw new UsageError('--text is required', context.name);
    return { incident_ids: ids, comment: text };
  });
  const client = await context.client();
  report(context, await client.incidents.comment(body as never), `comment: ${describeIds(body)}`);
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

function report(context: Context, data: unknown, line: string): void {
  if (context.json) printData(context.io, data, true);
  else context.io.out(`${line}\n`);
}
