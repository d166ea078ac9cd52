// The command line's side of a running `flashduty mock`'s control routes (`--via <its URL>`):
// deliveries made inside it (`webhooks trigger --via`), so that they land in its history; and its
// own app key, with which `webhooks replay --via` reads that history whatever credential the shell
// holds (the mock's key opens nothing but the mock; it is never printed). A URL where no mock
// answers is a usage error naming it.

import type { Connection } from '../connection.js';
import { UsageError } from '../exit.js';
import type { Flag } from '../flags.js';

/** One run of the trigger: its options, as the testing entry's trigger takes them. */
export type TriggerRun = import('../../testing/webhook-trigger.js').TriggerOptions;
/** What a run gave: the integration it made (for `webhooks replay`), and its deliveries. */
export type TriggerResult = {
  integration: number;
  records: Array<import('../../testing/sender.js').HistoryRecord>;
};

/** `--via`, as `webhooks replay` takes it. */
export const VIA_FLAG: Flag = {
  type: 'string',
  value: '<mock url>',
  description:
    "read the history of a running flashduty mock, with the mock's own key (instead of --base-url and a credential)",
};

/** A run inside the mock at `via`: the deliveries land in its history. */
export async function triggerThroughMock(via: string, options: TriggerRun, command: string): Promise<TriggerResult> {
  const { TRIGGER_PATH } = await import('../../testing/control.js');
  const answer = (await askMock(via, TRIGGER_PATH, { method: 'POST', body: JSON.stringify(options) }, command)) as {
    integration_id?: number;
    records?: TriggerResult['records'];
  };
  if (answer.integration_id === undefined || !Array.isArray(answer.records))
    throw new UsageError(`--via: ${via} is no flashduty mock (it answered no deliveries)`, command);
  return { integration: answer.integration_id, records: answer.records };
}

/** The connection to the mock at `via`, with its own app key. */
export async function mockConnection(via: string, command: string): Promise<Connection> {
  const { CREDENTIALS_PATH } = await import('../../testing/control.js');
  const answer = (await askMock(via, CREDENTIALS_PATH, { method: 'GET' }, command)) as { app_key?: unknown };
  if (typeof answer.app_key !== 'string')
    throw new UsageError(`--via: ${via} is no flashduty mock (it answered no app key)`, command);
  return {
    options: { appKey: answer.app_key, baseUrl: via },
    source: "the mock's own app key (--via)",
    baseUrl: via,
  };
}

/** A control route's JSON answer; a UsageError when nothing answers, or what answers is no mock. */
async function askMock(via: string, path: string, init: RequestInit, command: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(new URL(path, via), {
      ...init,
      headers: { 'content-type': 'application/json' },
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new UsageError(`--via: no flashduty mock answers at ${via} (${cause ?? (error as Error).message})`, command);
  }
  const answer = (await response.json().catch(() => ({}))) as { error?: unknown };
  if (!response.ok) {
    // The control route's error is a sentence; the service's (a mock too old for the route) an envelope.
    const why = typeof answer.error === 'string' ? answer.error : `HTTP ${response.status}`;
    throw new UsageError(`--via: ${via} is no flashduty mock (${why})`, command);
  }
  return answer;
}
