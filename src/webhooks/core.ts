// The framework-neutral core of the webhook receiver. A delivery goes
//   ingress (ingress.ts: secret → content type → size → JSON → payload)
//   → the queue (with one), or the pipeline's steps (pipeline.ts: claim and staleness → handlers),
// every wait raced against the ack deadline; a job of `processor()` goes through the same steps.
// It imports no adapter; adapters call `receiveFrom`.
//
// Rules owned here (the sender answers only to 200, waits 2 s, and retries once, only when the
// connection closed or timed out before headers; never after an HTTP error or a late answer):
// - An answer never leaves after `ackTimeoutMs`. A delivery that cannot be recorded by then (store
//   or queue slow, down or full) gets status 503: adapters that can close the connection without
//   an answer do, so the sender retries; `fetchHandler` answers 503.
// - With a queue, 200 means the queue holds the event; handlers run in `processor()`.
// - Without a queue, 200 means the handlers succeeded, or still ran at the deadline (a failure
//   after that is reported on 'error' and the event is lost unless replayed: documented).
// - A claim held by another process at the deadline is never answered `duplicate` (that process
//   may have died): it is unrecorded (503), so the event stays in the sender's failed history.
// - An `event_time` more than `maxClockSkewMs` ahead of this clock moves no watermark.

import { FlashdutyError } from '../internal/errors.js';
import { loader } from '../internal/lazy.js';
import type { Logger } from '../internal/logger.js';
import { positiveWhole } from '../internal/options.js';
import type { BodySource, HeadersLike } from './body.js';
import { checkCustomBody, makeCustomBodyEvent } from './custom-body.js';
import { Deadline, isThenable } from './deadline.js';
import { Handlers } from './handlers.js';
import { admit, type IngressRules } from './ingress.js';
import { loadingReader, readDelivery } from './kinds.js';
import { OK, type Outcome, Pipeline } from './pipeline.js';
import type { JobContext, JobSubject } from './jobs.js';
import { checkQueue, checkWaitForReplicas, jobIdFor, type WebhookJob, type WebhookQueue } from './queue.js';
import { checkSecretOptions, type SecretOptions } from './secret.js';
import { traced } from './span.js';
import { MemoryStateStore } from './stores/memory.js';
import type { ClaimAndAdvance, StateStore } from './stores/store.js';
import type { ValueMapping } from './template.js';
import type { KnownWebhookEventType, WebhookEvent, WebhookEventOf } from './types.js';
import type { DeliveryKeys } from './kinds.js';

/** Options of {@link WebhookReceiver}; each has a default. */
export interface WebhookReceiverOptions {
  /** Checks a custom header configured on the integration, in constant time (401 when it does not match). */
  secret?: SecretOptions;
  /** Dedup and staleness state; default a new MemoryStateStore (bounded, 24 h TTL). */
  store?: StateStore;
  /**
   * A durable queue (BullMQ's `Queue`, or anything with its `add`): deliveries are answered 200
   * once the queue holds them, and handlers run in a worker through `processor()`.
   */
  queue?: WebhookQueue;
  /**
   * With a queue: answer 200 only once this many replicas of Redis hold the job too (Redis `WAIT`,
   * within what is left of `ackTimeoutMs`); fewer in time, and the delivery is not recorded (the
   * connection is closed, 503 from `fetchHandler`), so the sender retries. Then a failover that
   * promotes a replica loses no accepted event. Default 0: answered once the primary holds it.
   */
  waitForReplicas?: number;
  /** Drop events older than one already accepted for the same incident (or alert); default true. */
  dropStale?: boolean;
  /** Deduplicate on `event_id`; default true. */
  dedup?: boolean;
  /**
   * The custom body template (and value mapping) configured on the integration: deliveries are the
   * rendered template, read as {@link CustomBodyEvent}s (to `'event'` handlers). A template without
   * `{{event_id}}` throws unless `dedup: false`.
   */
  customBody?: { template: unknown; valueMapping?: ValueMapping };
  /** Largest body read, in bytes; default 1 MiB (larger → 413, read no further). */
  maxBodyBytes?: number;
  /** Every answer leaves by then (the sender waits 2 s); default 1500 ms. Custom actions (`i_custom`, whose sender waits 1 s) within 900 ms at most. */
  ackTimeoutMs?: number;
  /** How far ahead of this clock an `event_time` may be and still move a watermark; default 300 000 ms. */
  maxClockSkewMs?: number;
  /** How long a claim holds before another delivery may take it over (a crashed replica); default 60 s. */
  leaseMs?: number;
  /** Deliveries handled in this process at once (without a queue); beyond, 503. Default 10 000. */
  maxInFlight?: number;
  /**
   * Where failures on this side (a handler's, the store's, the queue's) are logged, besides
   * `'error'` and the delivery's span: anything with console's methods; default stderr
   * (`console.error`); `false` logs nothing. The sender's answer never holds them.
   */
  logger?: Logger | false;
}

