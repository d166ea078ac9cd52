// An accepted event's whole fate, in one place, for a delivery and a queue job alike:
//   claim (judged fresh or stale once; the verdict kept with the claim) → handlers → claim settled
// ending in one outcome: accepted, duplicate, stale, rejected (a handler failed) or unrecorded (the
// store failed or was too slow, or another process holds the event). The receiver maps outcomes to
// HTTP answers (receiver.ts), the queue mode to a job's result (jobs.ts).
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
//   settle that the store refuses is tried again in the background (about 30 s), else the claim
//   would hold off the sender's retries for the rest of its lease; a job's completion is tried again
//   before the job ends, and a job's release not at all (its next attempt holds the same token).
// - Every failure on this side goes to 'error' (the handlers' logger first), never to the sender.

import { FlashdutyError } from '../internal/flashduty-error.js';
import { loader } from '../internal/lazy.js';
import { andThen, attempt, isThenable, type MaybePromise, NOTHING } from '../internal/maybe.js';
import type { Deadline } from './deadline.js';
import type { Handlers } from './handlers.js';
import type { DeliveryKeys } from './kinds.js';
import { handlerTimer } from './metrics.js';
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
  /** `rejected`: a handler failed; `unrecorded`: the event could not be recorded (try it again later). */
  | { outcome: 'rejected' | 'unrecorded'; error: unknown };

/** How one event is being run: a delivery (with its deadline) or a queue job (with its own token). */
export interface Run {
  /** A delivery's ack deadline: nothing is waited for past it. */
  deadline?: Deadline | undefined;
  /** A job's id: its claim, taken again by the job's next attempt. */
  token?: string | undefined;
}

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

// Shared answers, never changed (internal: no caller gets to hold one but the receiver).
const ACCEPTED: Fate = { outcome: 'accepted' };
const DUPLICATE: Fate = { outcome: 'duplicate' };
const STALE: Fate = { outcome: 'stale' };
// Given to handlers: frozen, so that one handler cannot change what the next is told.
const FRESH: HandlerContext = Object.freeze({ superseded: false });
const SUPERSEDED: HandlerContext = Object.freeze({ superseded: true });
/** Not claimed, as without dedup: fresh, with no claim to settle. */
const UNCLAIMED = { status: 'claimed', token: undefined, superseded: false } as const;
const STALE_CLAIM: Claim = { status: 'stale' };
type Unclaimed = typeof UNCLAIMED;

/** How often a delivery looks again at a claim another process holds. */
const CLAIM_POLL_MS = 25;

export class Pipeline {
  readonly #store: StateStore;
  readonly #handlers: Handlers;
  readonly #options: PipelineOptions;
  /** Deliveries whose handlers run in this process, so that a concurrent duplicate waits for their fate. */
  readonly #inFlight = new Map<string, Promise<Fate>>();

  constructor(options: PipelineOptions) {
    this.#store = options.store;
    this.#handlers = options.handlers;
    this.#options = options;
  }

  /** The event's fate, from its claim to its settled claim. Never throws. */
  process(event: WebhookEvent, keys: DeliveryKeys, run: Run): MaybePromise<Fate> {
    if (run.deadline && this.#inFlight.size >= this.#options.maxInFlight) {
      return unrecorded(`maxInFlight (${this.#options.maxInFlight}) deliveries in flight already`);
    }
    return this.#claimAndRun(event, keys, this.#judgedScope(keys), run);
  }

