// The webhook tools for developing a receiver. `trigger`: deliveries of event types (or `all`) made
// and sent by the mock service's own actions and sender (its payloads, custom body and value
// mapping, 2 s deadline and retry rule), each reported as the service's delivery history records
// it, with the receiver's outcome where its answer names one; each sent several times with one
// event_id (`--duplicate`), or one incident's events newest first (`--reorder`), to try dedup and
// staleness; by a mock of its own, or `--via` a running `flashduty mock`, whose history then holds
// them for `replay`, whose command is printed to run as it is. Counts are bounded (their ranges in
// the flags, checked before anything is sent). A receiver that answers 401 or 403 gets a hint about
// its secret header (`--header`). `replay` and `listen` (webhook-history.ts): an integration's
// recorded deliveries, sent again. `lint`: lintCustomBody on a template file. Any delivery that
// failed makes the exit code 1.

import { closest } from '../../internal/closest.js';
import type { Command, Context } from '../command.js';
import { EXIT, UsageError } from '../exit.js';
import { shellWord } from '../output.js';
import { readHeaders, readJsonFile, readText, readUrl } from '../values.js';
import { printDeliveries, receiverOutcome } from './deliveries.js';
import { triggerThroughMock, type TriggerResult, type TriggerRun } from './mock-control.js';
import { LISTEN_COMMAND, REPLAY_COMMAND } from './webhook-history.js';

/** Of each event type, at most this many deliveries a run. */
const COUNTS = { min: 1, max: 100 };
/** Each delivery at most this many times: enough to see dedup at work. */
const DUPLICATES = { min: 1, max: 10 };

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
      count: {
        type: 'string',
        value: '<n>',
        description: 'how many deliveries of each event type',
        range: COUNTS,
        default: '1',
      },
      duplicate: {
        type: 'string',
        value: '<n>',
        description: 'send each delivery n times with one event_id, to try dedup',
        range: DUPLICATES,
        default: '1',
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
  REPLAY_COMMAND,
  LISTEN_COMMAND,
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
    count: (values.count as number | undefined) ?? 1,
    duplicate: (values.duplicate as number | undefined) ?? 1,
    ...(customBody !== undefined ? { customBody } : {}),
    ...(valueMapping !== undefined ? { valueMapping: valueMapping as never } : {}),
  };
  const via = values.via === undefined ? undefined : readUrl(values.via as string, '--via', name);
  // With --reorder, one run of every type on one incident; else one run per type, each its own incidents.
  const runs = reorder
    ? [{ ...base, eventType: eventTypes[0] as string, eventTypes, reorder }]
    : eventTypes.map((eventType) => ({ ...base, eventType }));
  const send = via ? (options: TriggerRun) => triggerThroughMock(via, options, name) : await locally();
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
      outcome: receiverOutcome(record.response?.body),
      duration_ms: record.duration_ms,
      attempts: record.request_count,
      ...(record.error !== undefined ? { error: record.error } : {}),
    }));
    if (context.json) printDeliveries(context, done);
    rows.push(...done);
  }
  if (!context.json) printDeliveries(context, rows);
  hints(context, rows, via, integrations, base.endpoint);
  return rows.every((row) => row.status === 'success') ? EXIT.ok : EXIT.failed;
}

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
          `flashduty webhooks replay --integration ${id} --status all --via ${shellWord(via)} --to ${shellWord(to)}\n`,
      );
    }
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
