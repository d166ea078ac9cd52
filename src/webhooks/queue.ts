// The durable handoff: with a queue, a delivery is answered 200 only once the queue holds it, and
// handlers run later in whatever process runs a worker with `receiver.processor()`. Written for
// BullMQ (the user's own `Queue`; the SDK imports nothing from bullmq) but anything with the same
// `add` works.
//
// Rules owned here:
// - One event, one job: the job id is derived from the dedup key, so the same event delivered to
//   many replicas (or again after a time-out) is one job while BullMQ keeps it.
// - BullMQ refuses custom ids that contain `:` or are integers; the derivation is injective and
//   avoids both.
// - With `waitForReplicas: n`, a job counts as held only once `n` replicas hold it too: Redis
//   replicates asynchronously, and a primary that dies before its replica has the job, with that
//   replica promoted, loses a job the sender was told was delivered. `WAIT n ms` goes to the
//   connection that wrote the job (the queue's own; on a Cluster, the primary of the queue's slot),
//   bounded by what is left of the ack deadline (never 0: WAIT 0 blocks for ever). Fewer replicas
//   in time: the delivery is not recorded, so the sender retries it.

import { ConfigError, FlashdutyError } from '../internal/errors.js';
import type { Deadline } from './deadline.js';

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
}

/** Nothing to wait for: a job is held once `add` resolved. */
const NO_REPLICAS = 0;

/** @internal `waitForReplicas`, checked: a whole number, and a queue with a connection when above 0. */
export function checkWaitForReplicas(value: unknown, queue: WebhookQueue | undefined): number {
  if (value === undefined) return NO_REPLICAS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new ConfigError(`waitForReplicas: expected a whole number ≥ 0, got ${JSON.stringify(value)}`);
  }
  if (value > 0 && (queue === undefined || connectionOf(queue) === undefined)) {
    throw new ConfigError('waitForReplicas: needs a BullMQ Queue (its connection, queue.client, sends WAIT)');
  }
  return value;
}

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

/** The queue's own connection, as BullMQ 6 (`getBackend().client`) and earlier (`client`) expose it. */
function connectionOf(queue: WebhookQueue): Promise<unknown> | undefined {
  return queue.client ?? (queue.getBackend?.() as { client?: Promise<unknown> } | undefined)?.client;
}

/** The queue's connection that wrote the job: itself, or on a Cluster the node of the queue's slot. */
async function primaryOf(queue: WebhookQueue): Promise<Caller> {
  const client = (await connectionOf(queue)) as Partial<Caller> & {
    slots?: string[][];
    nodes?(role: 'master'): Array<Caller & { options: { host?: string; port?: number } }>;
  };
  if (typeof client.call !== 'function')
    throw new ConfigError('waitForReplicas: queue.client is not an ioredis client');
  if (!Array.isArray(client.slots) || typeof client.nodes !== 'function') return client as Caller;
  // ioredis' Cluster: the slot's first node is its primary, whose connection wrote the job.
  const key = queue.toKey?.('id') ?? '';
  const slot = Number(await client.call('CLUSTER', 'KEYSLOT', key));
  const address = client.slots[slot]?.[0];
  const node = client.nodes('master').find(({ options }) => `${options.host}:${options.port}` === address);
  if (!node) throw new FlashdutyError(`waitForReplicas: no primary holds slot ${slot} of the queue's key ${key}`);
  return node;
}

/** What `processor()` needs of a job: BullMQ's `Job` fits. */
export interface WebhookJob {
  /** The job id the receiver derived from the event's dedup key. */
  id?: string | undefined;
  /** The delivered body, as the receiver parsed it. */
  data: unknown;
  /** Attempts already made (BullMQ's `attemptsMade`), for the `'error'` report. */
  attemptsMade?: number;
}

/** The job id for an event: `fd-` and the id with `%` and `:` percent-encoded (injective, never an integer). */
export function jobIdFor(eventId: string): string {
  return `fd-${eventId.replace(/[%:]/g, (c) => (c === '%' ? '%25' : '%3A'))}`;
}
