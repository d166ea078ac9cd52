// A delivery driver that behaves as the real sender does (spec "Delivery rules"): POST, success only
// on 200, a 2 s deadline, at most one retry and only after EOF (the connection closed before a full
// answer), an i/o timeout, or a deadline hit after the headers came; never after an HTTP error and
// never after a deadline hit while awaiting headers. Like the service's call history it records
// every attempt with its outcome and latency, and, beyond what the sender sees, whether a late
// answer still came after the deadline (the sender would have counted it as failed).
import { request } from 'node:http';

export const SENDER_DEADLINE_MS = 2_000;

/** How one attempt ended. */
export type AttemptOutcome =
  | { kind: 'answer'; status: number }
  | { kind: 'eof'; message: string }
  | { kind: 'deadline'; awaitingHeaders: boolean }
  | { kind: 'error'; message: string };

/** One POST, as the call history records it. */
export interface AttemptRecord {
  eventId: string;
  /** 1 for the first request, 2 for the retry. */
  attempt: number;
  outcome: AttemptOutcome;
  /** From the request's start to its outcome (ms). */
  latencyMs: number;
  /** An answer that came after the deadline, when the sender had given up already (ms after the start). */
  lateAnswerMs?: number;
  /** After a deadline hit: when the connection ended without an answer (ms after the start). */
  lateCloseMs?: number;
}

/** One delivery: its attempts and whether it succeeded. */
export interface DeliveryRecord {
  eventId: string;
  body: string;
  ok: boolean;
  attempts: AttemptRecord[];
}

const retryable = (outcome: AttemptOutcome): boolean =>
  outcome.kind === 'eof' ||
  (outcome.kind === 'deadline' && !outcome.awaitingHeaders) ||
  (outcome.kind === 'error' && /ETIMEDOUT/.test(outcome.message));

/** Posts one attempt to `url` with the sender's deadline. */
export function post(
  url: string,
  body: string,
  eventId: string,
  attempt: number,
  watchLate: Set<Promise<void>>,
): Promise<AttemptRecord> {
  const started = performance.now();
  return new Promise((resolve) => {
    let gotHeaders = false;
    let record: AttemptRecord | undefined;
    const done = (outcome: AttemptOutcome) => {
      if (record) return;
      record = { eventId, attempt, outcome, latencyMs: performance.now() - started };
      clearTimeout(timer);
      resolve(record);
    };
    let lateWatch: (() => void) | undefined;
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        agent: false,
      },
      (res) => {
        gotHeaders = true;
        if (record) {
          // The deadline passed already: note when the late answer came, then drop it.
          record.lateAnswerMs = performance.now() - started;
          res.resume();
          req.destroy();
          lateWatch?.();
          return;
        }
        res.resume();
        res.on('end', () => done({ kind: 'answer', status: res.statusCode ?? 0 }));
        res.on('aborted', () => done({ kind: 'eof', message: 'closed mid-response' }));
        res.on('error', () => done({ kind: 'eof', message: 'closed mid-response' }));
      },
    );
    // On the timer, let the I/O that already arrived go first (setImmediate runs after the poll
    // phase): on a starved event loop a close that came in time must not count as a deadline hit.
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (record) return;
          done({ kind: 'deadline', awaitingHeaders: !gotHeaders });
          // Keep listening a little to see whether an answer still leaves the receiver late.
          const late = new Promise<void>((settle) => {
            lateWatch = settle;
            setTimeout(() => {
              if (record && record.lateAnswerMs === undefined && record.lateCloseMs === undefined)
                record.lateCloseMs = -1;
              req.destroy();
              settle();
            }, 3_000).unref();
          });
          watchLate.add(late);
        }),
      SENDER_DEADLINE_MS,
    );
    req.on('close', () => {
      if (
        record?.outcome.kind === 'deadline' &&
        record.lateAnswerMs === undefined &&
        record.lateCloseMs === undefined
      ) {
        record.lateCloseMs = performance.now() - started;
        lateWatch?.();
      }
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const eof = error.code === 'ECONNRESET' || error.code === 'EPIPE' || error.message === 'socket hang up';
      done(
        eof
          ? { kind: 'eof', message: error.message }
          : { kind: 'error', message: `${error.code ?? ''} ${error.message}` },
      );
    });
    req.end(body);
  });
}

/** The sender: delivers bodies by its rules and keeps the history of every attempt. */
export class Sender {
  readonly deliveries: DeliveryRecord[] = [];
  readonly #late = new Set<Promise<void>>();
  constructor(readonly url: string) {}

  /** One delivery: the first request and, if its failure is retryable, one retry. */
  async deliver(eventId: string, body: string): Promise<DeliveryRecord> {
    const first = await post(this.url, body, eventId, 1, this.#late);
    const attempts = [first];
    if (retryable(first.outcome)) attempts.push(await post(this.url, body, eventId, 2, this.#late));
    const last = attempts[attempts.length - 1] as AttemptRecord;
    const record = { eventId, body, ok: last.outcome.kind === 'answer' && last.outcome.status === 200, attempts };
    this.deliveries.push(record);
    return record;
  }

  /** Resolves once every late answer being watched arrived or was given up on. */
  async settled(): Promise<void> {
    await Promise.all(this.#late);
  }

  /** Counts over the history so far. */
  summary() {
    const attempts = this.deliveries.flatMap((d) => d.attempts);
    const answered = attempts.filter((a) => a.outcome.kind === 'answer');
    return {
      deliveries: this.deliveries.length,
      attempts: attempts.length,
      retried: this.deliveries.filter((d) => d.attempts.length > 1).length,
      ok: this.deliveries.filter((d) => d.ok).length,
      /** Deliveries that failed in the end: the sender gave up; replay from history recovers them. */
      gaveUp: this.deliveries.filter((d) => !d.ok),
      eof: attempts.filter((a) => a.outcome.kind === 'eof').length,
      non200: answered.filter((a) => a.outcome.kind === 'answer' && a.outcome.status !== 200).length,
      /** Attempts with no answer within the deadline, and answers that came after it. */
      deadlineHits: attempts.filter((a) => a.outcome.kind === 'deadline').length,
      lateAnswers: attempts.filter((a) => a.lateAnswerMs !== undefined).length,
      /** For deadline hits: when the connection ended after all (ms), or -1 if not within 3 s more. */
      lateEnds: attempts
        .filter((a) => a.outcome.kind === 'deadline')
        .map((a) => Math.round(a.lateAnswerMs ?? a.lateCloseMs ?? -1)),
      maxAnswerMs: Math.round(Math.max(0, ...answered.map((a) => a.latencyMs))),
    };
  }
}
