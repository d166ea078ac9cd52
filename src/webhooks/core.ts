// The framework-neutral core of the webhook receiver: one straight async pipeline per delivery,
//   secret → content type → size → JSON and payload → enqueue, or dedup → staleness → handlers,
// every wait raced against the ack deadline. It imports no adapter; adapters call `receiveFrom`.
// The steps sit in one async method, each a line or an `await`: a value that is already there
// (the memory store, synchronous handlers) is used as it is, so such a delivery awaits only its body.
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

import { ConfigError, FlashdutyError } from '../core/errors.js';
import { loadSpans, otelRegistry } from '../internal/otel.js';
import type { Attributes } from '../internal/otel-spans.js';
import { positiveWhole } from '../internal/options.js';
import { type BodySource, headerOf, type HeadersLike, isJsonContentType } from './body.js';
import { Deadline, isThenable } from './deadline.js';
import { Handlers } from './handlers.js';
import { customBodyReader } from './custom-body.js';
import { type DeliveryKeys, type PayloadReader, readDefaultPayload } from './kinds.js';
import { addJob, checkWaitForReplicas, jobIdFor, type WebhookJob, type WebhookQueue } from './queue.js';
import { kindOf } from './payload.js';
import type { Logger } from '../internal/logger.js';
import { checkSecretOptions, type SecretOptions, secretMatches } from './secret.js';
import { MemoryStateStore } from './stores/memory.js';
import type { Claim, ClaimAndAdvance, StateStore } from './stores/store.js';
import type { ValueMapping } from './template.js';
import { CustomBodyEvent, type KnownWebhookEventType, type WebhookEvent, type WebhookEventOf } from './types.js';

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

type Outcome = { ok: true } | { ok: false; error: unknown };
const OK: Outcome = Object.freeze({ ok: true });
const DONE: Claim = Object.freeze({ status: 'done' });
const PENDING: Claim = Object.freeze({ status: 'pending' });

const decoder = new TextDecoder();

/**
 * The framework-neutral receiver that the adapters (`nodeMiddleware`, `fetchHandler`,
 * `fastifyWebhooks`) call. Use {@link WebhookReceiver}, which is this plus the adapters as members.
 */
export class ReceiverCore {
  readonly #handlers: Handlers;
  readonly #secret: SecretOptions | undefined;
  readonly #store: StateStore;
  readonly #queue: WebhookQueue | undefined;
  readonly #waitForReplicas: number;
  readonly #dropStale: boolean;
  readonly #dedup: boolean;
  readonly #maxBodyBytes: number;
  readonly #ackTimeoutMs: number;
  readonly #maxClockSkewMs: number;
  readonly #leaseMs: number;
  readonly #maxInFlight: number;
  readonly #read: PayloadReader;
  /** Deliveries being handled in this process, so a concurrent duplicate can wait for the outcome. */
  readonly #inFlight = new Map<string, Promise<Outcome>>();

