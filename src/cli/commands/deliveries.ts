// What the webhook commands report of a delivery, and how `replay` and `listen` send a recorded one
// again. A row has the columns of the service's delivery history, and the receiver's outcome where
// its answer names one (`{"outcome":"duplicate"}`, as this SDK's receiver answers; another
// receiver's answer shows none). A recorded request goes out with its recorded headers (the
// integration's secret among them) as the service sent them: values as UTF-8 bytes, the hop-by-hop
// ones left to the new request; an answer is read up to a bound; an error names no header's value.

import type { Context } from '../command.js';
import { renderTable } from '../output.js';

/** The columns of a delivery's report, as the service's delivery history records it. */
export const DELIVERY_COLUMNS = [
  'event_type',
  'event_id',
  'incident_id',
  'status',
  'http_status',
  'outcome',
  'duration_ms',
  'attempts',
  'ok',
  'error',
];

/** Rows as JSON lines (`--json`), or as a table for people. */
export function printDeliveries(context: Context, rows: Array<Record<string, unknown>>): void {
  if (context.json) for (const row of rows) context.io.out(`${JSON.stringify(row)}\n`);
  else context.io.out(renderTable(rows, DELIVERY_COLUMNS));
}

/** An outcome as a receiver names one: a short word (the service may meet receivers with words of their own). */
const OUTCOME = /^[A-Za-z][\w-]{0,31}$/;

/** The outcome a receiver's answer names (`{"outcome":"duplicate"}`); undefined when it names none. */
export function receiverOutcome(body: string | undefined): string | undefined {
  if (!body || body.length > MAX_ANSWER || !body.trimStart().startsWith('{')) return undefined;
  try {
    const outcome = (JSON.parse(body) as { outcome?: unknown }).outcome;
    return typeof outcome === 'string' && OUTCOME.test(outcome) ? outcome : undefined;
  } catch {
    return undefined;
  }
}

/** Headers a recorded request carried that the new request must set itself. */
const HOP_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);
/** The most of a receiver's answer read: its outcome is at the start of a small JSON body. */
const MAX_ANSWER = 64 * 1024;
/** How long a receiver may take to answer a delivery sent again. */
const FORWARD_TIMEOUT_MS = 10_000;

/** What became of a recorded delivery sent again. */
export interface Forwarded {
  http_status: number;
  outcome?: string;
  duration_ms: number;
  ok: boolean;
  error?: string;
}

/**
 * Posts a recorded body with its recorded headers (a JSON text of a header map) to `to`, within
 * {@link FORWARD_TIMEOUT_MS} (or until `signal` aborts); what became of it.
 */
export async function postRecorded(
  to: string,
  body: string,
  recorded: string | undefined,
  signal?: AbortSignal,
): Promise<Forwarded> {
  // The mock's sender's way to write header values (loaded here: a command that sends nothing loads no mock).
  const { wireHeaders } = await import('../../testing/delivery-post.js');
  const headers = recordedHeaders(recorded);
  const started = Date.now();
  const timeout = AbortSignal.timeout(FORWARD_TIMEOUT_MS);
  try {
    const response = await fetch(to, {
      method: 'POST',
      headers: wireHeaders(headers),
      body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const answer = await readBounded(response);
    const outcome = receiverOutcome(answer);
    return {
      http_status: response.status,
      ...(outcome !== undefined ? { outcome } : {}),
      duration_ms: Date.now() - started,
      ok: response.ok,
    };
  } catch (error) {
    return { http_status: 0, duration_ms: Date.now() - started, ok: false, error: whyNotSent(error) };
  }
}

/** The recorded headers to send: hop-by-hop ones left out, lists joined, a JSON content type if none. */
function recordedHeaders(recorded: string | undefined): Record<string, string> {
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
  if (!Object.keys(headers).some((key) => key.toLowerCase() === 'content-type'))
    headers['Content-Type'] = 'application/json';
  return headers;
}

/** The answer's text, at most {@link MAX_ANSWER} bytes of it (the rest is not waited for). */
async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > MAX_ANSWER) {
      await response.body.cancel().catch(() => undefined);
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Why a request was not answered: the network's code, a timeout, or a header HTTP refuses (its value not named). */
function whyNotSent(error: unknown): string {
  const { name, message, cause } = error as Error & { cause?: { code?: string; message?: string } };
  if (cause?.code) return cause.code;
  if (name === 'TimeoutError') return `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`;
  if (name === 'AbortError') return 'stopped';
  if (message === 'fetch failed') return cause?.message ?? message;
  // fetch's own message would quote the header's value.
  return 'the recorded request cannot be sent: a recorded header is one HTTP refuses';
}