/** What became of a delivery. */
export type ReceiveOutcome = 'accepted' | 'duplicate' | 'stale' | 'rejected';

/** The answer to a delivery, as `receive()` gives it. */
export interface ReceiveResult {
  /**
   * The HTTP status: 200 for accepted, duplicate and stale; 400, 401, 413 or 415 for a bad
   * delivery; 500 when a handler failed; 503 when the delivery could not be recorded in time (the
   * node and Fastify adapters then close the connection so that the sender delivers it again).
   */
  status: number;
  outcome: ReceiveOutcome;
  /** The delivery, once it parsed as a valid payload. */
  event?: WebhookEvent;
  /**
   * Why it was rejected, as the answer's body tells the sender: the path at fault for a bad payload;
   * only `handler failed` or `not recorded` for a failure on this side (the service keeps answer
   * bodies in its delivery history, which every member of the account can read).
   */
  reason?: string;
  /** What failed on this side (a handler's, the store's or the queue's error): never sent in the answer. */
  error?: unknown;
}

/** What `receive` takes: the body as text or bytes, or a value a framework already parsed. */
export interface Delivery {
  body: string | Uint8Array | ArrayBuffer | object | null | undefined;
  headers?: HeadersLike;
}

/** Passed to `'invalid'` listeners. */
export interface InvalidDelivery {
  status: number;
  reason: string;
}

/** A handler of accepted events; a returned promise is awaited (within the ack deadline). */
export type EventHandler<E> = (event: E) => unknown;

/** The status of a delivery that could not be recorded in time: the sender should send it again. */
export const UNRECORDED = 503;

/** A custom action's sender waits 1 s (not 2): `i_custom` deliveries are answered within this. */
const CUSTOM_ACTION_ACK_MS = 900;

/** The queue mode (jobs.ts), loaded when a receiver is made with a queue or a worker runs a job. */
const loadJobs = loader(() => import('./jobs.js'));

/** How often a delivery looks again at a claim another process holds. */
const CLAIM_POLL_MS = 25;

/**
 * The framework-neutral receiver that the adapters (`nodeMiddleware`, `fetchHandler`,
 * `fastifyWebhooks`) call. Use {@link WebhookReceiver}, which is this plus the adapters as members.
 */
export class ReceiverCore {
  readonly #handlers: Handlers;
  readonly #ingress: IngressRules;
  readonly #pipeline: Pipeline;
  readonly #queue: WebhookQueue | undefined;
  readonly #waitForReplicas: number;
  readonly #ackTimeoutMs: number;
  readonly #maxInFlight: number;
  /** Deliveries whose handlers run in this process, so a concurrent duplicate can wait for the outcome. */
  readonly #inFlight = new Map<string, Promise<Outcome>>();