  constructor(options: WebhookReceiverOptions = {}) {
    this.#handlers = new Handlers(failureLog(options.logger));
    this.#secret = checkSecretOptions(options.secret);
    this.#store = options.store ?? new MemoryStateStore();
    this.#queue = checkQueue(options.queue);
    this.#waitForReplicas = checkWaitForReplicas(options.waitForReplicas, this.#queue);
    this.#dropStale = options.dropStale ?? true;
    this.#dedup = options.dedup ?? true;
    this.#read =
      options.customBody === undefined
        ? readDefaultPayload
        : customBodyReader({ ...options.customBody, dedup: this.#dedup });
    this.#maxBodyBytes = positiveWhole(options.maxBodyBytes ?? 1024 * 1024, 'maxBodyBytes');
    this.#ackTimeoutMs = positiveWhole(options.ackTimeoutMs ?? 1500, 'ackTimeoutMs');
    this.#maxClockSkewMs = positiveWhole(options.maxClockSkewMs ?? 300_000, 'maxClockSkewMs');
    this.#leaseMs = positiveWhole(options.leaseMs ?? 60_000, 'leaseMs');
    this.#maxInFlight = positiveWhole(options.maxInFlight ?? 10_000, 'maxInFlight');
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
    if (typeof body === 'string' || body instanceof Uint8Array) source = { kind: 'raw', value: body };
    else if (body instanceof ArrayBuffer) source = { kind: 'raw', value: new Uint8Array(body) };
    else source = { kind: 'parsed', value: body };
    return this.receiveFrom(delivery?.headers, source);
  }

  /** @internal The pipeline, for adapters that hand over the body as a stream or a parsed value. Never throws. */
  async receiveFrom(headers: HeadersLike | undefined, source: BodySource): Promise<ReceiveResult> {
    // OpenTelemetry: a span per delivery, the handlers' spans its children (src/internal/otel.ts).
    const otel = otelRegistry();
    const span = otel && (await loadSpans()).startSpan(otel, 'flashduty.webhook.receive');
    const deadline = new Deadline(this.#ackTimeoutMs);
    let result: ReceiveResult;
    try {
      result = await (span
        ? span.run(() => this.#pipeline(headers, source, deadline))
        : this.#pipeline(headers, source, deadline));
    } catch (error) {
      this.#handlers.emit('error', error);
      result = unrecorded(error);
    } finally {
      deadline.dispose();
    }
    span?.end(deliveryAttributes(result), result.error === undefined ? result.reason : messageOf(result.error));
    return result;
  }

  /**
   * The job processor for a BullMQ `Worker` (`new Worker(name, receiver.processor(), …)`): the
   * staleness check and the handlers for `job.data`. It rejects when a handler fails, so BullMQ
   * retries the job by the queue's job options; a job that is not a delivery fails for good.
   */
  processor(): (job: WebhookJob) => Promise<void> {
    return async (job) => {
      const otel = otelRegistry();
      const span = otel && (await loadSpans()).startSpan(otel, 'flashduty.webhook.process');
      if (!span) return void (await this.#runJob(job));
      try {
        span.end(deliveryAttributes(await span.run(() => this.#runJob(job))));
      } catch (error) {
        // The job's data is read again (pure, and only here) to name the event that failed.
        const read = this.#read(job.data);
        const name = (error as Error)?.name ?? 'Error';
        const failure = { outcome: 'rejected' as const, event: read.ok ? read.event : undefined, errorType: name };
        span.end(deliveryAttributes(failure), (error as Error)?.message ?? String(error));
        throw error;
      }
    };
  }

  /** One job of `processor()`: what became of it; throws what the processor rejects with. */
  async #runJob(job: WebhookJob): Promise<Handled> {
    const read = this.#read(job.data);
    if (!read.ok) {
      const error = new FlashdutyError(
        `job ${String(job.id)} is not a webhook delivery: ${describeProblem(read.problem)}`,
      );
      error.name = 'UnrecoverableError'; // BullMQ's marker for "do not retry"
      throw error;
    }
    const { event, keys } = read;
    const token = job.id ?? jobIdFor(keys.eventId);
    const { claim, fresh } = await this.#claimAndJudge(keys, token);
    if (claim.status === 'done') {
      this.#handlers.emit('duplicate', event);
      return { outcome: 'duplicate', event };
    }
    if (claim.status === 'pending')
      throw new FlashdutyError(`event ${keys.eventId} is held by another job; trying again later`);
    if (!fresh) {
      // Told before the claim is completed: a worker that dies in between tells it again on the
      // re-run, rather than leave a stale event that nobody heard of.
      this.#handlers.emit('stale', event);
      if (this.#dedup)
        await persist(
          () => this.#store.complete(keys.eventId, token),
          (error) => this.#handlers.emit('error', error, event),
        );
      return { outcome: 'stale', event };
    }
    const outcome = await this.#process(event, keys, undefined);
    if (!outcome.ok) {
      // A release that fails is harmless here: the job's next attempt holds the same token.
      if (this.#dedup) await this.#settleClaim('release', keys.eventId, token, event);
      throw outcome.error;
    }
    // The handlers succeeded: until the store says so, a re-run of this job (its worker died, or
    // BullMQ could not record the completion either) would run them again. Keep trying while
    // Redis restarts rather than give up on the first error.
    if (this.#dedup)
      await persist(
        () => this.#store.complete(keys.eventId, token),
        (error) => this.#handlers.emit('error', error, event),
      );
    return { outcome: 'accepted', event };
  }

  async #pipeline(headers: HeadersLike | undefined, source: BodySource, deadline: Deadline): Promise<ReceiveResult> {
    const refusal = this.#checkHeaders(headers, source.kind === 'parsed');
    if (refusal) return refusal;
    let value: unknown;
    if (source.kind === 'parsed') value = source.value;
    else {
      const bytes =
        source.kind === 'raw' ? source.value : await deadline.race(source.read(this.#maxBodyBytes), 'reading the body');
      if (bytes === 'too-large' || overLimit(bytes, this.#maxBodyBytes))
        return this.#invalid(413, `body over ${this.#maxBodyBytes} bytes`);
      const text = typeof bytes === 'string' ? bytes : decoder.decode(bytes);
      try {
        value = JSON.parse(text);
      } catch (error) {
        return this.#invalid(400, text.trim() === '' ? 'empty body' : `malformed JSON: ${(error as Error).message}`);
      }
    }
    const read = this.#read(value);
    if (!read.ok)
      return this.#invalid(
        400,
        `invalid payload${read.problem.path ? ` at ${read.problem.path}` : ''}: ${read.problem.message}`,
      );
    const { event, keys } = read;
    if (keys.eventType === 'i_custom') deadline.tighten(CUSTOM_ACTION_ACK_MS);
    if (this.#queue) {
      const jobId = this.#dedup ? jobIdFor(keys.eventId) : undefined;
      // The body as it came: the worker's processor() reads it again, with the same reader.
      await addJob(this.#queue, { name: keys.eventType, data: value, jobId }, this.#waitForReplicas, deadline);
      return { status: 200, outcome: 'accepted', event };
    }
    if (this.#inFlight.size >= this.#maxInFlight) {
      return unrecorded(new FlashdutyError(`${this.#maxInFlight} deliveries are being handled already (maxInFlight)`));
    }

    // Dedup. A store that answers at once (memory) is not awaited: no promise, no tick.
    let token: string | undefined;
    if (this.#dedup) {
      const claiming = this.#store.claim(keys.eventId, this.#leaseMs);
      let claim = isThenable(claiming) ? await this.#claimBy(claiming, keys.eventId, deadline, event) : claiming;
      if (claim.status === 'pending') claim = await this.#waitForClaim(keys.eventId, deadline, event);
      if (claim.status === 'done') return this.#duplicate(event);
      if (claim.status === 'pending')
        return unrecorded(new FlashdutyError(`event ${keys.eventId} is being handled by another process`));
      token = claim.token;
    }

    // Staleness.
    let fresh: boolean;
    try {
      const judging = this.#isFresh(keys);
      fresh = typeof judging === 'boolean' ? judging : await deadline.race(judging, 'the state store');
    } catch (error) {
      if (token !== undefined) this.#releaseLater(keys.eventId, token, event);
      throw error;
    }
    if (!fresh) {
      if (token !== undefined) this.#completeLater(keys.eventId, token, event);
      this.#handlers.emit('stale', event);
      return { status: 200, outcome: 'stale', event };
    }

    // The handlers: answered when they are done, or at the deadline (then still running: accepted).
    const running = this.#process(event, keys, token);
    if (!isThenable(running)) return handled(event, running);
    this.#trackInFlight(keys.eventId, running);
    const settled = await deadline.settledBy(running);
    return handled(event, settled ? settled.value : OK);
  }

  #checkHeaders(headers: HeadersLike | undefined, parsed: boolean): ReceiveResult | undefined {
    if (this.#secret && !secretMatches(this.#secret, headerOf(headers, this.#secret.header))) {
      return this.#invalid(401, `missing or wrong ${this.#secret.header} header`);
    }
    if (parsed) return undefined; // a framework parsed it, so it was JSON
    const contentType = headerOf(headers, 'content-type');
    if (isJsonContentType(contentType)) return undefined;
    return this.#invalid(415, contentType ? `content type ${contentType} is not JSON` : 'no Content-Type header');
  }

  /**
   * A claim held by another delivery of the event. Held here: its success (or its running past our
   * deadline) makes this a duplicate ('done'); its failure released the claim, so take it over.
   * Held by another process, which may have died holding it: look again until the deadline, then
   * give up ('pending'), never answer `duplicate` for what may be lost.
   */
  async #waitForClaim(id: string, deadline: Deadline, event: WebhookEvent): Promise<Claim> {
    for (;;) {
      const local = this.#inFlight.get(id);
      if (local) {
        const settled = await deadline.settledBy(local);
        if (!settled || settled.value.ok) return DONE;
      } else {
        if (deadline.remaining <= 25) return PENDING;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const claiming = this.#store.claim(id, this.#leaseMs);
      const claim = isThenable(claiming) ? await this.#claimBy(claiming, id, deadline, event) : claiming;
      if (claim.status !== 'pending') return claim;
    }
  }

  /** A claim from a store that answers later, by the deadline. */
  async #claimBy(claiming: PromiseLike<Claim>, id: string, deadline: Deadline, event: WebhookEvent): Promise<Claim> {
    try {
      return await deadline.race(claiming, 'the state store');
    } catch (error) {
      // A claim that lands after the deadline would hold off the sender's retry for the lease.
      claiming.then(
        (late) => late.status === 'claimed' && this.#releaseLater(id, late.token, event),
        () => {},
      );
      throw error;
    }
  }

  /** Handlers still running: a concurrent duplicate waits for their outcome. */
  #trackInFlight(id: string, running: Promise<Outcome>): void {
    this.#inFlight.set(id, running);
    void running.then(() => {
      if (this.#inFlight.get(id) === running) this.#inFlight.delete(id);
    });
  }

  /** Whether the event may run: not older than its scope's watermark (which it then moves). */
  #isFresh(keys: DeliveryKeys): boolean | Promise<boolean> {
    const scope = this.#judgedScope(keys);
    return scope === undefined || this.#store.advance(scope, keys.eventTime);
  }

  /** The scope whose watermark judges the event; none when stale events are kept or it has none. */
  #judgedScope(keys: DeliveryKeys): string | undefined {
    if (!this.#dropStale) return undefined;
    // An event from the future is judged, but never moves a watermark.
    return keys.eventTime > Date.now() + this.#maxClockSkewMs ? undefined : keys.scope;
  }

  /**
   * The claim (when deduplicating) and the staleness judgement, in one call to a store that offers
   * `claimAndAdvance` (one Redis round trip per job), else the two side by side. Moving a watermark
   * for a duplicate changes nothing: its time is (or will be) moved to by whoever handles it.
   */
  async #claimAndJudge(keys: DeliveryKeys, token: string): Promise<ClaimAndAdvance> {
    const scope = this.#judgedScope(keys);
    if (!this.#dedup) return { claim: { status: 'claimed', token }, fresh: await this.#isFresh(keys) };
    if (scope !== undefined && this.#store.claimAndAdvance)
      return this.#store.claimAndAdvance(keys.eventId, this.#leaseMs, token, scope, keys.eventTime);
    const [claim, fresh] = await Promise.all([
      this.#store.claim(keys.eventId, this.#leaseMs, token),
      this.#isFresh(keys),
    ]);
    return { claim, fresh };
  }

  /**
   * Runs the handlers, then completes (or, on failure, releases) the claim. Never rejects. Stays
   * synchronous while the handlers and the store are: no promise, microtask or timer per delivery.
   */
  #process(event: WebhookEvent, keys: DeliveryKeys, token: string | undefined): Outcome | Promise<Outcome> {
    let called: void | Promise<void>;
    try {
      // A custom body is not the default payload that typed handlers expect: 'event' handlers only.
      called = this.#handlers.call(event instanceof CustomBodyEvent ? 'event' : keys.eventType, event);
    } catch (error) {
      return this.#failed(error, event, keys, token);
    }
    if (isThenable(called)) {
      return called.then(
        () => this.#succeeded(event, keys, token),
        (error: unknown) => this.#failed(error, event, keys, token),
      );
    }
    return this.#succeeded(event, keys, token);
  }

  #succeeded(event: WebhookEvent, keys: DeliveryKeys, token: string | undefined): Outcome | Promise<Outcome> {
    const settled = token === undefined ? undefined : this.#settleClaim('complete', keys.eventId, token, event);
    return isThenable(settled) ? settled.then(() => OK) : OK;
  }

  #failed(
    error: unknown,
    event: WebhookEvent,
    keys: DeliveryKeys,
    token: string | undefined,
  ): Outcome | Promise<Outcome> {
    this.#handlers.emit('error', error, event);
    const outcome: Outcome = { ok: false, error };
    const settled = token === undefined ? undefined : this.#settleClaim('release', keys.eventId, token, event);
    return isThenable(settled) ? settled.then(() => outcome) : outcome;
  }

  /** Completes or releases a claim; a store failure is reported on 'error', never thrown. */
  #settleClaim(how: 'complete' | 'release', eventId: string, token: string, event: WebhookEvent): void | Promise<void> {
    const report = (error: unknown) => this.#handlers.emit('error', error, event);
    try {
      const done = this.#store[how](eventId, token);
      if (isThenable(done)) return Promise.resolve(done).then(() => {}, report);
    } catch (error) {
      report(error);
    }
  }

  #completeLater(eventId: string, token: string, event: WebhookEvent): void {
    void this.#settleClaim('complete', eventId, token, event);
  }

  /** A claim taken for a delivery that then failed to be recorded: let the sender's retry take it. */
  #releaseLater(eventId: string, token: string, event: WebhookEvent): void {
    void this.#settleClaim('release', eventId, token, event);
  }

  #duplicate(event: WebhookEvent): ReceiveResult {
    this.#handlers.emit('duplicate', event);
    return { status: 200, outcome: 'duplicate', event };
  }

  #invalid(status: number, reason: string): ReceiveResult {
    this.#handlers.emit('invalid', { status, reason });
    return { status, outcome: 'rejected', reason };
  }
}

/** What became of a job of `processor()`, or of a delivery, as its span records it. */
interface Handled {
  outcome: ReceiveOutcome;
  event?: WebhookEvent;
  /** The answer's status (deliveries; jobs have none). */
  status?: number;
  /** A rejected job: the class of what the processor threw. */
  errorType?: string;
}

/**
 * A delivery span's attributes: the outcome, the event (once it parsed) and the answer; a rejected
 * delivery's `error.type` is its status, as HTTP's semantic conventions name a failed answer.
 */
function deliveryAttributes({ outcome, event, status, errorType }: Handled): Attributes {
  return {
    'flashduty.webhook.outcome': outcome,
    'flashduty.webhook.event_type': event?.event_type,
    'flashduty.webhook.event_id': event?.event_id,
    'flashduty.webhook.kind':
      event === undefined
        ? undefined
        : event instanceof CustomBodyEvent
          ? 'custom_body'
          : kindOf(event as object as Record<string, unknown>),
    'http.response.status_code': status,
    'error.type': outcome === 'rejected' ? (errorType ?? String(status)) : undefined,
  };
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

/** A failure's own words, for the logger and the span (never for the sender). */
function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** How the receiver logs what failed on its side: to the logger given, stderr by default, nowhere with `false`. */
function failureLog(logger: Logger | false | undefined): ((error: unknown, subject: unknown) => void) | undefined {
  if (logger === false) return undefined;
  return (error, subject) => {
    const id = (subject as { event_id?: unknown } | undefined)?.event_id;
    const line = `[flashduty] webhook${typeof id === 'string' ? ` ${id}` : ''}: ${messageOf(error)}`;
    if (logger) logger.error(line);
    else console.error(line);
  };
}

function describeProblem(problem: { path: string; message: string }): string {
  return `${problem.path ? `${problem.path}: ` : ''}${problem.message}`;
}

function checkQueue(queue: WebhookQueue | undefined): WebhookQueue | undefined {
  if (queue !== undefined && typeof queue?.add !== 'function') {
    throw new ConfigError('queue: expected a BullMQ Queue (anything with add(name, data, { jobId }))');
  }
  return queue;
}

/** Delays between attempts of a write that must land (about 30 s in all), as a store restarts. */
const PERSIST_DELAYS_MS = [50, 100, 200, 400, 800, 1600, 3200, 6400, 6400, 6400, 6400];

/** Runs `write` until it succeeds, reporting each failure; throws the last one when the delays run out. */
async function persist(write: () => unknown, report: (error: unknown) => void): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await write();
      return;
    } catch (error) {
      report(error);
      const delay = PERSIST_DELAYS_MS[attempt];
      if (delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** UTF-8 size over the limit? Text is measured only when its length alone cannot tell. */
function overLimit(body: string | Uint8Array, limit: number): boolean {
  if (typeof body !== 'string') return body.byteLength > limit;
  if (body.length * 3 <= limit) return false; // a UTF-16 unit is at most 3 bytes of UTF-8
  if (body.length > limit) return true; // and at least 1
  return new TextEncoder().encode(body).byteLength > limit;
}
