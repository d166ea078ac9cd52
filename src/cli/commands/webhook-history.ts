// The webhook commands that read an integration's delivery history and send its recorded requests
// again to a URL: `replay` and `listen`. The history is the service's the base URL names (or a
// running `flashduty mock`'s, `--via`, read with its own key); each request goes with its recorded
// headers and is reported with the receiver's outcome. `replay`: the deliveries of a window, once.
// `listen`: every new one, as the service records it, until Ctrl-C (SIGINT or SIGTERM end it, exit
// 0), the way `stripe listen` brings real events to a receiver on a laptop without a public URL:
// polled every --interval (bounded), each event forwarded once and none skipped between polls
// (history-follower.ts); a poll that fails for a while (the network, the service's 5xx or 429) is
// asked again at the next, one that cannot pass (a refused credential, a refused request) ends it.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Flashduty } from '../../client/client.js';
import type { WebhookHistoryItem } from '../../schemas/webhook-history.js';
import type { Command, Context } from '../command.js';
import { EXIT, UsageError } from '../exit.js';
import { SINCE_FLAG, UNTIL_FLAG } from '../flags.js';
import { formatTime, renderTable } from '../output.js';
import { formatDuration, readDuration, readId, readTime, readUrl, readWindow } from '../values.js';
import { DELIVERY_COLUMNS, type Forwarded, postRecorded } from './deliveries.js';
import { HistoryFollower } from './history-follower.js';
import { mockConnection, VIA_FLAG } from './mock-control.js';

/** How far back the service keeps its delivery history. */
const HISTORY_MS = 7 * 86_400_000;
/** How often `listen` asks the history: not so often that it spends the account's rate limit. */
const INTERVALS = { min: 1_000, max: 5 * 60_000 };
const DEFAULT_INTERVAL = '5s';
/** How many polls in a row a delivery may fail to be forwarded (its request unreadable) before listen gives up on it. */
const FORWARD_TRIES = 5;

export const REPLAY_COMMAND: Command = {
  words: ['webhooks', 'replay'],
  summary: "post an integration's recorded deliveries (bodies and headers) to a URL",
  flags: {
    integration: { type: 'string', value: '<id>', description: 'the webhook integration' },
    since: { ...SINCE_FLAG, description: 'from: 30m, 24h, 7d or an ISO date (default 24h)' },
    until: UNTIL_FLAG,
    status: { type: 'string', value: 'failed|all', description: 'which deliveries (default failed)' },
    to: { type: 'string', value: '<url>', description: 'the receiver' },
    via: VIA_FLAG,
  },
  example:
    'flashduty webhooks replay --integration 2490562293131 --since 24h --to http://localhost:3000/hooks/flashduty',
  run: replay,
};

export const LISTEN_COMMAND: Command = {
  words: ['webhooks', 'listen'],
  summary: "forward an integration's new deliveries, as the service records them, to a local receiver until Ctrl-C",
  flags: {
    integration: { type: 'string', value: '<id>', description: 'the webhook integration' },
    to: { type: 'string', value: '<url>', description: 'the receiver (a local one: no public URL needed)' },
    since: {
      ...SINCE_FLAG,
      description: `forward what was recorded since then too: 10m, 2h, 7d or an ISO date, at most ${formatDuration(HISTORY_MS)} ago (default now)`,
    },
    interval: {
      type: 'string',
      value: '<duration>',
      description: `how often to ask the history, ${formatDuration(INTERVALS.min)} to ${formatDuration(INTERVALS.max)} (default ${DEFAULT_INTERVAL})`,
    },
  },
  example:
    'flashduty webhooks listen --integration 2490562293131 --since 10m --to http://localhost:3000/hooks/flashduty',
  run: listen,
};

async function replay(context: Context): Promise<number> {
  const { values, name } = context;
  noArguments(context);
  const integration = required(readId(values.integration as string | undefined, '--integration', name), context);
  const to = readUrl(values.to as string | undefined, '--to', name);
  const status = (values.status as string | undefined) ?? 'failed';
  if (status !== 'failed' && status !== 'all')
    throw new UsageError(`--status: expected failed or all, got ${JSON.stringify(status)}`, name);
  const { since, until } = readWindow(values, name);
  const client = await historyClient(context);
  const rows: Array<Record<string, unknown>> = [];
  const history = client.webhookHistory.list({
    integration_id: integration,
    start_time: since,
    end_time: until,
    ...(status === 'failed' ? { status: 'failed' } : {}),
  });
  for await (const record of history) {
    const forwarded = await forward(client, integration, record, to);
    const row = { event_type: record.event_type, event_id: record.event_id, ...forwarded };
    rows.push(row);
    if (context.json) context.io.out(`${JSON.stringify(row)}\n`);
    else if (context.io.tty) context.io.err(`\r${rows.length} replayed…`);
  }
  if (context.io.tty && !context.json) context.io.err('\r');
  if (!context.json) context.io.out(renderTable(rows, DELIVERY_COLUMNS));
  return rows.every((row) => row.ok === true) ? EXIT.ok : EXIT.failed;
}

