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
import { native } from '../internal/guards.js';
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
export type Run =
  | { deadline: Deadline; token?: undefined; judgedFresh?: undefined }
  /** `judgedFresh`: an earlier attempt of the job ran its handlers (so its claim judged it fresh). */
  | { deadline?: undefined; token: string; judgedFresh?: boolean };

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

/** Records a run of an event's handlers (metrics.ts); none without a meter provider. */
type HandlerTimer = ReturnType<typeof handlerTimer>;

/**
 * How often a delivery looks again at a claim another process holds: a few dozen looks within the
 * deadline, so that a claim released there is taken within a store's round trip or two of it.
 */
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
        const claiming = this.#claim(keys, scope, event, run);
        claim = claiming instanceof Promise ? await claiming : claiming;
      } catch (error) {
        return this.#storeFailed(error, event);
      }
      // A store of the user's making may answer nothing at all (an async claim without its return).
      if (typeof claim !== 'object' || claim === null)
        return this.#storeFailed(new FlashdutyError('the state store answered a claim with nothing'), event);
      switch (claim.status) {
        case 'claimed': {
          const fate = this.#handle(event, keys, claim.token, claim.superseded ? SUPERSEDED : FRESH, run);
          return fate instanceof Promise ? await fate : fate;
        }
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
          continue;
        }
        default: {
          // A store of the user's making answered what no store may: a failure, not a loop that spins.
          const { status } = claim as { status: unknown };
          return this.#storeFailed(
            new FlashdutyError(`the state store answered a claim with status ${JSON.stringify(status)}`),
            event,
          );
        }
      }
    }
  }

  /**
   * The store's claim: at once where the store answers at once (the memory store); one still to
   * come is a delivery's by its deadline (landing later, it is released: a claim held by nobody
   * would hold off the sender's retry). Without dedup nothing is claimed: the event is only judged.
   */
  #claim(
    keys: DeliveryKeys,
    scope: string | undefined,
    event: WebhookEvent,
    run: Run,
  ): Claim | Unclaimed | Promise<Claim | Unclaimed> {
    if (!this.#options.dedup) return this.#judge(keys, scope, run);
    const claiming = native(
      this.#store.claim({
        eventId: keys.eventId,
        leaseMs: this.#options.leaseMs,
        token: run.token,
        judgedFresh: run.judgedFresh,
        scope,
        eventTime: keys.eventTime,
        now: Date.now(),
      }),
    );
    const { deadline } = run;
    if (!deadline || !(claiming instanceof Promise)) return claiming;
    return deadline.race(claiming, 'the state store').catch((error: unknown) => {
      claiming.then(
        (late) => {
          if (late.status === 'claimed') this.#releaseLate(keys.eventId, late.token, event, run);
        },
        () => {},
      );
      throw error;
    });
  }

  /** Without dedup: each delivery its own, only judged against its scope's watermark. */
  async #judge(keys: DeliveryKeys, scope: string | undefined, run: Run): Promise<Claim | Unclaimed> {
    if (scope === undefined) return UNCLAIMED;
    const fresh = native(this.#store.advance(scope, keys.eventTime, Date.now()));
    const judged =
      run.deadline && fresh instanceof Promise ? await run.deadline.race(fresh, 'the state store') : await fresh;
    return judged ? UNCLAIMED : STALE_CLAIM;
  }

  /**
   * Runs the handlers, then settles the claim (with its `token`). Handlers that returned no promise
   * (one synchronous handler: several always give one, Handlers.call) are done, and the claim is
   * settled at once. Ones still running are waited for until the
   * deadline (a delivery: still running then, accepted), a concurrent duplicate waiting on them
   * meanwhile, or until they are done (a job).
   */
  #handle(
    event: WebhookEvent,
    keys: DeliveryKeys,
    token: string | undefined,
    context: HandlerContext,
    run: Run,
  ): Fate | Promise<Fate> {
    // A custom body is not the default payload that typed handlers expect: 'event' handlers only.
    const name = event instanceof CustomBodyEvent ? 'event' : keys.eventType;
    const timer = handlerTimer(keys.eventType);
    let handled: unknown;
    try {
      handled = this.#handlers.call(name, event, context);
    } catch (error) {
      return this.#finish({ outcome: 'failed', error }, event, keys.eventId, token, run, timer);
    }
    if (!(handled instanceof Promise)) return this.#finish(ACCEPTED, event, keys.eventId, token, run, timer);
    const running = this.#finishWhenDone(handled, event, keys.eventId, token, run, timer);
    if (!run.deadline) return running;
    this.#inFlight.set(keys.eventId, running);
    const forget = () => {
      if (this.#inFlight.get(keys.eventId) === running) this.#inFlight.delete(keys.eventId);
    };
    running.then(forget, forget);
    // Still running at the deadline: accepted. Done before it, `running` ends by the deadline too
    // (#finish waits for the settlement by it, starting the deadline's last wait).
    return run.deadline.byDeadline(running, ACCEPTED);
  }

  /** Handlers that returned a promise: finished once it settles. */
  async #finishWhenDone(
    handled: Promise<unknown>,
    event: WebhookEvent,
    eventId: string,
    token: string | undefined,
    run: Run,
    timer: HandlerTimer,
  ): Promise<Fate> {
    let fate: Fate = ACCEPTED;
    try {
      await handled;
    } catch (error) {
      fate = { outcome: 'failed', error };
    }
    return this.#finish(fate, event, eventId, token, run, timer);
  }

  /**
   * The handlers' run recorded (a failure told to 'error'), and the claim settled: completed after
   * they succeeded, released after they failed. A store that settles at once (the memory store) gives
   * the fate at once.
   */
  #finish(
    fate: Fate,
    event: WebhookEvent,
    eventId: string,
    token: string | undefined,
    run: Run,
    timer: HandlerTimer,
  ): Fate | Promise<Fate> {
    // A handler may reject with anything, `undefined` included: the fate says it failed, not the value.
    const failure = fate.outcome === 'failed' ? { error: fate.error } : undefined;
    timer?.(failure);
    if (failure) this.#handlers.emit('error', failure.error, event);
    if (token === undefined) return fate;
    const how = failure ? 'release' : 'complete';
    const settling = this.#settle(how, eventId, token);
    if (!(settling instanceof Promise)) return fate;
    const settled = this.#settled(settling, how, fate, eventId, token, event, run);
    // A delivery still waiting knows its fate now: it waits for the store by its deadline, no longer,
    // and the settlement goes on. (Its handlers' wait, when they returned a promise, follows this one.)
    if (!run.deadline || run.deadline.expired) return settled;
    return run.deadline.byDeadline(settled, fate);
  }

  /** The store's completion or release of a claim: at once, or a promise (a failure at once as a rejection). */
  #settle(how: 'complete' | 'release', eventId: string, token: string): void | Promise<void> {
    try {
      return native(this.#store[how](eventId, token));
    } catch (error) {
      return rejection(error);
    }
  }

  /**
   * A settlement the store answers later. A failure is told to 'error', and the settlement tried
   * again (settle-again.ts): in the background for a delivery, whose claim would otherwise hold the
   * event for the rest of its lease with the sender's retries refused meanwhile; before the job ends
   * for a job's completion (until the store says so, a re-run of the job would run its handlers
   * again: unrecorded if it never does); not at all for a job's release, as the job's next attempt
   * holds the same token and a release landing during it would free its event.
   */
  async #settled(
    settling: Promise<void>,
    how: 'complete' | 'release',
    fate: Fate,
    eventId: string,
    token: string,
    event: WebhookEvent,
    run: Run,
  ): Promise<Fate> {
    try {
      await settling;
      return fate;
    } catch (error) {
      this.#storeFailures.failed(error, event);
      if (!run.deadline && how === 'release') return fate;
      const again = settleAgain(
        () => this.#store[how](eventId, token),
        (failure) => this.#storeFailures.failed(failure, event),
        run.deadline !== undefined,
      );
      if (run.deadline) {
        again.catch(() => {});
        return fate;
      }
      try {
        await again;
        return fate;
      } catch (last) {
        return { outcome: 'unrecorded', error: last };
      }
    }
  }

  /** A claim that landed after its delivery's deadline, released in the background (retried as a delivery's). */
  #releaseLate(eventId: string, token: string, event: WebhookEvent, run: Run): void {
    const settling = this.#settle('release', eventId, token);
    if (settling instanceof Promise) void this.#settled(settling, 'release', ACCEPTED, eventId, token, event, run);
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

/** A promise rejected with `error`. */
async function rejection(error: unknown): Promise<never> {
  throw error;
}

/** Not recorded, for a reason of this side that is no failure of the store's. */
function unrecorded(reason: string): Fate {
  return { outcome: 'unrecorded', error: new FlashdutyError(reason) };
}