  /** The event's claim, and what it leads to. */
  #claimAndRun(event: WebhookEvent, keys: DeliveryKeys, scope: string | undefined, run: Run): MaybePromise<Fate> {
    return attempt(
      () => this.#claim(keys, scope, event, run),
      (claim) => this.#claimed(claim, event, keys, scope, run),
      (error) => this.#failed(error, event),
    );
  }

  /** What a claim leads to. */
  #claimed(
    claim: Claim | Unclaimed,
    event: WebhookEvent,
    keys: DeliveryKeys,
    scope: string | undefined,
    run: Run,
  ): MaybePromise<Fate> {
    switch (claim.status) {
      case 'claimed':
        return this.#handle(event, keys, claim.token, claim.superseded ? SUPERSEDED : FRESH, run);
      case 'done':
        return this.#tell('duplicate', event);
      case 'stale':
        return this.#tell('stale', event);
      case 'pending':
        return this.#waitForClaim(event, keys, scope, run);
    }
  }

  /**
   * A claim held by another delivery. Held here: its success (or its running past our deadline)
   * makes this a duplicate; its failure released the claim, so claim it again. Held by another
   * process: claim it again every CLAIM_POLL_MS until the deadline, then give up (unrecorded). A job
   * does not wait: it is unrecorded at once (its next attempt comes).
   */
  #waitForClaim(event: WebhookEvent, keys: DeliveryKeys, scope: string | undefined, run: Run): MaybePromise<Fate> {
    const { deadline } = run;
    const local = this.#inFlight.get(keys.eventId);
    if (!deadline || (!local && deadline.remaining <= CLAIM_POLL_MS)) {
      return unrecorded(`event ${keys.eventId} is held by another process`);
    }
    const waited = local
      ? deadline.settledBy(local, undefined)
      : new Promise<undefined>((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
    return waited.then((fate) =>
      local && (!fate || fate.outcome === 'accepted')
        ? this.#tell('duplicate', event)
        : this.#claimAndRun(event, keys, scope, run),
    );
  }

  /**
   * The store's claim; a delivery's, by its deadline (a claim landing later is released). Without
   * dedup nothing is claimed: the event is only judged (each delivery its own).
   */
  #claim(
    keys: DeliveryKeys,
    scope: string | undefined,
    event: WebhookEvent,
    run: Run,
  ): MaybePromise<Claim | Unclaimed> {
    const claiming: MaybePromise<Claim | Unclaimed> = !this.#options.dedup
      ? scope === undefined
        ? UNCLAIMED
        : andThen(this.#store.advance(scope, keys.eventTime, Date.now()), (fresh) => (fresh ? UNCLAIMED : STALE_CLAIM))
      : this.#store.claim({
          eventId: keys.eventId,
          leaseMs: this.#options.leaseMs,
          token: run.token,
          scope,
          eventTime: keys.eventTime,
          now: Date.now(),
        });
    const { deadline } = run;
    if (!deadline || !isThenable(claiming)) return claiming;
    return (deadline.race(claiming, 'the state store') as Promise<Claim | Unclaimed>).catch((error: unknown) => {
      claiming.then(
        (late) =>
          late.status === 'claimed' &&
          late.token !== undefined &&
          this.#settle('release', keys.eventId, late.token, event, 'background'),
        NOTHING,
      );
      throw error;
    });
  }

  /**
   * Runs the handlers, then settles the claim (with its `token`). A delivery waits for them until
   * its deadline (still running then: accepted); a job until they are done.
   */
  #handle(
    event: WebhookEvent,
    keys: DeliveryKeys,
    token: string | undefined,
    context: HandlerContext,
    run: Run,
  ): MaybePromise<Fate> {
    // A custom body is not the default payload that typed handlers expect: 'event' handlers only.
    const name = event instanceof CustomBodyEvent ? 'event' : keys.eventType;
    const timer = handlerTimer(keys.eventType);
    const running = attempt(
      () => this.#handlers.call(name, event, context),
      () => this.#finish(ACCEPTED, event, keys.eventId, token, run, timer),
      (error) => this.#finish({ outcome: 'rejected', error }, event, keys.eventId, token, run, timer),
    );
    if (!isThenable(running) || !run.deadline) return running;
    this.#inFlight.set(keys.eventId, running);
    const forget = () => {
      if (this.#inFlight.get(keys.eventId) === running) this.#inFlight.delete(keys.eventId);
    };
    running.then(forget, forget); // a rejection (a meter that threw) is the answer's, below: not unhandled here
    return run.deadline.settledBy(running, ACCEPTED);
  }

  #finish(
    fate: Fate,
    event: WebhookEvent,
    eventId: string,
    token: string | undefined,
    run: Run,
    timer: ((error?: unknown) => void) | undefined,
  ): MaybePromise<Fate> {
    const failed = fate.outcome === 'rejected';
    timer?.(failed ? fate.error : undefined);
    if (failed) this.#handlers.emit('error', fate.error, event);
    if (token === undefined) return fate;
    const how = failed ? 'release' : 'complete';
    if (run.deadline) return andThen(this.#settle(how, eventId, token, event, 'background'), () => fate);
    if (failed) return andThen(this.#settle(how, eventId, token, event, 'once'), () => fate);
    // The handlers succeeded: until the store says so, a re-run of this job would run them again.
    return Promise.resolve(this.#settle(how, eventId, token, event, 'awaited')).then(
      () => fate,
      (error: unknown) => ({ outcome: 'unrecorded', error }) as const,
    );
  }

  /**
   * Completes or releases a claim. A store failure is told to 'error', and tried again
   * (settle-again.ts): in the `background` for a delivery, whose claim would otherwise hold the
   * event for the rest of its lease with the sender's retries refused meanwhile; `awaited` (rejecting
   * with the last failure) for a job's completion; not at all (`once`) for a job's release, as the
   * job's next attempt holds the same token and a release landing during it would free its event.
   */
  #settle(
    how: 'complete' | 'release',
    eventId: string,
    token: string,
    event: WebhookEvent,
    retries: 'background' | 'awaited' | 'once',
  ): MaybePromise<void> {
    const settle = () => this.#store[how](eventId, token);
    const told = (error: unknown) => this.#handlers.emit('error', error, event);
    return attempt(settle, NOTHING, (error) => {
      told(error);
      if (retries === 'once') return;
      const again = loadSettleAgain().then(({ settleAgain }) => settleAgain(settle, told, retries === 'background'));
      if (retries === 'awaited') return again;
      void again.catch(NOTHING);
    });
  }

  /** A duplicate or stale event, told to its listeners. */
  #tell(outcome: 'duplicate' | 'stale', event: WebhookEvent): Fate {
    this.#handlers.emit(outcome, event);
    return outcome === 'stale' ? STALE : DUPLICATE;
  }

  /** The store failed: the event is not recorded. */
  #failed(error: unknown, event: WebhookEvent): Fate {
    this.#handlers.emit('error', error, event);
    return { outcome: 'unrecorded', error };
  }

  /** The scope whose watermark judges the event; none when stale events are kept, it has none, or it is dated too far ahead. */
  #judgedScope(keys: DeliveryKeys): string | undefined {
    if (!this.#options.dropStale) return undefined;
    return keys.eventTime > Date.now() + this.#options.maxClockSkewMs ? undefined : keys.scope;
  }
}

/** Not recorded, for a reason of this side that is no failure of the store's. */
function unrecorded(reason: string): Fate {
  return { outcome: 'unrecorded', error: new FlashdutyError(reason) };
}

/** The retries of a settlement the store refused, loaded with the first. */
const loadSettleAgain = /* @__PURE__ */ loader(() => import('./settle-again.js'));