async function listen(context: Context): Promise<number> {
  const { values, name } = context;
  noArguments(context);
  const integration = required(readId(values.integration as string | undefined, '--integration', name), context);
  const to = readUrl(values.to as string | undefined, '--to', name);
  const interval = readDuration(
    (values.interval as string | undefined) ?? DEFAULT_INTERVAL,
    '--interval',
    INTERVALS,
    name,
  );
  const now = Date.now();
  const since = values.since === undefined ? now : readTime(values.since as string, '--since', name, now);
  if (since < now - HISTORY_MS || since > now)
    throw new UsageError(
      `--since: the history reaches back ${formatDuration(HISTORY_MS)}: give a time within it, such as 10m or 2h`,
      name,
    );
  const client = await context.client();
  const stop = context.stopSignal();
  context.io.err(
    `flashduty: forwarding the new deliveries of integration ${integration} to ${to}, asking every ${formatDuration(interval)}; Ctrl-C to stop\n`,
  );
  const follower = new HistoryFollower(client, integration, since);
  // Deliveries whose forwarding failed with an error a later poll may not meet (their recorded
  // request could not be read): each tried again at the next polls, up to FORWARD_TRIES, the others
  // going on meanwhile; then given up on, saying how to replay it.
  const again = new Map<string, { record: WebhookHistoryItem; tries: number }>();
  const attempt = async (record: WebhookHistoryItem): Promise<'done' | 'stopped'> => {
    const { event_time, event_type, event_id } = record;
    let forwarded: Forwarded;
    try {
      forwarded = await forward(client, integration, record, to, stop);
    } catch (error) {
      if (stop.aborted) return 'stopped';
      if (!passing(error)) throw error;
      const tries = (again.get(event_id)?.tries ?? 0) + 1;
      const { name: kind = 'Error', message } = error as Error;
      if (tries < FORWARD_TRIES) {
        again.set(event_id, { record, tries });
        context.io.err(
          `flashduty: delivery ${event_id} could not be forwarded (${kind}: ${message}); trying it again in ${formatDuration(interval)}\n`,
        );
      } else {
        again.delete(event_id);
        context.io.err(
          `flashduty: gave up on delivery ${event_id} after ${tries} tries (${kind}: ${message}); ` +
            `flashduty webhooks replay --integration ${integration} --to ${to} sends it again\n`,
        );
      }
      return 'done';
    }
    if (forwarded.error === 'stopped') return 'stopped';
    again.delete(event_id);
    printForwarded(context, { event_time, event_type, event_id, ...forwarded });
    return 'done';
  };
  while (!stop.aborted) {
    try {
      for (const { record } of [...again.values()]) if ((await attempt(record)) === 'stopped' || stop.aborted) break;
      for await (const record of follower.poll(Date.now(), stop)) {
        if ((await attempt(record)) === 'stopped' || stop.aborted) break;
      }
    } catch (error) {
      if (stop.aborted) break;
      if (!passing(error)) throw error;
      const { name: kind = 'Error', message } = error as Error;
      context.io.err(
        `flashduty: the history could not be read (${kind}: ${message}); asking again in ${formatDuration(interval)}\n`,
      );
    }
    await sleep(interval, undefined, { signal: stop }).catch(() => undefined);
  }
  return EXIT.ok;
}

/** One delivery as `listen` prints it: a line for people, a JSON object with --json. */
function printForwarded(
  context: Context,
  row: { event_time: string; event_type: string; event_id: string } & Forwarded,
): void {
  if (context.json) return context.io.out(`${JSON.stringify(row)}\n`);
  // An ISO time with its zone, as tables show times; any other form as the service wrote it (a time
  // without its zone would be read as this machine's).
  const time = /T.*(Z|[+-]\d\d:?\d\d)$/.test(row.event_time) ? Date.parse(row.event_time) : NaN;
  const answer = row.http_status ? `${row.http_status}${row.outcome ? ` ${row.outcome}` : ''}` : 'not answered';
  context.io.out(
    `${Number.isNaN(time) ? row.event_time : formatTime(time)}  ${row.event_type}  ${row.event_id}  → ${answer}` +
      ` (${row.duration_ms} ms)${row.error ? `: ${row.error}` : ''}\n`,
  );
}

/** A recorded delivery (its request from `/webhook/history/detail` where the list left it out) posted to `to`. */
async function forward(
  client: Flashduty,
  integration: number,
  record: { event_id: string; request_body?: string; request_headers?: string },
  to: string,
  signal?: AbortSignal,
): Promise<Forwarded> {
  const detail =
    record.request_body === undefined
      ? await client.webhookHistory.detail(
          { integration_id: integration, event_id: record.event_id },
          signal ? { signal } : {},
        )
      : record;
  return postRecorded(to, detail.request_body ?? '', detail.request_headers, signal);
}

/** An error a later poll may not meet: the network's, a timeout, the service's 5xx or 429. */
function passing(error: unknown): boolean {
  const { name, status } = error as { name?: string; status?: unknown };
  if (name === 'APIConnectionError' || name === 'APIConnectionTimeoutError') return true;
  return typeof status === 'number' && (status >= 500 || status === 429);
}

/** The client that reads the history: of the flags and environment, or of the mock at --via with its own key. */
async function historyClient(context: Context): Promise<Flashduty> {
  const { values, name } = context;
  if (values.via === undefined) return context.client();
  const via = readUrl(values.via as string, '--via', name);
  for (const flag of ['base-url', 'app-key', 'access-token'])
    if (values[flag] !== undefined)
      throw new UsageError(`--via reads the mock's history with the mock's own key: drop --${flag}`, name);
  return context.client(await mockConnection(via, name));
}

function noArguments(context: Context): void {
  if (context.positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(context.positionals[0])}`, context.name);
}

function required(integration: number | undefined, context: Context): number {
  if (integration === undefined) throw new UsageError('--integration is required', context.name);
  return integration;
}
