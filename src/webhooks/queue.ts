// The queue's seam: what the receiver needs of a queue (BullMQ's `Queue`; the SDK imports nothing
// from bullmq, and anything with the same `add` works) and of a job, the options that go with one,
// checked at construction, and the job id. With a queue, a delivery is answered 200 only once the
// queue holds it, and handlers run later in whatever process runs a worker with
// `receiver.processor()` (jobs.ts, loaded with the first use).
//
// Rules owned here:
// - One event, one job: the job id is derived from the dedup key, so the same event delivered to
//   many replicas (or again after a time-out) is one job while BullMQ keeps it.
// - BullMQ refuses custom ids that contain `:` or are integers; the derivation is injective and
//   avoids both.
// - On a Redis Cluster, a queue's keys must share one slot (its Lua scripts touch several): a queue
//   whose keys have no hash tag (BullMQ's default prefix `bull`) would fail every delivery with
//   CROSSSLOT, so the receiver refuses it when made.

import { ConfigError } from '../internal/flashduty-error.js';

/** What the receiver needs of a queue: BullMQ's `Queue#add(name, data, { jobId })`. */
export interface WebhookQueue {
  /**
   * Adds a job; resolves once the queue stored it. Adding an id that exists already is a no-op.
   * `jobId` is left out only with `dedup: false`.
   */
  add(name: string, data: unknown, options: { jobId?: string }): Promise<unknown>;
  /** BullMQ's connection of the queue (an ioredis client or Cluster) before BullMQ 6: `waitForReplicas` sends WAIT on it. */
  readonly client?: Promise<unknown>;
  /** BullMQ 6: the queue's backend, whose `client` (Redis-backed queues) is the queue's connection. */
  getBackend?(): unknown;
  /** BullMQ's key of the queue (`toKey('id')`): on a Cluster, which primary WAIT goes to. */
  toKey?(type: string): string;
  /** BullMQ's options of the queue: its connection tells a Cluster (ioredis' `isCluster`). */
  readonly opts?: { connection?: unknown };
}

/** @internal The `queue` option, checked: anything with BullMQ's `add`; on a Cluster, keys in one slot. */
export function checkQueue(queue: WebhookQueue | undefined): WebhookQueue | undefined {
  if (queue === undefined) return undefined;
  if (typeof queue?.add !== 'function') {
    throw new ConfigError('queue: expected a BullMQ Queue (anything with its add())');
  }
  const key = queue.toKey?.('wait');
  const cluster = (queue.opts?.connection as { isCluster?: unknown } | undefined)?.isCluster === true;
  // Redis Cluster's rule: the text between the first `{` and the next `}`, when not empty, picks the slot.
  if (cluster && key !== undefined && !/^[^{]*\{[^}]+\}/.test(key)) {
    throw new ConfigError(
      `queue: on a Redis Cluster its keys need a hash tag (${key} has none): give the Queue and its Workers a prefix such as '{flashduty}'`,
    );
  }
  return queue;
}

/** Nothing to wait for: a job is held once `add` resolved. */
export const NO_REPLICAS = 0;

/** @internal `waitForReplicas`, checked: a whole number, and a queue with a connection when above 0. */
export function checkWaitForReplicas(value: unknown, queue: WebhookQueue | undefined): number {
  if (value === undefined) return NO_REPLICAS;
  if (!Number.isInteger(value) || (value as number) < 0) {
    throw new ConfigError(`waitForReplicas: expected a whole number ≥ 0, got ${JSON.stringify(value)}`);
  }
  if ((value as number) > 0 && (queue === undefined || connectionOf(queue) === undefined)) {
    throw new ConfigError('waitForReplicas: needs a BullMQ Queue, whose connection sends WAIT');
  }
  return value as number;
}

/** @internal The queue's own connection, as BullMQ 6 (`getBackend().client`) and earlier (`client`) expose it. */
export function connectionOf(queue: WebhookQueue): Promise<unknown> | undefined {
  return queue.client ?? (queue.getBackend?.() as { client?: Promise<unknown> } | undefined)?.client;
}

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

/** The job id for an event: `fd-` and the id with `%` and `:` percent-encoded (injective, never an integer). */
export function jobIdFor(eventId: string): string {
  return `fd-${eventId.replace(/[%:]/g, (c) => (c === '%' ? '%25' : '%3A'))}`;
}
