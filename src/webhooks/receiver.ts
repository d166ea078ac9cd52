// The webhook receiver. One delivery goes one way, each step returning to this file:
//   adapter (adapters/) → ingress (ingress.ts: secret → content type → size → JSON → payload)
//   → the queue handoff (jobs.ts), or the pipeline (pipeline.ts: claim → handlers → settle)
//   → its outcome as an HTTP answer (here) → adapter;
// every wait raced against one ack deadline. Each step answers at once when it can, so that with the
// memory store and synchronous handlers a delivery runs whole in its body's last event, as a bare
// node:http server would. A job of `processor()` goes through the same pipeline (jobs.ts maps its
// outcome to the job's result). Adapters are free functions over this class.
//
// Rules owned here. The sender counts only a 200 as delivered, waits 2 s (1 s for custom actions),
// and retries at most once, and only after a network error: the connection closed (EOF) or an i/o
// timeout. It never retries an HTTP error, a late answer, or its own deadline hit while awaiting
// the answer's headers. So:
// - An answer never leaves after `ackTimeoutMs` (10 ms late at most: deadline.ts). A delivery that
//   cannot be recorded by then (store or queue slow, down or full) gets status 503: adapters that
//   can close the connection without an answer do, so the sender retries; `fetchHandler` answers
//   503 (a failure in the delivery history, recovered by `replayFromHistory`).
// - With a queue, 200 means the queue holds the event: its handlers then run in `processor()`, and it
//   ends handled or in BullMQ's failed set.
// - Without a queue, 200 means the handlers succeeded, or still ran at the deadline; a failure after
//   that is reported on 'error' and is not recovered (nor is a crash while they run): the figures
//   of docs/reliability.md say so. A 500 (a handler failed) is not retried by the sender, but
//   replaying it runs the handlers again: the event was judged fresh and stays so.

import { loader } from '../internal/lazy.js';
import { otelRegistry } from '../internal/otel.js';
import type { Logger } from '../internal/logger.js';
import { andThen, attempt, NOTHING } from '../internal/maybe.js';
import { positiveWhole } from '../internal/options.js';
import type { FetchHandler } from './adapters/fetch.js';
import type { NodeMiddleware } from './adapters/node.js';
import { answerOf, UNRECORDED } from './adapters/respond.js';
import { type BodySource, type HeadersLike, inHand } from './body.js';
import { checkCustomBody, makeCustomBodyEvent } from './custom-body.js';
import { Deadline } from './deadline.js';
import { Handlers } from './handlers.js';
import { type Admission, admit, type IngressRules } from './ingress.js';
import type { JobResult } from './jobs.js';
import { loadingReader, readDelivery } from './kinds.js';
import { countDelivery } from './metrics.js';
import { type Fate, type HandlerContext, Pipeline } from './pipeline.js';
import { checkQueue, checkWaitForReplicas, type WebhookJob, type WebhookQueue } from './queue.js';
import { checkSecretOptions, type SecretOptions } from './secret.js';
import type { Traced } from './span.js';
import { defaultStore } from './stores/default-store.js';
import type { StateStore } from './stores/store.js';
import type { ValueMapping } from './template.js';
import type { KnownWebhookEventType, WebhookEvent, WebhookEventOf } from './types.js';

