// The ack deadline of one delivery. The sender waits 2 s and never retries a late answer, so every
// wait on something outside the receiver (the body, the store, the queue, the handlers) is raced
// against one deadline, and an answer leaves by then.
//
// One timer serves every delivery: it looks at the deadlines being waited on every SWEEP_MS while
// there are any, and expires those that pass before it looks again: an answer leaves by the
// deadline, at most SWEEP_MS before it on an idle loop. A delivery costs an entry in a list, not a
// setTimeout and a clearTimeout of its own (that pair is a measurable share of a delivery's CPU:
// docs/performance.md). The timer is not cleared when the last delivery is answered (under load that
// happens between most deliveries): it looks once more, finds nothing and stops.
//
// A loop kept busy (a flood of deliveries) runs the timer late, and every deadline due meanwhile
// with it. So each sweep notes how late it ran, and expires earlier by that much (`lead`: a quarter
// of the deadline's time at most): under load an answer leaves a little early rather than late.
// Those it expires early it expires after the I/O and timers already due (`soon`): a handler or a
// store that finished while the loop was busy is heard before its delivery is given up on (not a
// timer that came due while another timer's callback stalled the loop: Node's clock stands still
// through its timers phase, and such a timer runs in the next turn, after them). A lateness
// beyond MAX_LEAD_MS is a stall, a lost timer or a clock step, not a busy loop: it says nothing of
// the next sweep and is not taken as a lead.
//
// The clock is Date's, the one fake timers fake along with setTimeout: a step of the wall clock
// moves the deadlines in progress with it.
//
// Where a runtime cancels a request's timers with it (Cloudflare Workers), each deadline keeps a
// timer of its own instead (SHARED_TIMER).

import { FlashdutyError } from '../internal/flashduty-error.js';

/** A wait that did not finish by the delivery's deadline. */
export class DeadlineExceededError extends FlashdutyError {
  constructor(what: string, ms: number) {
    super(`${what} did not finish within the ack deadline (${ms} ms)`);
  }
}
DeadlineExceededError.prototype.name = 'DeadlineExceededError';

/** How often the watched deadlines are looked at. */
const SWEEP_MS = 5;
/** The most lateness taken for a busy loop's: beyond, a stall, a lost timer or a clock step. */
const MAX_LEAD_MS = 250;
/**
 * The deadlines something waits on, of every delivery in progress, and of some answered since the
 * last sweep: a deadline leaves when a sweep finds it expired or disposed. An array the sweep
 * compacts, not a Set: cheaper per delivery.
 */
const watched: Deadline[] = [];
/** When the sweep to come is due (`Date.now()`); -Infinity while none is. */
let sweepDue = -Infinity;
/**
 * The `setTimeout` that set the sweep to come: a test that left fake timers for real ones dropped
 * that sweep with the fake clock, and the next wait starts another.
 */
let sweptWith: typeof setTimeout | undefined;
/** How late the next sweep is likely to run, in ms: how late the recent ones ran (halved each sweep). */
let lead = 0;
/**
 * Whether a timer outlives the request that set it. Not in Cloudflare Workers: there a request's
 * timers are cancelled once it is answered, so a shared timer would go with whichever delivery set
 * it.
 */
