// The queue mode's second side: a job of `receiver.processor()` (in a BullMQ `Worker`) read again
// as a delivery and run through the pipeline, inside its span, its fate made the job's result.
//
// Rules owned here:
// - Accepted, duplicate and stale complete the job (its return value says which). A handler's
//   failure fails it, so that BullMQ retries it by the job options and keeps what never succeeds in
//   its failed set. A job whose event could not be recorded (the store down or out of memory) is
//   moved to BullMQ's delayed set without using an attempt, waiting 1 s, 2 s, 4 s … up to 30 s
//   between starts, so an outage of any length costs no attempt and the job runs once the store
//   answers. A job that is not a delivery fails for good (BullMQ's `UnrecoverableError`).
// - The queue wait (from the handoff to the job's first start) and every job's outcome are
//   measured (metrics.ts).

import { FlashdutyError } from '../../internal/flashduty-error.js';
import { messageOf } from '../handlers.js';
import { countJob, recordQueueWait } from '../metrics.js';
import type { PayloadReader } from '../payload.js';
import type { Pipeline } from '../pipeline.js';
import { traced, type Traced } from '../span.js';
import { jobIdFor } from './enqueue.js';

/** What `processor()` needs of a job: BullMQ's `Job` fits. */
export interface WebhookJob {
  /** The job id the receiver derived from the event's dedup key. */
  id?: string | undefined;
  /** The delivered body, as the receiver parsed it. */
  data: unknown;
  /** Attempts already made (BullMQ's `attemptsMade`): failures counted against the job's `attempts`. */
  attemptsMade?: number;
  /** Times the job was started (BullMQ's `attemptsStarted`), waits for the state store included. */
  attemptsStarted?: number;
  /** When the job was added (Unix ms): the start of its queue wait. */
  timestamp?: number;
  /**
   * BullMQ's `Job#moveToDelayed(timestamp, token)`: the job waits until then without using an
   * attempt (a job whose state store call failed).
   */
  moveToDelayed?(timestamp: number, token?: string): Promise<void>;
}

/** What a job of `processor()` resolves to (BullMQ keeps it as the job's return value). */
export interface JobResult {
  outcome: 'accepted' | 'duplicate' | 'stale';
}

/** What became of a job, in the words its span and metric use (`rejected`: a handler failed, or it is no delivery). */
type JobRun = Traced;

/** Longest wait between starts of a job whose store call failed. */
const MAX_STORE_WAIT_MS = 30_000;

/** @internal A job of `processor()`: run through the pipeline inside its span, then made the job's result. */
export async function processJob(
  job: WebhookJob,
  token: string | undefined,
  read: PayloadReader,
  pipeline: Pipeline,
): Promise<JobResult> {
  const run = await traced(
    'flashduty.webhook.process',
    () => runJob(job, token, read, pipeline),
    (error) => ({ outcome: 'rejected', error }),
  );
  return endJob(job, token, run);
}

/** One job through the pipeline: what became of it (rejected with BullMQ's `UnrecoverableError` when it is no delivery). */
async function runJob(
  job: WebhookJob,
  token: string | undefined,
  read: PayloadReader,
  pipeline: Pipeline,
): Promise<JobRun> {
  const delivery = read(job.data);
  if (!delivery.ok) {
    const { path, message } = delivery.problem;
    const error = new FlashdutyError(
      `job ${String(job.id)} is not a webhook delivery: ${path ? `${path}: ` : ''}${message}`,
    );
    error.name = 'UnrecoverableError'; // BullMQ's marker for "do not retry"
    return { outcome: 'rejected', error };
  }
  const { event, keys } = delivery;
  if ((job.attemptsStarted ?? (job.attemptsMade ?? 0) + 1) <= 1 && job.timestamp !== undefined)
    recordQueueWait(Math.max(0, Date.now() - job.timestamp) / 1000, keys.eventType);
  // An attempt that failed ran the handlers, so its claim judged the event fresh (a stale event
  // completes its job, and a wait for the store uses no attempt where the job can be moved to the
  // delayed set): fresh for this one too, even once the store's TTL has dropped that verdict (a job
  // retried from the failed set a day later).
  const waitsUseNoAttempt = typeof job.moveToDelayed === 'function' && token !== undefined;
  const judgedFresh = waitsUseNoAttempt && (job.attemptsMade ?? 0) > 0;
  const fate = await pipeline.run(event, keys, { token: job.id ?? jobIdFor(keys.eventId), judgedFresh });
  switch (fate.outcome) {
    case 'failed':
      return { outcome: 'rejected', error: fate.error, event };
    case 'unrecorded':
      return { outcome: 'unrecorded', error: fate.error, event };
    default:
      return { outcome: fate.outcome, event };
  }
}

/**
 * The job's result: resolves for accepted, duplicate and stale; rejects with the handler's error;
 * for an event not recorded, moves the job to the delayed set without using an attempt and rejects
 * with BullMQ's `DelayedError` (a job that cannot be moved rejects with the store's error).
 */
async function endJob(job: WebhookJob, token: string | undefined, run: JobRun): Promise<JobResult> {
  countJob(run.outcome, run.event?.event_type);
  if (run.outcome === 'rejected') throw run.error;
  if (run.outcome === 'unrecorded') {
    if (typeof job.moveToDelayed !== 'function' || token === undefined) throw run.error;
    // Starts that used no attempt so far: this one, and the waits before it.
    const waits = Math.max(0, (job.attemptsStarted ?? 1) - (job.attemptsMade ?? 0) - 1);
    const wait = Math.min(MAX_STORE_WAIT_MS, 1000 * 2 ** Math.min(waits, 5));
    await job.moveToDelayed(Date.now() + wait, token);
    const delayed = new FlashdutyError(
      `job ${String(job.id)} waits ${wait} ms for the state store (no attempt used): ${messageOf(run.error)}`,
    );
    delayed.name = 'DelayedError'; // BullMQ's marker for "moved to the delayed set by the processor"
    throw delayed;
  }
  return { outcome: run.outcome };
}
