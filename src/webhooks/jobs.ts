// The receiver's queue mode, loaded when a receiver is made with a queue or its `processor()` runs a
// job (a receiver that does neither never loads it): a delivery handed to the queue (`addJob`), and
// a job of `processor()` run through the pipeline's steps (`runJob`).
//
// Rules owned here:
// - With `waitForReplicas: n`, a job counts as held only once `n` replicas hold it too: Redis
//   replicates asynchronously, and a primary that dies before its replica has the job, with that
//   replica promoted, loses a job the sender was told was delivered. `WAIT n ms` goes to the
//   connection that wrote the job (the queue's own; on a Cluster, the primary of the queue's slot),
//   bounded by what is left of the ack deadline (never 0: WAIT 0 blocks for ever). Fewer replicas
//   in time: the delivery is not recorded, so the sender retries it.
// - A job that is not a delivery fails for good (BullMQ's `UnrecoverableError`); a handler's
//   failure fails the job, so that BullMQ retries it; the claim is completed before the job is.

import { FlashdutyError } from '../internal/errors.js';
import type { ReceiveOutcome } from './core.js';
import type { Deadline } from './deadline.js';
import type { DeliveryReader } from './kinds.js';
import type { Pipeline } from './pipeline.js';
import { connectionOf, jobIdFor, NO_REPLICAS, type WebhookJob, type WebhookQueue } from './queue.js';
import type { WebhookEvent } from './types.js';

/**
 * @internal Adds the delivery's job, then (with `replicas` above 0) waits until that many replicas
 * hold it, all within the deadline; throws (the delivery is not recorded) otherwise.
 */
export async function addJob(
  queue: WebhookQueue,
  job: { name: string; data: unknown; jobId: string | undefined },
  replicas: number,
  deadline: Deadline,
): Promise<void> {
  await deadline.race(queue.add(job.name, job.data, job.jobId === undefined ? {} : { jobId: job.jobId }), 'the queue');
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

/** What a job needs of its receiver. */
export interface JobContext {
  read: DeliveryReader;
  pipeline: Pipeline;
  /** Tells a duplicate or stale event to its listeners. */
  tell: (outcome: 'duplicate' | 'stale', event: WebhookEvent) => void;
}

/** What became of a job (no answer is sent for one). */
export interface JobResult {
  outcome: ReceiveOutcome;
  event?: WebhookEvent | undefined;
}

/** The event a job is about, once its body read as one: what the span of a failed job names. */
export interface JobSubject {
  event?: WebhookEvent | undefined;
}

/** @internal One job of `processor()`: what became of it; throws what the processor rejects with. */
export async function runJob(
  job: WebhookJob,
  { read, pipeline, tell }: JobContext,
  named: JobSubject,
): Promise<JobResult> {
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
  named.event = event;
  const token = job.id ?? jobIdFor(keys.eventId);
  const { claim, fresh } = await pipeline.begin(keys, event, token);
  if (claim.status === 'done') {
    tell('duplicate', event);
    return { outcome: 'duplicate', event };
  }
  if (claim.status === 'pending')
    throw new FlashdutyError(`event ${keys.eventId} is held by another job; trying again later`);
  if (!fresh) {
    // Told before the claim is completed: a worker that dies in between tells it again on the
    // re-run, rather than leave a stale event that nobody heard of.
    tell('stale', event);
    if (pipeline.dedup) await pipeline.persistComplete(keys.eventId, token, event);
    return { outcome: 'stale', event };
  }
  const outcome = await pipeline.run(event, keys, undefined);
  if (!outcome.ok) {
    // A release that fails is harmless here: the job's next attempt holds the same token.
    if (pipeline.dedup) await pipeline.settle('release', keys.eventId, token, event);
    throw outcome.error;
  }
  // The handlers succeeded: until the store says so, a re-run of this job (its worker died, or
  // BullMQ could not record the completion either) would run them again.
  if (pipeline.dedup) await pipeline.persistComplete(keys.eventId, token, event);
  return { outcome: 'accepted', event };
}
