// The webhook receiver. A delivery is one async path, read top-down in `#deliver`:
//   admit (ingress.ts: secret → content type; the body read; size → JSON → payload)
//   → the queue's add (queue/enqueue.ts), or the pipeline (pipeline.ts: claim → handlers → settle)
//   → its result, and the reply an adapter sends (`replyTo`, here);
// every wait bounded by one ack deadline (deadline.ts). A job of `processor()` goes through the
// same pipeline (queue/worker.ts). Adapters (adapters/) only translate a request into `reply()`'s
// input and its reply into a response: every rule of what is answered lives here. The receiver
// imports no adapter: a member that offers one (`nodeMiddleware()`, `fetchHandler`) loads it.
//
// Rules owned here. The sender counts only a 200 as delivered, waits 2 s (1 s for custom actions),
// and retries at most once, and only after a network error: the connection closed (EOF) or an i/o
// timeout. It never retries an HTTP error, a late answer, or its own deadline hit while awaiting
// the answer's headers. So:
// - A reply never leaves after `ackTimeoutMs` (deadline.ts says how close to it). A delivery that
//   cannot be recorded by then (store or queue slow, down or full) gets 503 and `drop`: adapters
//   that can close the connection without an answer do, so the sender retries; `fetchHandler`
//   answers 503 (a failure in the delivery history, recovered by `replayFromHistory`).
// - With a queue, 200 means the queue holds the event: its handlers then run in `processor()`, and it
//   ends handled or in BullMQ's failed set.
// - Without a queue, 200 means the handlers succeeded, or still ran at the deadline; a failure after
//   that is reported on 'error' and is not recovered (nor is a crash while they run): the figures
//   of docs/reliability.md say so. A 500 (a handler failed) is not retried by the sender, but
//   replaying it runs the handlers again: the event was judged fresh and stays so.
// - Only POST delivers (405 otherwise). A reply sent before the body was read whole (401, 405, 413,
//   415, 503) closes the connection: a sender that keeps sending would otherwise hold it open for
//   as long as it dribbles, and the rest of its body cannot be told apart from a next request.

import type { Logger } from '../internal/logger.js';
import { type Loader, loader } from '../internal/lazy.js';
import { otelRegistry } from '../internal/otel.js';
import { positiveWhole } from '../internal/options.js';
import type { FetchHandler } from './adapters/fetch.js';
import type { NodeMiddleware } from './adapters/node.js';
import { customBodyReader } from './custom-body.js';
import { Deadline } from './deadline.js';
import { Handlers } from './handlers.js';
import {
  type Admission,
  admit,
  type BodySource,
  type HeadersLike,
  type IngressRules,
  inHand,
  refuseUnread,
} from './ingress.js';
import { countDelivery } from './metrics.js';
import { OutageReport } from './outage.js';
import { readDefaultPayload } from './payload.js';
import { type Fate, type HandlerContext, Pipeline } from './pipeline.js';
import { checkQueue, checkWaitForReplicas, enqueue, type PendingAdds, type WebhookQueue } from './queue/enqueue.js';
import { type JobResult, processJob, type WebhookJob } from './queue/worker.js';
import { checkSecretOptions, type SecretOptions } from './secret.js';
import { traced } from './span.js';
import { MemoryStateStore } from './stores/memory.js';
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
   * Every reply leaves by then (the sender waits 2 s); default 1500 ms. Custom actions (`i_custom`,
   * whose sender waits 1 s) within 900 ms at most.
   */
  ackTimeoutMs?: number;
  /** How far ahead of this clock an `event_time` may be and still be judged for staleness; default 300 000 ms. */
  maxClockSkewMs?: number;
  /** How long a claim holds before another delivery may take it over (a crashed replica); default 60 s. */
  leaseMs?: number;
  /**
   * Deliveries in flight in this process at once: handlers running (without a queue), or adds the
   * queue has not answered (with one, however late: a queue whose Redis is down keeps them until it
   * is back); beyond, not recorded at once (503). Default 10 000.
   */
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

/** What became of a delivery, as `receive()` gives it. */
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
   * Why it was rejected, as the reply's body tells the sender: the path at fault for a bad payload;
   * only `handler failed` or `not recorded` for a failure on this side (the service keeps answer
   * bodies in its delivery history, which every member of the account can read).
   */
  reason?: string;
  /** What failed on this side (a handler's, the store's or the queue's error): never sent to the sender. */
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

/** One HTTP request, as an adapter hands it over. */
export interface WebhookRequest {
  method: string;
  headers: HeadersLike | undefined;
  body: BodySource;
}

