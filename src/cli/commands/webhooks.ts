// The webhook tools for developing a receiver. `trigger`: deliveries of event types (or `all`) made
// and sent by the mock service's own actions and sender (its payloads, custom body and value
// mapping, 2 s deadline and retry rule), each reported as the service's delivery history records
// it; each sent several times with one event_id (`--duplicate`), or one incident's events newest
// first (`--reorder`), to try dedup and staleness; by a mock of its own, or `--via` a running
// `flashduty mock`, whose history then holds them for `replay`. A receiver that answers 401 or 403
// gets a hint about its secret header (`--header`). `replay`: an integration's recorded deliveries,
// from the service the base URL names (or `flashduty mock`), posted with their recorded headers to
// a URL. `lint`: lintCustomBody on a template file. Any delivery that failed makes the exit code 1.

import { closest } from '../../internal/closest.js';
import type { Command, Context } from '../command.js';
import { EXIT, UsageError } from '../exit.js';
import { SINCE_FLAG, UNTIL_FLAG } from '../flags.js';
import { renderTable } from '../output.js';
import { readHeaders, readJsonFile, readText, readUrl, readWhole, readWindow } from '../values.js';

export const WEBHOOK_COMMANDS: Command[] = [
  {
    words: ['webhooks', 'trigger'],
    summary: 'send realistic deliveries of event types (or all) to a URL, as the service sends them',
    args: '<event_type…|all>',
    flags: {
      to: { type: 'string', value: '<url>', description: 'the receiver' },
      header: {
        type: 'string',
        multiple: true,
        value: "'Name: value'",
        description: 'a header of every delivery (repeatable)',
      },
      'custom-body': { type: 'string', value: '<file>', description: 'a custom body template (JSON)' },
      'value-mapping': { type: 'string', value: '<file>', description: 'value mapping for the template (JSON)' },
      count: { type: 'string', value: '<n>', description: 'how many deliveries of each event type (default 1)' },
      duplicate: {
        type: 'string',
        value: '<n>',
        description: 'send each delivery n times with one event_id (try dedup; default 1)',
      },
      reorder: {
        type: 'boolean',
        description: "make the event types one incident's events, then deliver them newest first (try staleness)",
      },
      via: {
        type: 'string',
        value: '<mock url>',
        description: 'send through a running flashduty mock: the deliveries land in its history, for replay',
      },
    },
    example: 'flashduty webhooks trigger i_new --to http://localhost:3000/hooks/flashduty',
    run: trigger,
  },
  {
    words: ['webhooks', 'replay'],
    summary: "post an integration's recorded deliveries (bodies and headers) to a URL",
    flags: {
      integration: { type: 'string', value: '<id>', description: 'the webhook integration' },
      since: { ...SINCE_FLAG, description: 'from: 30m, 24h, 7d or an ISO date (default 24h)' },
      until: UNTIL_FLAG,
      status: { type: 'string', value: 'failed|all', description: 'which deliveries (default failed)' },
      to: { type: 'string', value: '<url>', description: 'the receiver' },
    },
    example:
      'flashduty webhooks replay --integration 2490562293131 --since 24h --to http://localhost:3000/hooks/flashduty',
    run: replay,
  },
  {
    words: ['webhooks', 'lint'],
    summary: 'check a custom-body template; prints each problem as path: message',
    args: '<template-file>',
    flags: {},
    example: 'flashduty webhooks lint template.json',
    run: lint,
  },
];

