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

/** What the receiver needs of a queue: BullMQ's `Queue#add(name, data, { jobId })`. */
export interface WebhookQueue {
  /**
   * Adds a job; resolves once the queue stored it. Adding an id that exists already is a no-op.
   * `jobId` is left out only with `dedup: false`.
   */
  add(name: string, data: unknown, options: { jobId?: string }): Promise<unknown>;
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