/** What an adapter sends back. */
export interface Reply {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string;
  /**
   * Close the connection instead of sending this, where the transport can: the sender retries only
   * a dropped connection (a web `Response` cannot drop one, and sends the 503).
   */
  drop: boolean;
}

/** The status of a delivery that could not be recorded in time: the sender should send it again. */
export const UNRECORDED = 503;

/** A custom action's sender waits 1 s (not 2): `i_custom` deliveries are answered within this. */
const CUSTOM_ACTION_ACK_MS = 900;

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
  readonly #queueFailures: OutageReport;
  readonly #pendingAdds: PendingAdds;
  readonly #waitForReplicas: number;
  readonly #ackTimeoutMs: number;
  readonly #dedup: boolean;

  constructor(options: WebhookReceiverOptions = {}) {
    this.#handlers = new Handlers(options.logger);
    this.#queue = checkQueue(options.queue);
    this.#queueFailures = new OutageReport('the queue', (error, event) => this.#handlers.emit('error', error, event));
    this.#waitForReplicas = checkWaitForReplicas(options.waitForReplicas, this.#queue);
    const dedup = (this.#dedup = options.dedup ?? true);
    this.#ingress = {
      secret: checkSecretOptions(options.secret),
      maxBodyBytes: positiveWhole(options.maxBodyBytes ?? 1024 * 1024, 'maxBodyBytes'),
      read: options.customBody === undefined ? readDefaultPayload : customBodyReader({ ...options.customBody, dedup }),
    };
    this.#ackTimeoutMs = positiveWhole(options.ackTimeoutMs ?? 1500, 'ackTimeoutMs');
    const maxInFlight = positiveWhole(options.maxInFlight ?? 10_000, 'maxInFlight');
    this.#pendingAdds = { count: 0, max: maxInFlight };
    this.#pipeline = new Pipeline({
      store: options.store ?? new MemoryStateStore(),
      handlers: this.#handlers,
      dedup,
      dropStale: options.dropStale ?? true,
      leaseMs: positiveWhole(options.leaseMs ?? 60_000, 'leaseMs'),
      maxClockSkewMs: positiveWhole(options.maxClockSkewMs ?? 300_000, 'maxClockSkewMs'),
      maxInFlight,
    });
    const web = loader(() => import('./adapters/fetch.js'));
    this.fetchHandler = async (request) => {
      let adapter: typeof import('./adapters/fetch.js');
      try {
        adapter = web.value ?? (await web());
      } catch (error) {
        // Its code could not load (the next request tries again): told to 'error', answered 503.
        this.#handlers.emit('error', error);
        const { status, headers, body } = replyTo(notRecorded(error));
        return new Response(body, { status, headers });
      }
      return adapter.responseOf(await this.reply(adapter.requestOf(request)));
    };
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
  /**
   * A handler, the state store or the queue failed; `event` is the delivery it was handling. A store
   * or queue that keeps failing is told once per 10 s (an `OutageError` saying how many failures it
   * stands for).
   */
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
   * front. Its code loads now: a request that comes before it did waits for it (its body stays in
   * the socket meanwhile); if it cannot load, the connection is closed (the sender retries) and the
   * failure goes to 'error'.
   */
  nodeMiddleware(): NodeMiddleware {
    const node = loader(() => import('./adapters/node.js'));
    node().catch(() => {}); // a failure now is met by the first request, which tries again
    return (req, res, next) => void this.#serveNode(node, req, res, next);
  }

  /** Handles one delivery and says what became of it. Never rejects. */
  receive(delivery: Delivery): Promise<ReceiveResult> {
    return this.#receive(delivery?.headers, inHand(delivery?.body));
  }

  /** @internal The adapters' one call: a request, and the reply to send. Never rejects. */
  async reply(request: WebhookRequest): Promise<Reply> {
    if (request.method !== 'POST') return NOT_POST;
    return replyTo(await this.#receive(request.headers, request.body));
  }

  /**
   * The job processor for a BullMQ `Worker` (`new Worker(name, receiver.processor(), …)`): the
   * pipeline for `job.data`. It rejects when a handler fails, so BullMQ retries the job by the
   * queue's job options; a job whose store call failed waits (moved to BullMQ's delayed set without
   * using an attempt) and runs again; a job that is not a delivery fails for good.
   */
  processor(): (job: WebhookJob, token?: string) => Promise<JobResult> {
    return (job, token) => processJob(job, token, this.#ingress.read, this.#pipeline);
  }

  /**
   * One request through the node adapter, once its code has loaded. What breaks on the way (the
   * adapter's code that cannot load, a request it cannot read) goes to 'error', and the connection
   * is closed: the sender retries.
   */
  async #serveNode(
    node: Loader<typeof import('./adapters/node.js')>,
    ...[req, res, next]: Parameters<NodeMiddleware>
  ): Promise<void> {
    try {
      const adapter = node.value ?? (await node());
      adapter.send(res, await this.reply(adapter.requestOf(req)), next);
    } catch (error) {
      this.#handlers.emit('error', error);
      res.destroy();
    }
  }

  /** One delivery, in its span when a tracer is registered. Never rejects: a span that fails goes to 'error'. */
  #receive(headers: HeadersLike | undefined, body: BodySource): Promise<ReceiveResult> {
    if (!otelRegistry()) return this.#deliver(headers, body);
    return traced('flashduty.webhook.receive', () => this.#deliver(headers, body), notRecorded).catch(
      (error: unknown) => {
        this.#handlers.emit('error', error); // the span's code could not load, or broke
        return notRecorded(error);
      },
    );
  }

  /**
   * One delivery: refused from its headers, or read (by its deadline) and admitted; then handed to
   * the queue or run through the pipeline; its result counted. Never rejects.
   */
  async #deliver(headers: HeadersLike | undefined, body: BodySource): Promise<ReceiveResult> {
    const deadline = new Deadline(this.#ackTimeoutMs);
    const rules = this.#ingress;
    let result: ReceiveResult;
    try {
      let admission = refuseUnread(rules, headers, body);
      if (!admission) {
        const received = body.form === 'stream' ? await body.read(rules.maxBodyBytes, deadline) : body;
        admission = admit(rules, received);
      }
      if (!admission.ok) {
        this.#handlers.emit('invalid', { status: admission.status, reason: admission.reason });
        result = { status: admission.status, outcome: 'rejected', reason: admission.reason };
      } else {
        const { event, keys } = admission;
        if (keys.eventType === 'i_custom') deadline.tighten(CUSTOM_ACTION_ACK_MS);
        result = this.#queue
          ? await this.#handOver(this.#queue, admission, deadline)
          : resultOf(await this.#pipeline.run(event, keys, { deadline }), event);
      }
    } catch (error) {
      // The body's read broke, or outlasted the deadline.
      this.#handlers.emit('error', error);
      result = notRecorded(error);
    } finally {
      deadline.dispose();
    }
    countDelivery(result.status === UNRECORDED ? 'unrecorded' : result.outcome, result.event?.event_type);
    return result;
  }

  /** A delivery handed to the queue: accepted once it holds it, else not recorded (told once per outage). */
  async #handOver(
    queue: WebhookQueue,
    { body, event, keys }: Extract<Admission, { ok: true }>,
    deadline: Deadline,
  ): Promise<ReceiveResult> {
    // The body as it came: the worker's processor() reads it again, with the same reader.
    const job = { name: keys.eventType, data: body, eventId: this.#dedup ? keys.eventId : undefined };
    try {
      await enqueue(queue, job, this.#waitForReplicas, deadline, this.#pendingAdds);
      return { status: 200, outcome: 'accepted', event };
    } catch (error) {
      this.#queueFailures.failed(error, event);
      return { ...notRecorded(error), event };
    }
  }
}

/** The result of an event's fate. */
function resultOf(fate: Fate, event: WebhookEvent): ReceiveResult {
  switch (fate.outcome) {
    case 'failed':
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

const JSON_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/json' };
const CLOSING_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/json', Connection: 'close' };
/** Statuses sent before the body was read whole: the connection closes after them. */
const EARLY = new Set([401, 405, 413, 415, UNRECORDED]);
// Built once: most replies are one of these.
const PLAIN: Record<string, Reply> = Object.fromEntries(
  (['accepted', 'duplicate', 'stale'] as const).map((outcome) => [
    outcome,
    { status: 200, headers: JSON_HEADERS, body: `{"outcome":"${outcome}"}`, drop: false },
  ]),
);
const NOT_POST: Reply = {
  status: 405,
  headers: { ...CLOSING_HEADERS, Allow: 'POST' },
  body: '{"outcome":"rejected","reason":"use POST"}',
  drop: false,
};

/** What an adapter sends for a result: its status, and a small JSON body saying what happened. */
function replyTo(result: ReceiveResult): Reply {
  if (result.reason === undefined) return PLAIN[result.outcome] as Reply;
  return {
    status: result.status,
    headers: EARLY.has(result.status) ? CLOSING_HEADERS : JSON_HEADERS,
    body: JSON.stringify({ outcome: result.outcome, reason: result.reason }),
    drop: result.status === UNRECORDED,
  };
}
