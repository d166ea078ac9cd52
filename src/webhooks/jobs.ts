// The receiver's queue mode, loaded when a receiver is made with a queue or its `processor()` runs a
// job (a receiver that does neither never loads it): a delivery handed to the queue (`addJob`), and
// a job of `processor()` run through the pipeline (`runJob`, inside its span), its outcome made the
// job's result (`endJob`).
//
// Rules owned here:
// - With `waitForReplicas: n`, a job counts as held only once `n` replicas hold it too: Redis
//   replicates asynchronously, and a primary that dies before its replica has the job, with that
//   replica promoted, loses a job the sender was told was delivered. `WAIT n ms` goes to the
//   connection that wrote the job (the queue's own; on a Cluster, the primary of the queue's slot),
//   bounded by what is left of the ack deadline (never 0: WAIT 0 blocks for ever). Fewer replicas
//   in time: the delivery is not recorded, so the sender retries it.
// - Accepted, duplicate and stale complete the job (its return value says which). A handler's
//   failure fails it, so that BullMQ retries it by the job options and keeps what never succeeds in
//   its failed set. A job whose event could not be recorded (the store down or out of memory) is
//   moved to BullMQ's delayed set without using an attempt, waiting 1 s, 2 s, 4 s … up to 30 s
//   between starts, so an outage of any length costs no attempt and the job runs once the store
//   answers. A job that is not a delivery fails for good (BullMQ's `UnrecoverableError`).
// - Metrics (with a meter provider registered, as metric-instruments.ts): `flashduty.webhook.jobs`,
//   every job by its outcome, and `flashduty.webhook.queue.wait`, from the handoff (the answer) to
//   the job's first start, in seconds.

import { FlashdutyError } from '../internal/flashduty-error.js';
import { messageOf } from './handlers.js';
import type { Deadline } from './deadline.js';
import type { DeliveryReader } from './kinds.js';
import { countJob, recordQueueWait } from './metric-instruments.js';
import type { Fate, Pipeline } from './pipeline.js';
import { connectionOf, jobIdFor, NO_REPLICAS, type WebhookJob, type WebhookQueue } from './queue.js';
import type { Traced } from './span.js';
import type { WebhookEvent } from './types.js';

/**
 * @internal Adds the delivery's job (its id derived from `eventId`; none without dedup), then (with
 * `replicas` above 0) waits until that many replicas hold it, all within the deadline; throws (the
 * delivery is not recorded) otherwise.
 */
export async function addJob(
  queue: WebhookQueue,
  job: { name: string; data: unknown; eventId: string | undefined },
  replicas: number,
  deadline: Deadline,
): Promise<void> {
  const options = job.eventId === undefined ? {} : { jobId: jobIdFor(job.eventId) };
  await deadline.race(queue.add(job.name, job.data, options), 'the queue');
  if (replicas === NO_REPLICAS) return;
  const connection = await deadline.race(primaryOf(queue), 'the queue');
  const ms = Math.max(1, Math.floor(deadline.remaining) - 5);
  const acked = Number(await deadline.race(connection.call('WAIT', replicas, ms), 'the queue'));
  if (acked < replicas) {
    throw new FlashdutyError(`waitForReplicas: ${acked} of ${replicas} replicas held the job within ${ms} ms`);
  }
}

/** A connection that sends a command (ioredis' `call`). */
interface Caller {
  call(command: string, ...args: Array<string | number>): Promise<unknown>;
}

/** The queue's connection that wrote the job: itself, or on a Cluster the node of the queue's slot. */
async function primaryOf(queue: WebhookQueue): Promise<Caller> {
  const client = (await connectionOf(queue)) as Partial<Caller> & {
    slots?: string[][];
    nodes?(role: 'master'): Array<Caller & { options: { host?: string; port?: number } }>;
  };
  if (typeof client.call !== 'function')
    // A FlashdutyError, not a ConfigError: this file is built as a copy of its own (tsup.config.ts),
    // and only FlashdutyError is recognised across copies by `instanceof`.
    throw new FlashdutyError('waitForReplicas: queue.client is not an ioredis client');
  if (!Array.isArray(client.slots) || typeof client.nodes !== 'function') return client as Caller;
  // ioredis' Cluster: the slot's first node is its primary, whose connection wrote the job.
  const key = queue.toKey?.('id') ?? '';
  const slot = Number(await client.call('CLUSTER', 'KEYSLOT', key));
  const address = client.slots[slot]?.[0];
  const node = client.nodes('master').find(({ options }) => `${options.host}:${options.port}` === address);
  if (!node) throw new FlashdutyError(`waitForReplicas: no primary holds slot ${slot} of the queue's key ${key}`);
  return node;
}

/** What became of a job's event, and the event (for its span). */
export type JobRun = Fate & { event?: WebhookEvent | undefined };

/** What a job of `processor()` resolves to (BullMQ keeps it as the job's return value). */
export interface JobResult {
  outcome: 'accepted' | 'duplicate' | 'stale';
}

/** Longest wait between starts of a job whose store call failed. */
const MAX_STORE_WAIT_MS = 30_000;

/** How the receiver runs work in a span (receiver.ts `traced`). */
export type InSpan = <T extends Traced>(
  name: string,
  run: () => Promise<T>,
  failure: (error: unknown) => Traced,
) => T | Promise<T>;

/** @internal A job of `processor()`: run through the pipeline inside its span, then made the job's result. */
export async function processJob(
  job: WebhookJob,
  token: string | undefined,
  read: DeliveryReader,
  pipeline: Pipeline,
  inSpan: InSpan,
): Promise<JobResult> {
  const run = await inSpan(
    'flashduty.webhook.process',
    () => runJob(job, read, pipeline),
    (error) => ({ outcome: 'rejected', error }),
  );
  return endJob(job, token, run);
}

/** @internal One job of `processor()` through the pipeline: what became of it. Throws for a job that is not a delivery. */
export async function runJob(job: WebhookJob, read: DeliveryReader, pipeline: Pipeline): Promise<JobRun> {
  const delivery = await read(job.data);
  if (!delivery.ok) {
    const { path, message } = delivery.problem;
    const error = new FlashdutyError(
      `job ${String(job.id)} is not a webhook delivery: ${path ? `${path}: ` : ''}${message}`,
    );
    error.name = 'UnrecoverableError'; // BullMQ's marker for "do not retry"
    throw error;
  }
  const { event, keys } = delivery;
  if ((job.attemptsStarted ?? (job.attemptsMade ?? 0) + 1) <= 1 && job.timestamp !== undefined)
    recordQueueWait(Math.max(0, Date.now() - job.timestamp) / 1000, keys.eventType);
  const fate = await pipeline.process(event, keys, { token: job.id ?? jobIdFor(keys.eventId) });
  return { ...fate, event };
}

/**
 * @internal The job's result: resolves for accepted, duplicate and stale; rejects with the handler's
 * error; for an event not recorded, moves the job to the delayed set without using an attempt and
 * rejects with BullMQ's `DelayedError` (a job that cannot be moved rejects with the store's error).
 */
export async function endJob(job: WebhookJob, token: string | undefined, run: JobRun): Promise<JobResult> {
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
