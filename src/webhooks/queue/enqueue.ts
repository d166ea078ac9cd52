// The queue mode's first side: a delivery handed to the queue (BullMQ's `Queue`; the SDK imports
// nothing from bullmq, and anything with the same `add` works), answered 200 only once the queue
// holds it. Its handlers run later, in whatever process runs a worker with `receiver.processor()`
// (worker.ts). The queue and its options are checked when the receiver is made.
//
// Rules owned here:
// - One event, one job: the job id is derived from the dedup key, so the same event delivered to
//   many replicas (or again after a time-out) is one job while BullMQ keeps it. BullMQ refuses
//   custom ids that contain `:` or are integers; the derivation is injective and avoids both.
// - On a Redis Cluster, a queue's keys must share one slot (its Lua scripts touch several): a queue
//   whose keys have no hash tag (BullMQ's default prefix `bull`) would fail every delivery with
//   CROSSSLOT, so the receiver refuses it when made.
// - With `waitForReplicas: n`, a job counts as held only once `n` replicas hold it too: Redis
//   replicates asynchronously, and a primary that dies before its replica has the job, with that
//   replica promoted, loses a job the sender was told was delivered. `WAIT n ms` goes to the
//   connection that wrote the job (the queue's own; on a Cluster, the primary of the queue's slot),
//   bounded by what is left of the ack deadline (never 0: WAIT 0 blocks for ever). Fewer replicas
//   in time: the delivery is not recorded, so the sender retries it.
// - At most `maxInFlight` adds the queue has not taken yet, however long they take: an add given up
//   on at the deadline still holds its body until the queue answers (BullMQ's connection keeps
//   commands while Redis is down), so beyond that a delivery is not recorded at once, and an outage
//   holds a bounded memory.

import { ConfigError, FlashdutyError } from '../../internal/flashduty-error.js';
import type { Deadline } from '../deadline.js';

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

/** A delivery as a job: named by its event type, the body as it came, its id from the dedup key (none without dedup). */
export interface JobToAdd {
  name: string;
  data: unknown;
  eventId: string | undefined;
}

/** The adds of one receiver the queue has not answered yet, and how many it may have. */
export interface PendingAdds {
  count: number;
  readonly max: number;
}

/** Nothing to wait for: a job is held once `add` resolved. */
const NO_REPLICAS = 0;

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

/** The job id for an event: `fd-` and the id with `%` and `:` percent-encoded (injective, never an integer). */
export function jobIdFor(eventId: string): string {
  return `fd-${eventId.replace(/[%:]/g, (c) => (c === '%' ? '%25' : '%3A'))}`;
}

/**
 * @internal Adds the delivery's job, then (with `replicas` above 0) waits until that many replicas
 * hold it, all within the deadline; rejects (the delivery is not recorded) otherwise.
 */
export async function enqueue(
  queue: WebhookQueue,
  job: JobToAdd,
  replicas: number,
  deadline: Deadline,
  pending: PendingAdds,
): Promise<void> {
  if (pending.count >= pending.max)
    throw new FlashdutyError(`maxInFlight (${pending.max}) deliveries wait for the queue already`);
  const options = job.eventId === undefined ? {} : { jobId: jobIdFor(job.eventId) };
  // Promise.resolve: anything with BullMQ's `add` may answer without a promise.
  const adding = Promise.resolve(queue.add(job.name, job.data, options));
  pending.count++;
  const answered = () => void pending.count--;
  adding.then(answered, answered);
  await deadline.race(adding, 'the queue');
  if (replicas === NO_REPLICAS) return;
  const connection = await deadline.race(primaryOf(queue), 'the queue');
  // WAIT's own timeout, a little inside the deadline: its answer (how many replicas hold the job)
  // then comes back before the race gives up on it, and says which replicas were missing.
  const ms = Math.max(1, Math.floor(deadline.remaining) - 5);
  const acked = Number(await deadline.race(Promise.resolve(connection.call('WAIT', replicas, ms)), 'the queue'));
  if (acked < replicas) {
    throw new FlashdutyError(`waitForReplicas: ${acked} of ${replicas} replicas held the job within ${ms} ms`);
  }
}

/** The queue's own connection, as BullMQ 6 (`getBackend().client`) and earlier (`client`) expose it. */
function connectionOf(queue: WebhookQueue): Promise<unknown> | undefined {
  return queue.client ?? (queue.getBackend?.() as { client?: Promise<unknown> } | undefined)?.client;
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
