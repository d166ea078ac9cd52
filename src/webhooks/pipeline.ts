// An accepted event's whole fate, in one place, for a delivery and a queue job alike:
//   claim (judged fresh or stale once; the verdict kept with the claim) → handlers → settle the claim
// ending in one fate: accepted, duplicate, stale, failed (a handler threw) or unrecorded (the store
// failed or was too slow, or another process holds the event). The receiver makes a fate the
// delivery's result (receiver.ts), the worker a job's (queue/worker.ts).
//
// Rules owned here:
// - An event judged fresh when first claimed stays fresh for its retries (a redelivery, a replay, a
//   job's next attempt): its handlers run, told `superseded` when a newer event of its scope was
//   accepted meanwhile. A stale one is recorded as stale by the store, and so are its retries.
// - An `event_time` more than `maxClockSkewMs` ahead of this clock is not judged and moves no
//   watermark; within it, the store moves the watermark only to the present.
// - A delivery waits on nothing past its deadline: a claim that lands later is released (it would
//   hold off the sender's retry), handlers still running at the deadline count as accepted.
// - A claim held by another delivery of this process is waited for (within the deadline): its
//   success makes this a duplicate, its failure hands the event over. Held by another process (which
//   may have died holding it), it is looked at again until the deadline, then unrecorded: never
//   `duplicate` for what may be lost.
// - A claim is completed after the handlers succeeded and released after they failed. A delivery's
//   settlement that the store refuses is tried again in the background (about 30 s), else the claim
//   would hold off the sender's retries for the rest of its lease; a job's completion is tried again
//   before the job ends, and a job's release not at all (its next attempt holds the same token).
// - Every failure on this side goes to 'error' (the handlers' logger first), never to the sender; a
//   store that keeps failing (an outage) is told once per interval (outage.ts), not per delivery.

import { FlashdutyError } from '../internal/flashduty-error.js';
import type { Deadline } from './deadline.js';
import type { Handlers } from './handlers.js';
import { OutageReport } from './outage.js';
import { handlerTimer } from './metrics.js';
import type { DeliveryKeys } from './payload.js';
import { settleAgain } from './settle-again.js';
import type { Claim, StateStore } from './stores/store.js';
import { CustomBodyEvent, type WebhookEvent } from './types.js';

/** What a handler is told besides the event. */
export interface HandlerContext {
  /**
   * A newer event of the same incident (or alert) was accepted after this one was judged fresh:
   * this run is a retry (after its handlers failed, or its process died) and the event is no longer
   * its incident's latest state. A handler that mirrors state may skip it; one that counts or
   * notifies should still act.
   */
  readonly superseded: boolean;
}

/** What became of an event. */
export type Fate =
  | { outcome: 'accepted' | 'duplicate' | 'stale' }
  /** `failed`: a handler threw; `unrecorded`: the event could not be recorded (try it again later). */
  | { outcome: 'failed' | 'unrecorded'; error: unknown };

/** How one event is run: a delivery (with its deadline) or a queue job (with its own token). */
export type Run = { deadline: Deadline; token?: undefined } | { deadline?: undefined; token: string };

/** The rules of the steps, from the receiver's options. */
export interface PipelineOptions {
  store: StateStore;
  handlers: Handlers;
  dedup: boolean;
  dropStale: boolean;
  leaseMs: number;
  maxClockSkewMs: number;
  /** Deliveries whose handlers run in this process at once; beyond, unrecorded. */
  maxInFlight: number;
}

// Shared fates, never changed (no caller but the receiver and the worker gets to hold one).
const ACCEPTED: Fate = { outcome: 'accepted' };
const DUPLICATE: Fate = { outcome: 'duplicate' };
const STALE: Fate = { outcome: 'stale' };
// Given to handlers: frozen, so that one handler cannot change what the next is told.
const FRESH: HandlerContext = Object.freeze({ superseded: false });
const SUPERSEDED: HandlerContext = Object.freeze({ superseded: true });
/** Not claimed, as without dedup: fresh, with no claim to settle. */
const UNCLAIMED = { status: 'claimed', token: undefined, superseded: false } as const;
type Unclaimed = typeof UNCLAIMED;

