// The framework-neutral core of the webhook receiver. Every delivery goes through `deliver`:
// secret → content type → size → JSON and payload → claim (dedup) → staleness → handlers → answer
// within the ack deadline. Adapters only read requests (or hand over parsed bodies) and write answers.

import EventEmitter from 'eventemitter3';
import { type BodyReader, headerOf, type HeadersLike, isJsonContentType } from './body.js';
import { type FetchHandler, fetchHandler } from './adapters/fetch.js';
import { type NodeMiddleware, nodeMiddleware } from './adapters/node.js';
import { positiveWhole } from '../internal/options.js';
import { type Awaitable, isThenable, runSteps } from '../internal/steps.js';
import { checkPayload } from './payload.js';
import { checkSecretOptions, type SecretOptions, secretMatches } from './secret.js';
import { MemoryStateStore } from './stores/memory.js';
import type { Claim, StateStore } from './stores/store.js';
import type { KnownWebhookEventType, WebhookEvent, WebhookEventOf } from './types.js';

/** Options of {@link WebhookReceiver}; each has a default. */
export interface WebhookReceiverOptions {
  /** Checks a custom header configured on the integration, in constant time (401 when it does not match). */
  secret?: SecretOptions;
  /** Dedup and staleness state; default a new MemoryStateStore (bounded, 24 h TTL). */
  store?: StateStore;
  /** Drop events older than one already accepted for the same incident; default true. */
  dropStale?: boolean;
  /** Largest body read, in bytes; default 1 MiB (larger → 413, read no further). */
  maxBodyBytes?: number;
  /** Answer by then even if handlers still run (the sender waits 2 s); default 1500 ms. */
  ackTimeoutMs?: number;
  /** How long a claim holds before another delivery may take over (a crashed replica); default 60 s. */
  leaseMs?: number;
}

/** What became of a delivery. */
export type ReceiveOutcome = 'accepted' | 'duplicate' | 'stale' | 'rejected';

/** The answer to a delivery, as `receive()` gives it. */
export interface ReceiveResult {
  /** The HTTP status to answer: 200 for accepted, duplicate and stale; 400, 401, 413, 415 or 500 otherwise. */
  status: number;
  outcome: ReceiveOutcome;
  /** The delivery, once it parsed as a valid payload. */
  event?: WebhookEvent;
  /** Why it was rejected (with the path at fault for a bad payload). */
  reason?: string;
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
type Reserved = 'event' | 'duplicate' | 'stale' | 'invalid' | 'error';
const RESERVED = new Set<string>(['event', 'duplicate', 'stale', 'invalid', 'error']);

/** @internal How adapters hand over a body. */
export type BodySource =
  | { kind: 'parsed'; value: unknown }
  | { kind: 'raw'; value: string | Uint8Array }
  | { kind: 'reader'; read: BodyReader };

const decoder = new TextDecoder();

/**
 * Receives Flashduty incident webhooks: checks, deduplicates, drops stale events, runs your handlers
 * and answers within the sender's deadline. Use it through an adapter or `receive()`.
 */
export class WebhookReceiver {
  readonly #emitter = new EventEmitter();
  readonly #secret: SecretOptions | undefined;
  readonly #store: StateStore;
  readonly #dropStale: boolean;
  readonly #maxBodyBytes: number;
  readonly #ackTimeoutMs: number;
  readonly #leaseMs: number;
  /** Deliveries being handled in this process, so a concurrent duplicate can wait for the outcome. */
  readonly #inFlight = new Map<string, Promise<boolean>>();
  /** `(request: Request) => Promise<Response>` for Hono, Next.js route handlers, Bun, Deno and Workers. */
  readonly fetchHandler: FetchHandler = fetchHandler(this);

  constructor(options: WebhookReceiverOptions = {}) {
    this.#secret = checkSecretOptions(options.secret);
    this.#store = options.store ?? new MemoryStateStore();
    this.#dropStale = options.dropStale ?? true;
    this.#maxBodyBytes = positiveWhole(options.maxBodyBytes ?? 1024 * 1024, 'maxBodyBytes');
    this.#ackTimeoutMs = positiveWhole(options.ackTimeoutMs ?? 1500, 'ackTimeoutMs');
    this.#leaseMs = positiveWhole(options.leaseMs ?? 60_000, 'leaseMs');
  }