/** Options of {@link WebhookReceiver}; each has a default. */
export interface WebhookReceiverOptions {
  /** Checks a custom header configured on the integration, in constant time (401 when it does not match). */
  secret?: SecretOptions;
  /** Dedup and staleness state; default a new MemoryStateStore (bounded, 24 h TTL). */
  store?: StateStore;
  /**
   * A durable queue (BullMQ's `Queue`, or anything with its `add`): deliveries are answered 200
   * once the queue holds them, and handlers run in a worker through `processor()`. On a Redis
   * Cluster, its prefix needs a hash tag (`{flashduty}`): without one it is a ConfigError.
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
  /**
   * Every answer leaves by then, 10 ms late at most (the sender waits 2 s); default 1500 ms. Custom
   * actions (`i_custom`, whose sender waits 1 s) within 900 ms at most.
   */
  ackTimeoutMs?: number;
  /** How far ahead of this clock an `event_time` may be and still be judged for staleness; default 300 000 ms. */
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

/**
 * A handler of accepted events; a returned promise is awaited (within the ack deadline). `context`
 * says whether a newer event of the incident was accepted since this one (a retry of a failed run).
 */
export type EventHandler<E> = (event: E, context: HandlerContext) => unknown;

/** A custom action's sender waits 1 s (not 2): `i_custom` deliveries are answered within this. */
const CUSTOM_ACTION_ACK_MS = 900;

/** The queue mode (jobs.ts), loaded when a receiver is made with a queue or a worker runs a job. */
const loadJobs = /* @__PURE__ */ loader(() => import('./jobs.js'));
/** The node:http adapter (adapters/node.ts), loaded when `nodeMiddleware()` is called. */
const loadNodeAdapter = /* @__PURE__ */ loader(() => import('./adapters/node.js'));
/** The web-standard adapter (adapters/fetch.ts), loaded with the first request `fetchHandler` takes. */
const loadFetchAdapter = /* @__PURE__ */ loader(() => import('./adapters/fetch.js'));
/** The spans (span.ts), loaded with the first delivery traced. */
const loadSpan = /* @__PURE__ */ loader(() => import('./span.js'));

/**
 * `run()` inside a span named `name` when a tracer provider is registered, else just `run()` (no
 * promise added); `failure(error)` is what the span records when `run` throws.
 */
function traced<T extends Traced>(
  name: string,
  run: () => T | Promise<T>,
  failure: (error: unknown) => Traced,
): T | Promise<T> {
  const otel = otelRegistry();
  if (!otel) return run();
  // A span module that cannot load costs the span, never the delivery.
  return Promise.resolve(loadSpan.value ?? loadSpan()).then(({ inSpan }) => inSpan(otel, name, run, failure), run);
}

/**
 * Receives Flashduty webhooks: checks, deduplicates, drops stale events, hands them to a queue or
 * runs your handlers, and answers within the sender's deadline. Use it through an adapter
 * (`nodeMiddleware()`, `fetchHandler`, `fastifyWebhooks`), `receive()`, or `processor()` in a
 * BullMQ worker.
 *
 * @example
 * ```ts
 * const receiver = new WebhookReceiver({ secret: { header: 'x-flashduty-token', values: [process.env.TOKEN!] } });
 * receiver.on('i_ack', async (event) => console.log(event.incident.title, 'acknowledged'));
 * http.createServer(receiver.nodeMiddleware()).listen(8080);
 * ```
 */
export class WebhookReceiver {
  /** `(request: Request) => Promise<Response>` for Hono, Next.js route handlers, Bun, Deno and Workers. */
  readonly fetchHandler: FetchHandler;
  readonly #handlers: Handlers;
  readonly #ingress: IngressRules;
  readonly #pipeline: Pipeline;
  readonly #queue: WebhookQueue | undefined;
  readonly #waitForReplicas: number;
  readonly #ackTimeoutMs: number;
  readonly #dedup: boolean;