/** How often a delivery looks again at a claim another process holds. */
const CLAIM_POLL_MS = 25;

export class Pipeline {
  readonly #store: StateStore;
  readonly #handlers: Handlers;
  readonly #options: PipelineOptions;
  /** Deliveries whose handlers run in this process, so that a concurrent duplicate waits for their fate. */
  readonly #inFlight = new Map<string, Promise<Fate>>();
  /** The store's failures, told once per interval while they keep coming. */
  readonly #storeFailures: OutageReport;

  constructor(options: PipelineOptions) {
    this.#store = options.store;
    this.#handlers = options.handlers;
    this.#options = options;
    this.#storeFailures = new OutageReport('the state store', (error, event) =>
      this.#handlers.emit('error', error, event),
    );
  }

  /** The event's fate, from its claim to its settled claim. Never rejects. */
  async run(event: WebhookEvent, keys: DeliveryKeys, run: Run): Promise<Fate> {
    const { deadline } = run;
    if (deadline && this.#inFlight.size >= this.#options.maxInFlight)
      return unrecorded(`maxInFlight (${this.#options.maxInFlight}) deliveries in flight already`);
    const scope = this.#judgedScope(keys);
    for (;;) {
      let claim: Claim | Unclaimed;
      try {
        claim = await this.#claim(keys, scope, event, run);
      } catch (error) {
        return this.#storeFailed(error, event);
      }
      switch (claim.status) {
        case 'claimed':
          return this.#handle(event, keys, claim.token, claim.superseded ? SUPERSEDED : FRESH, run);
        case 'done':
          return this.#tell('duplicate', event);
        case 'stale':
          return this.#tell('stale', event);
        case 'pending': {
          // A job does not wait: its next attempt comes.
          if (!deadline) return unrecorded(`event ${keys.eventId} is held by another process`);
          const holder = this.#inFlight.get(keys.eventId);
          if (holder) {
            // Held here: its success (or its running past our deadline) makes this a duplicate; its
            // failure released the claim, so claim it again.
            const fate = await deadline.byDeadline(holder, undefined);
            if (!fate || fate.outcome === 'accepted') return this.#tell('duplicate', event);
            continue;
          }
          // Held by another process, which may have died holding it: looked at again until the deadline.
          const slept = await deadline.byDeadline(sleep(CLAIM_POLL_MS), PASSED);
          if (slept === PASSED) return unrecorded(`event ${keys.eventId} is held by another process`);
        }
      }
    }
  }

  /**
   * The store's claim; a delivery's, by its deadline (a claim landing later is released). Without
   * dedup nothing is claimed: the event is only judged (each delivery its own).
   */
  async #claim(
    keys: DeliveryKeys,
    scope: string | undefined,
    event: WebhookEvent,
    run: Run,
  ): Promise<Claim | Unclaimed> {
    const store = this.#store;
    if (!this.#options.dedup) {
      if (scope === undefined) return UNCLAIMED;
      const fresh = Promise.resolve(store.advance(scope, keys.eventTime, Date.now()));
      return (await (run.deadline ? run.deadline.race(fresh, 'the state store') : fresh)) ? UNCLAIMED : STALE_CLAIM;
    }
    const claiming = Promise.resolve(
      store.claim({
        eventId: keys.eventId,
        leaseMs: this.#options.leaseMs,
        token: run.token,
        scope,
        eventTime: keys.eventTime,
        now: Date.now(),
      }),
    );
    if (!run.deadline) return claiming;
    try {
      return await run.deadline.race(claiming, 'the state store');
    } catch (error) {
      // Released once it lands: a claim held by nobody would hold off the sender's retry.
      claiming.then(
        (late) => {
          if (late.status === 'claimed') void this.#settle('release', keys.eventId, late.token, event, 'background');
        },
        () => {},
      );
      throw error;
    }
  }

  /**
   * Runs the handlers, then settles the claim (with its `token`). A delivery waits for them until
   * its deadline (still running then: accepted), and a concurrent duplicate waits on them meanwhile;
   * a job waits until they are done.
   */
  #handle(
    event: WebhookEvent,
    keys: DeliveryKeys,
    token: string | undefined,
    context: HandlerContext,
    run: Run,
  ): Promise<Fate> {
    const running = this.#runHandlers(event, keys, token, context, run);
    if (!run.deadline) return running;
    this.#inFlight.set(keys.eventId, running);
    void running.finally(() => {
      if (this.#inFlight.get(keys.eventId) === running) this.#inFlight.delete(keys.eventId);
    });
    return run.deadline.byDeadline(running, ACCEPTED);
  }

  async #runHandlers(
    event: WebhookEvent,
    keys: DeliveryKeys,
    token: string | undefined,
    context: HandlerContext,
    run: Run,
  ): Promise<Fate> {
    // A custom body is not the default payload that typed handlers expect: 'event' handlers only.
    const name = event instanceof CustomBodyEvent ? 'event' : keys.eventType;
    const timer = handlerTimer(keys.eventType);
    let fate: Fate = ACCEPTED;
    try {
      await this.#handlers.call(name, event, context);
    } catch (error) {
      fate = { outcome: 'failed', error };
    }
    // A handler may reject with anything, `undefined` included: the fate says it failed, not the value.
    const failure = fate.outcome === 'failed' ? { error: fate.error } : undefined;
    timer?.(failure);
    if (failure) this.#handlers.emit('error', failure.error, event);
    if (token === undefined) return fate;
    if (run.deadline) {
      await this.#settle(failure ? 'release' : 'complete', keys.eventId, token, event, 'background');
      return fate;
    }
    if (failure) {
      await this.#settle('release', keys.eventId, token, event, 'once');
      return fate;
    }
    // The handlers succeeded: until the store says so, a re-run of this job would run them again.
    try {
      await this.#settle('complete', keys.eventId, token, event, 'awaited');
      return fate;
    } catch (error) {
      return { outcome: 'unrecorded', error };
    }
  }

  /**
   * Completes or releases a claim. A store failure is told to 'error', and tried again
   * (settle-again.ts): in the `background` for a delivery, whose claim would otherwise hold the
   * event for the rest of its lease with the sender's retries refused meanwhile; `awaited`
   * (rejecting with the last failure) for a job's completion; not at all (`once`) for a job's
   * release, as the job's next attempt holds the same token and a release landing during it would
   * free its event.
   */
  async #settle(
    how: 'complete' | 'release',
    eventId: string,
    token: string,
    event: WebhookEvent,
    retries: 'background' | 'awaited' | 'once',
  ): Promise<void> {
    const settle = async () => this.#store[how](eventId, token);
    const told = (error: unknown) => this.#storeFailures.failed(error, event);
    try {
      await settle();
    } catch (error) {
      told(error);
      if (retries === 'once') return;
      const again = settleAgain(settle, told, retries === 'background');
      if (retries === 'awaited') return again;
      again.catch(() => {});
    }
  }

  /** A duplicate or stale event, told to its listeners. */
  #tell(outcome: 'duplicate' | 'stale', event: WebhookEvent): Fate {
    this.#handlers.emit(outcome, event);
    return outcome === 'stale' ? STALE : DUPLICATE;
  }

  /** The store failed: the event is not recorded. */
  #storeFailed(error: unknown, event: WebhookEvent): Fate {
    this.#storeFailures.failed(error, event);
    return { outcome: 'unrecorded', error };
  }

  /** The scope whose watermark judges the event; none when stale events are kept, it has none, or it is dated too far ahead. */
  #judgedScope(keys: DeliveryKeys): string | undefined {
    if (!this.#options.dropStale) return undefined;
    return keys.eventTime > Date.now() + this.#options.maxClockSkewMs ? undefined : keys.scope;
  }
}

const STALE_CLAIM: Claim = { status: 'stale' };

/** What a wait raced against the deadline gives when the deadline came first. */
const PASSED = Symbol('the deadline passed');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Not recorded, for a reason of this side that is no failure of the store's. */
function unrecorded(reason: string): Fate {
  return { outcome: 'unrecorded', error: new FlashdutyError(reason) };
}