  /** Every accepted event, known type or not. */
  on(name: 'event', handler: EventHandler<WebhookEvent>): this;
  /** A delivery of an event already handled (or being handled); answered 200. */
  on(name: 'duplicate' | 'stale', handler: (event: WebhookEvent) => void): this;
  /** A delivery refused with 400, 401, 413 or 415. */
  on(name: 'invalid', handler: (info: InvalidDelivery) => void): this;
  /** A handler (or the state store) failed; `event` is the delivery it was handling. */
  on(name: 'error', handler: (error: unknown, event?: WebhookEvent) => void): this;
  /** Accepted events of one type. */
  on<T extends KnownWebhookEventType>(type: T, handler: EventHandler<WebhookEventOf<T>>): this;
  /** Accepted events of a type this SDK does not know yet. */
  on(type: string & {}, handler: EventHandler<WebhookEventOf<string>>): this;
  on(name: string, handler: (...args: never[]) => unknown): this {
    this.#emitter.on(name, handler as (...args: unknown[]) => unknown);
    return this;
  }

  /** Removes a handler added with `on`. */
  off(name: string, handler: (...args: never[]) => unknown): this {
    this.#emitter.off(name, handler as (...args: unknown[]) => unknown);
    return this;
  }

  /** `(req, res, next?)` for node:http, Express 4/5 and Connect, with or without a body parser in front. */
  nodeMiddleware(): NodeMiddleware {
    return nodeMiddleware(this);
  }

  /** Handles one delivery and says what to answer. Never throws. */
  receive(delivery: Delivery): Promise<ReceiveResult> {
    const { body } = delivery ?? {};
    let source: BodySource;
    if (typeof body === 'string' || body instanceof Uint8Array) source = { kind: 'raw', value: body };
    else if (body instanceof ArrayBuffer) source = { kind: 'raw', value: new Uint8Array(body) };
    else source = { kind: 'parsed', value: body };
    return this.handle(delivery?.headers, source);
  }

  /** @internal The pipeline as a promise, for adapters that read the body themselves. */
  handle(headers: HeadersLike | undefined, source: BodySource): Promise<ReceiveResult> {
    return new Promise((resolve) => this.deliver(headers, source, resolve));
  }