const SHARED_TIMER =
  (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent !== 'Cloudflare-Workers';
/** Runs `run` after the I/O and timers already due (setImmediate where there is one). */
const soon: (run: () => void) => unknown =
  (globalThis as { setImmediate?: (run: () => void) => unknown }).setImmediate ?? ((run) => setTimeout(run, 0));

/**
 * One delivery's deadline: `race()` or `byDeadline()` each wait against it, `dispose()` once the
 * delivery is answered. A delivery's steps wait one at a time, so a deadline holds one wait: the
 * last one started (a wait started while another is open would leave that one to wait on its own).
 * The one nesting (pipeline.ts: a wait for handlers, inside it a wait for the store's settlement of
 * their claim) is sound for that reason: the outer wait's promise ends with the inner one.
 */
export class Deadline {
  #at: number;
  /** What ends the wait when the deadline passes: its promise's reject (race) or resolve (byDeadline). */
  #end: ((value: unknown) => void) | undefined;
  /** What the wait is on, for the error of a race; `undefined` for a byDeadline, which ends with `#atDeadline`. */
  #what: string | undefined;
  #atDeadline: unknown;
  /** Passed, or disposed: nothing waits on it any more. */
  #expired = false;
  #watched = false;
  /** Its own timer, where timers are not shared (SHARED_TIMER). */
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(public ms: number) {
    this.#at = Date.now() + ms;
  }

  /** Brings the deadline forward to `ms` after its start (never later), e.g. for a sender that waits less. */
  tighten(ms: number): void {
    if (ms >= this.ms) return;
    this.#at -= this.ms - ms;
    this.ms = ms;
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#watch();
  }

  /** Passed (and its wait ended), or disposed: a wait started now ends at once. */
  get expired(): boolean {
    return this.#expired;
  }

  /** Milliseconds left (0 once passed). */
  get remaining(): number {
    return this.#expired ? 0 : Math.max(0, this.#at - Date.now());
  }

  /**
   * What `promise` resolves to, or a `DeadlineExceededError` naming `what` if the deadline comes
   * first. A late rejection of `promise` is handled here (the caller has moved on), so it never
   * becomes an unhandled rejection.
   */
  race<T>(promise: PromiseLike<T>, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      promise.then(resolve, reject);
      this.#wait(reject, what, undefined);
    });
  }

  /**
   * Ends a wait of the caller's own making (a promise it settles itself, as a body's read) with a
   * `DeadlineExceededError` naming `what` if the deadline comes first: what `race` does, without a
   * promise of its own around the wait.
   */
  bound(end: (error: DeadlineExceededError) => void, what: string): void {
    this.#wait(end as (value: unknown) => void, what, undefined);
  }

  /** What `promise` resolves to if it does by the deadline, else `atDeadline` (the work goes on). */
  byDeadline<T, D>(promise: PromiseLike<T>, atDeadline: D): Promise<T | D> {
    return new Promise<T | D>((resolve, reject) => {
      promise.then(resolve, reject);
      this.#wait(resolve as (value: unknown) => void, undefined, atDeadline);
    });
  }

  /** Stops watching: the delivery is answered. */
  dispose(): void {
    this.#expired = true; // nothing waits on it any more: the sweep drops it
    clearTimeout(this.#timer);
    this.#end = undefined;
  }

  /** Ends a wait when the deadline passes (at once if it has), with its error or its value at the deadline. */
  #wait(end: (value: unknown) => void, what: string | undefined, atDeadline: unknown): void {
    this.#end = end;
    this.#what = what;
    this.#atDeadline = atDeadline;
    if (this.#expired) this.#expire();
    else this.#watch();
  }

  /**
   * Watches this deadline. When no sweep is due (none was, the one due is overdue by more than
   * SWEEP_MS: a timer the runtime dropped, or a loop too busy to run timers; or it was set by a
   * `setTimeout` replaced since), this wait sweeps now and sets the next.
   */
  #watch(): void {
    const now = Date.now();
    if (!SHARED_TIMER) {
      this.#timer ??= setTimeout(() => this.#expire(), this.#at - now);
      return;
    }
    if (!this.#watched) {
      this.#watched = true;
      watched.push(this);
    }
    if (Math.abs(now - sweepDue) > SWEEP_MS || sweptWith !== setTimeout) Deadline.#sweep(now);
  }

  #expire(): void {
    this.#expired = true;
    const end = this.#end;
    this.#end = undefined;
    // The error (and its stack trace) is made only here: for a race still waiting at the deadline.
    end?.(this.#what === undefined ? this.#atDeadline : new DeadlineExceededError(this.#what, this.ms));
  }

  /**
   * Expires the watched deadlines that passed, and soon after them those due before the next sweep
   * is likely to run; sweeps again in SWEEP_MS while some are left.
   */
  static #sweep(now = Date.now()): void {
    // A sweep later than MAX_LEAD_MS ran after a stall, a lost timer or a clock step, not on a busy
    // loop. The lead fades as sweeps run on time.
    const late = now - sweepDue;
    lead = sweepDue !== -Infinity && late > 0 && late <= MAX_LEAD_MS ? Math.max(late, lead / 2) : lead / 2;
    if (lead < 1) lead = 0;
    // Due again from now on, before any expiry runs: a deadline that an expiry gets watched joins
    // this sweep (appended to the list it walks) instead of starting a sweep of its own over it.
    const due = (sweepDue = now + SWEEP_MS);
    const early: Deadline[] = [];
    let kept = 0;
    for (const deadline of watched)
      if (!deadline.#expired)
        if (deadline.#at <= now) deadline.#expire();
        else {
          if (deadline.#dueBefore(now)) early.push(deadline);
          watched[kept++] = deadline;
        }
    watched.length = kept;
    if (early.length > 0)
      soon(() => {
        const later = Date.now();
        for (const deadline of early) if (!deadline.#expired && deadline.#dueBefore(later)) deadline.#expire();
      });
    if (kept === 0) {
      sweepDue = -Infinity;
      lead = 0;
    } else {
      sweptWith = setTimeout;
      setTimeout(() => due === sweepDue && Deadline.#sweep(), SWEEP_MS);
    }
  }

  /**
   * Whether it passes before the next sweep is likely to run: within the sweep's interval, and on a
   * busy loop the lead too (a quarter of its time at most).
   */
  #dueBefore(now: number): boolean {
    return this.#at - Math.min(SWEEP_MS + lead, this.ms / 4) <= now;
  }
}