  constructor(options: WebhookReceiverOptions = {}) {
    this.#handlers = new Handlers(options.logger);
    this.#queue = checkQueue(options.queue);
    // With a queue, its code loads now, so that the first delivery does not wait for it.
    if (this.#queue) loadJobs().catch(NOTHING);
    this.#waitForReplicas = checkWaitForReplicas(options.waitForReplicas, this.#queue);
    const dedup = (this.#dedup = options.dedup ?? true);
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
    this.#pipeline = new Pipeline({
      store: options.store ?? defaultStore(),
      handlers: this.#handlers,
      dedup,
      dropStale: options.dropStale ?? true,
      leaseMs: positiveWhole(options.leaseMs ?? 60_000, 'leaseMs'),
      maxClockSkewMs: positiveWhole(options.maxClockSkewMs ?? 300_000, 'maxClockSkewMs'),
      maxInFlight: positiveWhole(options.maxInFlight ?? 10_000, 'maxInFlight'),
    });
    // The adapter loads with the first request it takes (a Node app never loads it), as the default
    // store does with the first delivery. A load that failed (a chunk missing from a deployment)
    // rejects that request, which the framework answers 500, and is tried again with the next.
    let handle: FetchHandler | undefined;
    this.fetchHandler = async (request) =>
      (handle ??= (loadFetchAdapter.value ?? (await loadFetchAdapter())).fetchHandler(this))(request);
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

  /**
   * `(req, res, next?)` for node:http, Express 4/5 and Connect, with or without a body parser in
   * front. Its code loads now, apart from the receiver's: a request that comes before it did waits
   * for it (its body stays in the socket meanwhile); if it cannot load, the connection is closed (the
   * sender retries) and the failure goes to 'error'.
   */
  nodeMiddleware(): NodeMiddleware {
    let handle: NodeMiddleware | undefined;
    loadNodeAdapter().catch(NOTHING);
    return (req, res, next) => {
      if ((handle ??= loadNodeAdapter.value?.nodeMiddleware(this))) return handle(req, res, next);
      loadNodeAdapter()
        .then(({ nodeMiddleware }) => (handle ??= nodeMiddleware(this))(req, res, next))
        .catch((error: unknown) => {
          this.#handlers.emit('error', error);
          res.destroy();
        });
    };
  }

  /** Handles one delivery and says what to answer. Never throws. */
  receive(delivery: Delivery): Promise<ReceiveResult> {
    const { body } = delivery ?? {};
    const source = inHand(body instanceof ArrayBuffer ? new Uint8Array(body) : body);
    return answerOf(this, delivery?.headers, source);
  }

  /**
   * @internal What the adapters call, with the body as a stream, bytes or a parsed value: `respond`
   * gets the answer, once, at once when every step was synchronous. Never throws. Traced, a span
   * that fails (its code missing, an exporter that throws) costs the span: the answer is then "not
   * recorded", the failure on 'error'.
   */
  receiveFrom(headers: HeadersLike | undefined, source: BodySource, respond: (result: ReceiveResult) => void): void {
    if (!otelRegistry()) return this.#deliver(headers, source, respond);
    const run = () => new Promise<ReceiveResult>((resolve) => this.#deliver(headers, source, resolve));
    void attempt(
      () => traced('flashduty.webhook.receive', run, notRecorded),
      respond,
      (error) => respond(this.#told(error)),
    );
  }

  /**
   * The job processor for a BullMQ `Worker` (`new Worker(name, receiver.processor(), …)`): the
   * pipeline for `job.data`. It rejects when a handler fails, so BullMQ retries the job by the
   * queue's job options; a job whose store call failed waits (moved to BullMQ's delayed set without
   * using an attempt) and runs again; a job that is not a delivery fails for good.
   */
  processor(): (job: WebhookJob, token?: string) => Promise<JobResult> {
    // A job whose code could not load fails its attempt (BullMQ retries it), before its span.
    return async (job, token) =>
      (loadJobs.value ?? (await loadJobs())).processJob(job, token, this.#ingress.read, this.#pipeline, traced);
  }

  /**
   * One delivery, answered (to `respond`) by the deadline. Each step answers at once when it can:
   * with the memory store and synchronous handlers, a delivery runs whole in its body's last event
   * and is answered there, with no promise on the way; after an async handler, each step goes on in
   * the turn its input settled (each turn between the body and the answer costs throughput over
   * HTTP: docs/performance.md).
   */
  #deliver(headers: HeadersLike | undefined, source: BodySource, respond: (result: ReceiveResult) => void): void {
    const deadline = new Deadline(this.#ackTimeoutMs);
    let answered = false;
    // Once, and never throwing: what `respond` or a meter throws goes to 'error', not to the stream's
    // listener or the shared sweep it may run in, and is not answered a second time.
    const answer = (result: ReceiveResult) => {
      if (answered) return;
      answered = true;
      deadline.dispose();
      try {
        countDelivery(result.status === UNRECORDED ? 'unrecorded' : result.outcome, result.event?.event_type);
        respond(result);
      } catch (error) {
        this.#handlers.emit('error', error);
      }
    };
    const failed = (error: unknown) => answer(this.#told(error));
    try {
      admit(
        this.#ingress,
        headers,
        source,
        deadline,
        (admission) => this.#take(admission, deadline, answer, failed),
        failed,
      );
    } catch (error) {
      failed(error); // headers that could not be read, a body read that could not start
    }
  }

  /** A failure on this side, told to 'error': the delivery is not recorded. */
  #told(error: unknown): ReceiveResult {
    this.#handlers.emit('error', error);
    return notRecorded(error);
  }

  /**
   * A delivery let in, handed to the queue or run through the pipeline; one refused, answered so.
   * The answer goes to `answer` in the turn the last step settled, `failed` gets what broke.
   */
  #take(
    admission: Admission,
    deadline: Deadline,
    answer: (result: ReceiveResult) => void,
    failed: (error: unknown) => void,
  ): void {
    if (!admission.ok) {
      this.#handlers.emit('invalid', { status: admission.status, reason: admission.reason });
      return answer({ status: admission.status, outcome: 'rejected', reason: admission.reason });
    }
    const { body, event, keys } = admission;
    if (keys.eventType === 'i_custom') deadline.tighten(CUSTOM_ACTION_ACK_MS);
    const queue = this.#queue;
    if (!queue) {
      void attempt(
        () => this.#pipeline.process(event, keys, { deadline }),
        (fate) => answer(answerTo(fate, event)),
        failed,
      );
      return;
    }
    // The body as it came: the worker's processor() reads it again, with the same reader. Once the
    // queue mode is loaded, handed over without awaiting the load (one race and one turn less).
    const job = { name: keys.eventType, data: body, eventId: this.#dedup ? keys.eventId : undefined };
    void attempt(
      () =>
        andThen(loadJobs.value ?? deadline.race(loadJobs(), 'loading the queue mode'), ({ addJob }) =>
          addJob(queue, job, this.#waitForReplicas, deadline),
        ),
      () => answer({ status: 200, outcome: 'accepted', event }),
      failed,
    );
  }
}

/**
 * @deprecated The receiver's framework-neutral core is the receiver itself (the adapters take a
 * {@link WebhookReceiver}): use that name.
 */
export type ReceiverCore = WebhookReceiver;

/** The answer to an event's fate. */
function answerTo(fate: Fate, event: WebhookEvent): ReceiveResult {
  switch (fate.outcome) {
    case 'rejected':
      return { status: 500, outcome: 'rejected', event, reason: 'handler failed', error: fate.error };
    case 'unrecorded':
      return { ...notRecorded(fate.error), event };
    default:
      return { status: 200, outcome: fate.outcome, event };
  }
}

/** The delivery could not be recorded in time (or at all): the sender should deliver it again. */
function notRecorded(error: unknown): ReceiveResult {
  return { status: UNRECORDED, outcome: 'rejected', reason: 'not recorded', error };
}