  /**
   * @internal The pipeline: secret → content type → size → JSON and payload → claim (dedup) →
   * staleness → handlers. Calls `answer` exactly once, in the same tick when nothing on the way
   * returns a promise (MemoryStateStore, handlers that return no promise, a body already read).
   */
  deliver(headers: HeadersLike | undefined, source: BodySource, answer: (result: ReceiveResult) => void): void {
    const deadline = Date.now() + this.#ackTimeoutMs;
    let refusal: ReceiveResult | undefined;
    try {
      refusal = this.#checkHeaders(headers, source.kind === 'parsed');
    } catch (error) {
      refusal = this.#failure(error);
    }
    if (refusal) answer(refusal);
    else if (source.kind === 'parsed') this.#fromValue(source.value, deadline, answer);
    else if (source.kind === 'raw') this.#fromBytes(source.value, deadline, answer);
    else {
      source.read(
        this.#maxBodyBytes,
        (bytes) => this.#fromBytes(bytes, deadline, answer),
        (error) => answer(this.#failure(error)),
      );
    }
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

  #fromBytes(bytes: string | Uint8Array | 'too-large', deadline: number, answer: (result: ReceiveResult) => void): void {
    if (bytes === 'too-large' || overLimit(bytes, this.#maxBodyBytes)) {
      return answer(this.#invalid(413, `body over ${this.#maxBodyBytes} bytes`));
    }
    const text = typeof bytes === 'string' ? bytes : decoder.decode(bytes);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return answer(this.#invalid(400, text.trim() === '' ? 'empty body' : `malformed JSON: ${(error as Error).message}`));
    }
    this.#fromValue(value, deadline, answer);
  }

  #fromValue(value: unknown, deadline: number, answer: (result: ReceiveResult) => void): void {
    let outcome: Awaitable<ReceiveResult>;
    try {
      const problem = checkPayload(value);
      outcome = problem
        ? this.#invalid(400, `invalid payload${problem.path ? ` at ${problem.path}` : ''}: ${problem.message}`)
        : (runSteps(this.#accept(value as WebhookEvent, deadline)) as Awaitable<ReceiveResult>); // promises flatten
    } catch (error) {
      outcome = this.#failure(error);
    }
    if (isThenable(outcome)) outcome.then(answer, (error: unknown) => answer(this.#failure(error)));
    else answer(outcome);
  }

  /** The store (or the receiver itself) failed: 500, and the error on 'error'. */
  #failure(error: unknown): ReceiveResult {
    this.#emit('error', error);
    return { status: 500, outcome: 'rejected', reason: `receiver failure: ${(error as Error)?.message ?? String(error)}` };
  }

  // #accept and #process are generators driven by runSteps: with a synchronous store and handlers
  // a delivery goes through without a microtask or a timer; each `yield` waits only on a real promise.

  *#accept(event: WebhookEvent, deadline: number): Generator<unknown, Awaitable<ReceiveResult>, unknown> {
    const id = event.event_id;
    for (;;) {
      const claim = (yield this.#store.claim(id, this.#leaseMs)) as Claim;
      if (claim.status === 'done') return this.#duplicate(event);
      if (claim.status === 'pending') {
        // Wait for the delivery that holds it: its success (or its running past our deadline) makes
        // this a duplicate; its failure released the claim, so try to take it over.
        const remaining = deadline - Date.now();
        if (remaining <= 0) return this.#duplicate(event);
        const local = this.#inFlight.get(id);
        if (local) {
          if ((yield within(local, deadline)) !== false) return this.#duplicate(event);
        } else {
          yield delay(Math.min(25, remaining)); // held by another process: look again shortly
        }
        continue;
      }
      if (this.#dropStale && !(yield this.#store.advance(event.incident.incident_id, event.event_time))) {
        yield this.#store.complete(id, claim.token);
        this.#emit('stale', event);
        return { status: 200, outcome: 'stale', event };
      }
      return this.#run(event, claim.token, deadline); // a promise goes to the caller as it is
    }
  }

  /** Runs the handlers; answers when they are done, or at the deadline if they are still running. */
  #run(event: WebhookEvent, token: string, deadline: number): Awaitable<ReceiveResult> {
    const id = event.event_id;
    let failure: unknown;
    const answer = (ok: boolean | undefined): ReceiveResult =>
      ok === false
        ? { status: 500, outcome: 'rejected', event, reason: `handler failed: ${(failure as Error)?.message ?? String(failure)}` }
        : { status: 200, outcome: 'accepted', event }; // done, or still running at the deadline
    const settled = runSteps(this.#process(event, token, (error) => (failure = error)));
    if (!(settled instanceof Promise)) return answer(settled);
    this.#inFlight.set(id, settled);
    void settled.then(() => {
      if (this.#inFlight.get(id) === settled) this.#inFlight.delete(id);
    });
    return within(settled, deadline).then(answer);
  }

  /** Runs the handlers, then completes or releases the claim. Never throws: `true` on success. */
  *#process(event: WebhookEvent, token: string, onFailure: (error: unknown) => void): Generator<unknown, boolean, unknown> {
    const id = event.event_id;
    try {
      yield this.#callHandlers(event);
    } catch (error) {
      onFailure(error);
      this.#emit('error', error, event);
      try {
        yield this.#store.release(id, token);
      } catch (storeError) {
        this.#emit('error', storeError, event);
      }
      return false;
    }
    try {
      yield this.#store.complete(id, token);
    } catch (storeError) {
      this.#emit('error', storeError, event);
    }
    return true;
  }

  /**
   * Calls every handler of the event (all of them, even when one throws) and fails with the first
   * failure: at once when every handler returned a plain value, else once their promises settled.
   */
  #callHandlers(event: WebhookEvent): void | Promise<void> {
    const typed = RESERVED.has(event.event_type) ? [] : this.#emitter.listeners(event.event_type);
    let pending: Array<PromiseLike<unknown>> | undefined;
    let thrown: { error: unknown } | undefined;
    for (const handlers of [typed, this.#emitter.listeners('event')]) {
      for (const handler of handlers) {
        try {
          const result: unknown = handler(event);
          if (isThenable(result)) (pending ??= []).push(result);
        } catch (error) {
          thrown ??= { error };
        }
      }
    }
    if (!pending) {
      if (thrown) throw thrown.error;
      return;
    }
    if (pending.length === 1) {
      // The usual case, one async handler: no allSettled arrays.
      return Promise.resolve(pending[0]).then(
        () => {
          if (thrown) throw thrown.error;
        },
        (error: unknown) => {
          throw thrown ? thrown.error : error;
        },
      );
    }
    return Promise.allSettled(pending).then((outcomes) => {
      const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (thrown) throw thrown.error;
      if (rejected) throw rejected.reason;
    });
  }

  #duplicate(event: WebhookEvent): ReceiveResult {
    this.#emit('duplicate', event);
    return { status: 200, outcome: 'duplicate', event };
  }

  #invalid(status: number, reason: string): ReceiveResult {
    this.#emit('invalid', { status, reason });
    return { status, outcome: 'rejected', reason };
  }

  /** Informational listeners must not break a delivery; what they throw goes to 'error'. */
  #emit(name: Reserved, ...args: unknown[]): void {
    for (const listener of this.#emitter.listeners(name)) {
      try {
        listener(...args);
      } catch (error) {
        if (name !== 'error') this.#emit('error', error, args[0]);
      }
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The promise's outcome if it settles by `deadline` (Unix ms), else `undefined`. */
function within<T>(promise: Promise<T>, deadline: number): Promise<T | undefined> {
  const ms = deadline - Date.now();
  if (ms <= 0) return Promise.race([promise, undefined]);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms, undefined);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