  constructor(options: WebhookReceiverOptions = {}) {
    this.#handlers = new Handlers(options.logger);
    this.#queue = checkQueue(options.queue);
    // With a queue, its code loads now, so that the first delivery does not wait for it.
    if (this.#queue) loadJobs().catch(() => {});
    this.#waitForReplicas = checkWaitForReplicas(options.waitForReplicas, this.#queue);
    const dedup = options.dedup ?? true;
    let read = readDelivery;
    if (options.customBody !== undefined) {
      // Checked now (a template the receiver cannot read throws here); its reader loads apart.
      const slots = checkCustomBody({ ...options.customBody, dedup });
      read = loadingReader(async () => (await import('./custom-body-keys.js')).readerOf(slots, makeCustomBodyEvent));
    }
    this.#ingress = {
      secret: checkSecretOptions(options.secret),
      maxBodyBytes: positiveWhole(options.maxBodyBytes ?? 1024 * 1024, 'maxBodyBytes'),
      read,
    };
    this.#ackTimeoutMs = positiveWhole(options.ackTimeoutMs ?? 1500, 'ackTimeoutMs');
    this.#maxInFlight = positiveWhole(options.maxInFlight ?? 10_000, 'maxInFlight');
    this.#pipeline = new Pipeline({
      store: options.store ?? new MemoryStateStore(),
      handlers: this.#handlers,
      dedup,
      dropStale: options.dropStale ?? true,
      leaseMs: positiveWhole(options.leaseMs ?? 60_000, 'leaseMs'),
      maxClockSkewMs: positiveWhole(options.maxClockSkewMs ?? 300_000, 'maxClockSkewMs'),
    });
  }

  /** Every accepted event, known type or not. */
  on(name: 'event', handler: EventHandler<WebhookEvent>): this;
  // The informational listeners below are not awaited, but may be async: a rejection goes to
  // 'error'. Their return type is `unknown` like EventHandler's, so typescript-eslint's
  // no-misused-promises (which merges overloads) does not flag an async event handler.
  /** A delivery of an event already handled (or being handled); answered 200. */
  on(name: 'duplicate' | 'stale', handler: (event: WebhookEvent) => unknown): this;
  /** A delivery refused with 400, 401, 413 or 415. */
  on(name: 'invalid', handler: (info: InvalidDelivery) => unknown): this;
  /** A handler, the state store or the queue failed; `event` is the delivery it was handling. */
  on(name: 'error', handler: (error: unknown, event?: WebhookEvent) => unknown): this;
  /** Accepted events of one known type (a misspelt type does not compile; types added later come to `'event'`). */
  on<T extends KnownWebhookEventType>(type: T, handler: EventHandler<WebhookEventOf<T>>): this;
  on(name: string, handler: (...args: never[]) => unknown): this {
    this.#handlers.on(name, handler as (...args: unknown[]) => unknown);
    return this;
  }

  /** Removes a handler added with `on`. */
  off(name: string, handler: (...args: never[]) => unknown): this {
    this.#handlers.off(name, handler as (...args: unknown[]) => unknown);
    return this;
  }

  /** Handles one delivery and says what to answer. Never throws. */
  receive(delivery: Delivery): Promise<ReceiveResult> {
    const { body } = delivery ?? {};
    let source: BodySource;
    if (typeof body === 'string' || body instanceof Uint8Array) source = { form: 'raw', value: body };
    else if (body instanceof ArrayBuffer) source = { form: 'raw', value: new Uint8Array(body) };
    else source = { form: 'parsed', value: body };
    return this.receiveFrom(delivery?.headers, source);
  }

  /** @internal What the adapters call, with the body as a stream, bytes or a parsed value. Never throws. */
  receiveFrom(headers: HeadersLike | undefined, source: BodySource): Promise<ReceiveResult> {
    return traced('flashduty.webhook.receive', () => this.#deliver(headers, source), unrecorded);
  }

  /**
   * The job processor for a BullMQ `Worker` (`new Worker(name, receiver.processor(), …)`): the
   * pipeline's steps for `job.data`. It rejects when a handler fails, so BullMQ retries the job by
   * the queue's job options; a job that is not a delivery fails for good.
   */
  processor(): (job: WebhookJob) => Promise<void> {
    return async (job) => {
      const named: JobSubject = {};
      await traced(
        'flashduty.webhook.process',
        // Loaded inside the span: a job whose code could not load is a failed span too.
        async () => (loadJobs.value ?? (await loadJobs())).runJob(job, this.#jobContext, named),
        (error) => ({ outcome: 'rejected', event: named.event, error }),
      );
    };
  }

  /** What a job of `processor()` needs of this receiver. */
  get #jobContext(): JobContext {
    return {
      read: this.#ingress.read,
      pipeline: this.#pipeline,
      tell: (outcome, event) => this.#told(outcome, event),
    };
  }

  /** One delivery, answered by the deadline. */
  async #deliver(headers: HeadersLike | undefined, source: BodySource): Promise<ReceiveResult> {
    const deadline = new Deadline(this.#ackTimeoutMs);
    try {
      const admitting = admit(this.#ingress, headers, source, deadline);
      const admitted = isThenable(admitting) ? await admitting : admitting;
      if (!admitted.ok) return this.#invalid(admitted.status, admitted.reason);
      const { body, event, keys } = admitted;
      if (keys.eventType === 'i_custom') deadline.tighten(CUSTOM_ACTION_ACK_MS);
      if (this.#queue) {
        const jobId = this.#pipeline.dedup ? jobIdFor(keys.eventId) : undefined;
        // The body as it came: the worker's processor() reads it again, with the same reader.
        // Once loaded, handed over without awaiting the load (one race and one turn less per delivery).
        const { addJob } = loadJobs.value ?? (await deadline.race(loadJobs(), 'loading the queue mode'));
        await addJob(this.#queue, { name: keys.eventType, data: body, jobId }, this.#waitForReplicas, deadline);
        return { status: 200, outcome: 'accepted', event };
      }
      if (this.#inFlight.size >= this.#maxInFlight)
        return unrecorded(
          new FlashdutyError(`${this.#maxInFlight} deliveries are being handled already (maxInFlight)`),
        );
      const beginning = this.#beginBy(keys, event, deadline);
      let begun = isThenable(beginning) ? await beginning : beginning;
      if (begun.claim.status === 'pending') begun = await this.#waitForClaim(keys, event, deadline);
      const { claim, fresh } = begun;
      if (claim.status === 'done') return this.#told('duplicate', event);
      if (claim.status === 'pending')
        return unrecorded(new FlashdutyError(`event ${keys.eventId} is being handled by another process`));
      const token = this.#pipeline.dedup ? claim.token : undefined;
      if (!fresh) {
        if (token !== undefined) void this.#pipeline.settle('complete', keys.eventId, token, event, true);
        return this.#told('stale', event);
      }
      // The handlers: answered when they are done, or at the deadline (then still running: accepted).
      const running = this.#pipeline.run(event, keys, token);
      if (!isThenable(running)) return handled(event, running);
      this.#trackInFlight(keys.eventId, running);
      const settled = await deadline.settledBy(running);
      return handled(event, settled ? settled.value : OK);
    } catch (error) {
      this.#handlers.emit('error', error);
      return unrecorded(error);
    } finally {
      deadline.dispose();
    }
  }

  /** The claim and the judgement by the deadline; a claim that lands later is released (it would hold off the retry). */
  #beginBy(keys: DeliveryKeys, event: WebhookEvent, deadline: Deadline): ClaimAndAdvance | Promise<ClaimAndAdvance> {
    const beginning = this.#pipeline.begin(keys, event);
    if (!isThenable(beginning)) return beginning;
    const late = () =>
      beginning.then(
        ({ claim }) =>
          this.#pipeline.dedup &&
          claim.status === 'claimed' &&
          void this.#pipeline.settle('release', keys.eventId, claim.token, event, true),
        () => {},
      );
    return Promise.resolve(deadline.race(beginning, 'the state store')).catch((error: unknown) => {
      void late();
      throw error;
    });
  }

  /**
   * A claim held by another delivery of the event. Held here: its success (or its running past our
   * deadline) makes this a duplicate ('done'); its failure released the claim, so take it over.
   * Held by another process, which may have died holding it: look again until the deadline, then
   * give up ('pending'), never answer `duplicate` for what may be lost.
   */
  async #waitForClaim(keys: DeliveryKeys, event: WebhookEvent, deadline: Deadline): Promise<ClaimAndAdvance> {
    for (;;) {
      const local = this.#inFlight.get(keys.eventId);
      if (local) {
        const settled = await deadline.settledBy(local);
        if (!settled || settled.value.ok) return { claim: { status: 'done' }, fresh: false };
      } else {
        if (deadline.remaining <= CLAIM_POLL_MS) return { claim: { status: 'pending' }, fresh: false };
        await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
      }
      const begun = await this.#beginBy(keys, event, deadline);
      if (begun.claim.status !== 'pending') return begun;
    }
  }

  /** Handlers still running: a concurrent duplicate waits for their outcome. */
  #trackInFlight(id: string, running: Promise<Outcome>): void {
    this.#inFlight.set(id, running);
    void running.then(() => {
      if (this.#inFlight.get(id) === running) this.#inFlight.delete(id);
    });
  }

  /** A duplicate or stale delivery, told to its listeners; answered 200. */
  #told(outcome: 'duplicate' | 'stale', event: WebhookEvent): ReceiveResult {
    this.#handlers.emit(outcome, event);
    return { status: 200, outcome, event };
  }

  #invalid(status: number, reason: string): ReceiveResult {
    this.#handlers.emit('invalid', { status, reason });
    return { status, outcome: 'rejected', reason };
  }
}

/** The answer once the handlers ran (or still run at the deadline). */
function handled(event: WebhookEvent, outcome: Outcome): ReceiveResult {
  if (outcome.ok) return { status: 200, outcome: 'accepted', event };
  return { status: 500, outcome: 'rejected', event, reason: 'handler failed', error: outcome.error };
}

/** The delivery could not be recorded in time (or at all): the sender should deliver it again. */
function unrecorded(error: unknown): ReceiveResult {
  return { status: UNRECORDED, outcome: 'rejected', reason: 'not recorded', error };
}
