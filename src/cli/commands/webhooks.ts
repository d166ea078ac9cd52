// The webhook tools for developing a receiver. `trigger`: deliveries of event types (or `all`) made and sent
// by the mock service's own actions and sender (its payloads, custom body and value mapping, 2 s
// deadline and retry rule), each reported as the service's delivery history records it. `replay`:
// an integration's recorded deliveries, from the service the base URL names (or `flashduty mock`),
// posted with their recorded headers to a URL. `lint`: lintCustomBody on a template file.
// Any delivery that failed makes the exit code 1.

import { closest } from '../../internal/closest.js';
import { readHeaders, readJsonFile, readText, readTime, readUrl, readWhole, UsageError } from '../args.js';
import { type Context, EXIT } from '../command.js';
import { table } from '../output.js';

export async function trigger(context: Context): Promise<number> {
  const { values, name } = context;
  const { TRIGGER_EVENT_TYPES, createMockService, triggerDeliveries } = await import('../../testing/index.js');
  if (context.positionals.length === 0)
    throw new UsageError(`the event type is required: all, or some of ${TRIGGER_EVENT_TYPES.join(', ')}`, name);
  const eventTypes = new Set<string>();
  for (const word of context.positionals) {
    if (word === 'all') TRIGGER_EVENT_TYPES.forEach((type) => eventTypes.add(type));
    else if (TRIGGER_EVENT_TYPES.includes(word)) eventTypes.add(word);
    else {
      const near = closest(word, ['all', ...TRIGGER_EVENT_TYPES]);
      throw new UsageError(`unknown event type ${JSON.stringify(word)}${near ? ` (did you mean ${near}?)` : ''}`, name);
    }
  }
  const endpoint = readUrl(values.to as string | undefined, '--to', name);
  const headers = readHeaders(values.header as string[] | undefined, name);
  const count = readWhole(values.count as string | undefined, '--count', name, 1) ?? 1;
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
  // A fresh seed each run: event ids differ from the last run's, so a receiver with a lasting store
  // (Redis) takes them as new events, not duplicates.
  const service = createMockService({ incidents: 5, seed: Math.floor(Math.random() * 2 ** 31) });
  // With --json each type's rows go out as soon as its deliveries are done (a receiver that hangs
  // holds up `all` for 2 s a delivery); the table for people needs every row for its columns.
  const rows: Array<Record<string, unknown>> = [];
  for (const eventType of eventTypes) {
    const records = await triggerDeliveries(service, {
      eventType,
      endpoint,
      headers,
      count,
      ...(customBody !== undefined ? { customBody } : {}),
      ...(valueMapping !== undefined ? { valueMapping: valueMapping as never } : {}),
    });
    const done = records.map((record) => ({
      event_type: record.event_type,
      event_id: record.event_id,
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
  return rows.every((row) => row.status === 'success') ? EXIT.ok : EXIT.failed;
}

export async function replay(context: Context): Promise<number> {
  const { values, name } = context;
  if (context.positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(context.positionals[0])}`, name);
  const integration = readWhole(values.integration as string | undefined, '--integration', name, 1);
  if (integration === undefined) throw new UsageError('--integration is required', name);
  const to = readUrl(values.to as string | undefined, '--to', name);
  const status = (values.status as string | undefined) ?? 'failed';
  if (status !== 'failed' && status !== 'all')
    throw new UsageError(`--status: expected failed or all, got ${JSON.stringify(status)}`, name);
  const now = Date.now();
  const until = values.until === undefined ? now : readTime(values.until as string, '--until', name, now);
  const since =
    values.since === undefined ? until - 86_400_000 : readTime(values.since as string, '--since', name, now);
  if (until <= since) throw new UsageError('--since must be before --until', name);
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
    const row = await post(to, detail.request_body ?? '', detail.request_headers);
    rows.push({ event_type: record.event_type, event_id: record.event_id, ...row });
    if (context.json) context.io.out(`${JSON.stringify(rows[rows.length - 1])}\n`);
    else if (context.io.tty) context.io.err(`\r${rows.length} replayed…`);
  }
  if (context.io.tty && !context.json) context.io.err('\r');
  if (!context.json) context.io.out(table(rows, DELIVERY_COLUMNS));
  return rows.every((row) => row.ok === true) ? EXIT.ok : EXIT.failed;
}

/** Headers a recorded request carried that the new request must set itself. */
const HOP_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

/** One recorded body and its recorded headers (a JSON text), posted to `to`; what became of it. */
async function post(to: string, body: string, recorded: string | undefined): Promise<Record<string, unknown>> {
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

export async function lint(context: Context): Promise<number> {
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
const DELIVERY_COLUMNS = ['event_type', 'event_id', 'status', 'http_status', 'duration_ms', 'attempts', 'ok', 'error'];

function print(context: Context, rows: Array<Record<string, unknown>>): void {
  if (context.json) for (const row of rows) context.io.out(`${JSON.stringify(row)}\n`);
  else context.io.out(table(rows, DELIVERY_COLUMNS));
}