async function trigger(context: Context): Promise<number> {
  const { values, name } = context;
  const { TRIGGER_EVENT_TYPES } = await import('../../testing/webhook-trigger.js');
  const eventTypes = readEventTypes(context, TRIGGER_EVENT_TYPES);
  const customBody =
    values['custom-body'] === undefined ? undefined : readText(values['custom-body'] as string, '--custom-body', name);
  const valueMapping =
    values['value-mapping'] === undefined
      ? undefined
      : readJsonFile(values['value-mapping'] as string, '--value-mapping', name);
  if (customBody !== undefined) {
    const { renderCustomBody } = await import('../../webhooks/template.js');
    try {
      renderCustomBody(customBody, {});
    } catch (error) {
      throw new UsageError(`--custom-body: ${(error as Error).message}`, name);
    }
  }
  const reorder = values.reorder === true;
  if (reorder && eventTypes.some((type) => type === 'i_custom' || type.startsWith('a_')))
    throw new UsageError("--reorder sends one incident's events: give incident event types (i_new, i_ack, …)", name);
  const base = {
    endpoint: readUrl(values.to as string | undefined, '--to', name),
    headers: readHeaders(values.header as string[] | undefined, name),
    count: readWhole(values.count as string | undefined, '--count', name, 1) ?? 1,
    duplicate: readWhole(values.duplicate as string | undefined, '--duplicate', name, 1) ?? 1,
    ...(customBody !== undefined ? { customBody } : {}),
    ...(valueMapping !== undefined ? { valueMapping: valueMapping as never } : {}),
  };
  const via = values.via === undefined ? undefined : readUrl(values.via as string, '--via', name);
  // With --reorder, one run of every type on one incident; else one run per type, each its own incidents.
  const runs = reorder
    ? [{ ...base, eventType: eventTypes[0] as string, eventTypes, reorder }]
    : eventTypes.map((eventType) => ({ ...base, eventType }));
  const send = via ? (options: TriggerRun) => throughMock(via, options, name) : await locally();
  // With --json each run's rows go out as soon as its deliveries are done (a receiver that hangs
  // holds up `all` for 2 s a delivery); the table for people needs every row for its columns.
  const rows: Array<Record<string, unknown>> = [];
  const integrations: number[] = [];
  for (const run of runs) {
    const { integration, records } = await send(run);
    integrations.push(integration);
    const done = records.map((record) => ({
      event_type: record.event_type,
      event_id: record.event_id,
      incident_id: record.incident_id || undefined,
      status: record.status,
      http_status: record.http_status,
      duration_ms: record.duration_ms,
      attempts: record.request_count,
      ...(record.error !== undefined ? { error: record.error } : {}),
    }));
    if (context.json) print(context, done);
    rows.push(...done);
  }
  if (!context.json) print(context, rows);
  hints(context, rows, via, integrations, base.endpoint);
  return rows.every((row) => row.status === 'success') ? EXIT.ok : EXIT.failed;
}

/** One run of the trigger: its options, as the testing entry's trigger takes them. */
type TriggerRun = import('../../testing/webhook-trigger.js').TriggerOptions;
/** What a run gave: the integration it made (for `webhooks replay`), and its deliveries. */
type TriggerResult = { integration: number; records: Array<import('../../testing/sender.js').HistoryRecord> };

/** The event types of the arguments: all, or known ones (the nearest suggested for a typo). */
function readEventTypes(context: Context, known: readonly string[]): string[] {
  if (context.positionals.length === 0)
    throw new UsageError(`the event type is required: all, or some of ${known.join(', ')}`, context.name);
  const types: string[] = [];
  for (const word of context.positionals) {
    const add = word === 'all' ? known : known.includes(word) ? [word] : undefined;
    if (!add) {
      const near = closest(word, ['all', ...known]);
      throw new UsageError(
        `unknown event type ${JSON.stringify(word)}${near ? ` (did you mean ${near}?)` : ''}`,
        context.name,
      );
    }
    for (const type of add) if (!types.includes(type)) types.push(type);
  }
  return types;
}

/** A throwaway mock of this process: a fresh seed each run, so event ids differ from the last run's. */
async function locally(): Promise<(options: TriggerRun) => Promise<TriggerResult>> {
  const { createMockService } = await import('../../testing/index.js');
  const { trigger } = await import('../../testing/webhook-trigger.js');
  // A fresh seed: a receiver with a lasting store (Redis) takes the events as new, not duplicates.
  const service = createMockService({ incidents: 5, seed: Math.floor(Math.random() * 2 ** 31) });
  return async (options) => {
    const result = await trigger(service, options);
    service.webhooks.remove(result.integration);
    return result;
  };
}

/** A run inside a running `flashduty mock` (its control route): the deliveries land in its history. */
async function throughMock(via: string, options: TriggerRun, command: string): Promise<TriggerResult> {
  const { TRIGGER_PATH } = await import('../../testing/control.js');
  let response: Response;
  try {
    response = await fetch(new URL(TRIGGER_PATH, via), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(options),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new UsageError(`--via: no flashduty mock answers at ${via} (${cause ?? (error as Error).message})`, command);
  }
  const answer = (await response.json().catch(() => ({}))) as Partial<TriggerResult> & {
    integration_id?: number;
    error?: string;
  };
  if (!response.ok || answer.integration_id === undefined || !Array.isArray(answer.records))
    throw new UsageError(`--via: ${via} is no flashduty mock (${answer.error ?? `HTTP ${response.status}`})`, command);
  return { integration: answer.integration_id, records: answer.records };
}

/**
 * What to do next, on stderr: a receiver that refused the deliveries as unauthorized wants its secret
 * header; deliveries made through a mock can be replayed from its history.
 */
function hints(
  context: Context,
  rows: Array<Record<string, unknown>>,
  via: string | undefined,
  ids: number[],
  to: string,
): void {
  const refused = [...new Set(rows.map((row) => row.http_status).filter((status) => status === 401 || status === 403))];
  if (refused.length > 0) {
    context.io.err(
      `flashduty: the receiver answered ${refused.join(' and ')}: it wants its secret header. ` +
        "Send it with --header 'Name: value' (the header and secret your receiver checks, e.g. --header 'X-Flashduty-Token: …').\n",
    );
  }
  if (via) {
    for (const id of ids) {
      context.io.err(
        `flashduty: recorded in the mock's history as integration ${id}: ` +
          `flashduty webhooks replay --integration ${id} --status all --base-url ${via} --to ${to}\n`,
      );
    }
  }
}

async function replay(context: Context): Promise<number> {
  const { values, name } = context;
  if (context.positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(context.positionals[0])}`, name);
  const integration = readWhole(values.integration as string | undefined, '--integration', name, 1);
  if (integration === undefined) throw new UsageError('--integration is required', name);
  const to = readUrl(values.to as string | undefined, '--to', name);
  const status = (values.status as string | undefined) ?? 'failed';
  if (status !== 'failed' && status !== 'all')
    throw new UsageError(`--status: expected failed or all, got ${JSON.stringify(status)}`, name);
  const { since, until } = readWindow(values, name);
  const client = await context.client();
  const rows: Array<Record<string, unknown>> = [];
  const history = client.webhookHistory.list({
    integration_id: integration,
    start_time: since,
    end_time: until,
    ...(status === 'failed' ? { status: 'failed' } : {}),
  });
  for await (const record of history) {
    const detail =
      record.request_body === undefined
        ? await client.webhookHistory.detail({ integration_id: integration, event_id: record.event_id })
        : record;
    const row = await postRecorded(to, detail.request_body ?? '', detail.request_headers);
    rows.push({ event_type: record.event_type, event_id: record.event_id, ...row });
    if (context.json) context.io.out(`${JSON.stringify(rows[rows.length - 1])}\n`);
    else if (context.io.tty) context.io.err(`\r${rows.length} replayed…`);
  }
  if (context.io.tty && !context.json) context.io.err('\r');
  if (!context.json) context.io.out(renderTable(rows, DELIVERY_COLUMNS));
  return rows.every((row) => row.ok === true) ? EXIT.ok : EXIT.failed;
}

/** Headers a recorded request carried that the new request must set itself. */
const HOP_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

/** One recorded body and its recorded headers (a JSON text), posted to `to`; what became of it. */
async function postRecorded(to: string, body: string, recorded: string | undefined): Promise<Record<string, unknown>> {
  let headers: Record<string, string> = {};
  try {
    const parsed = recorded ? (JSON.parse(recorded) as Record<string, unknown>) : {};
    headers = Object.fromEntries(
      Object.entries(parsed)
        .filter(([key]) => !HOP_HEADERS.has(key.toLowerCase()))
        .map(([key, value]) => [key, Array.isArray(value) ? value.join(', ') : String(value)]),
    );
  } catch {
    headers = {};
  }
  headers['Content-Type'] ??= 'application/json';
  const started = Date.now();
  try {
    const response = await fetch(to, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return { http_status: response.status, duration_ms: Date.now() - started, ok: response.ok };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { http_status: 0, duration_ms: Date.now() - started, ok: false, error: cause ?? (error as Error).message };
  }
}

async function lint(context: Context): Promise<number> {
  const [file, extra] = context.positionals;
  if (file === undefined) throw new UsageError('the template file is required', context.name);
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`, context.name);
  const text = readText(file, 'template', context.name);
  const { lintCustomBody } = await import('../../webhooks/custom-body-lint.js');
  let problems: Array<{ path: string; message: string }>;
  try {
    ({ problems } = lintCustomBody(text));
  } catch (error) {
    throw new UsageError(`${file}: ${(error as Error).message}`, context.name);
  }
  if (context.json) for (const problem of problems) context.io.out(`${JSON.stringify(problem)}\n`);
  else for (const { path, message } of problems) context.io.out(`${path || '(template)'}: ${message}\n`);
  if (!context.json && problems.length === 0) context.io.out('no problems\n');
  return problems.length === 0 ? EXIT.ok : EXIT.failed;
}

/** The columns of a delivery's report, as the service's delivery history records it. */
const DELIVERY_COLUMNS = [
  'event_type',
  'event_id',
  'incident_id',
  'status',
  'http_status',
  'duration_ms',
  'attempts',
  'ok',
  'error',
];

function print(context: Context, rows: Array<Record<string, unknown>>): void {
  if (context.json) for (const row of rows) context.io.out(`${JSON.stringify(row)}\n`);
  else context.io.out(renderTable(rows, DELIVERY_COLUMNS));
}
