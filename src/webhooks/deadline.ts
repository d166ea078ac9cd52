// The ack deadline of one delivery. The sender waits 2 s and never retries a late answer, so every
// wait on something outside the receiver (the body, the store, the queue, the handlers) is raced
// against one deadline.
//
// Cheap because it runs on every delivery:
// - A value that is already there is returned as it is: no promise, no timer.
// - A deadline something waits on is watched by one timer shared by every delivery, which looks at
//   the watched deadlines every SWEEP_MS while there are any: a deadline passes at most SWEEP_MS
//   late, never early. A delivery costs an entry in a list (`watched`), not a setTimeout and a
//   clearTimeout of its own: that pair cost about a tenth of a delivery's CPU over HTTP
//   (docs/performance.md). The timer is not cleared when the last watched delivery is answered
//   (under load that happens between most deliveries, and clearing it to set it again is the cost
//   saved): it looks once more, finds nothing and stops. Where a runtime cancels a request's timers
//   with it (Cloudflare Workers), each deadline keeps a timer of its own instead (SHARED_TIMER).
// - A wait is one promise settled by whichever comes first, not a `Promise.race` of two; a wait on
//   work that reports through a callback (a body's last event) settles in that event, with no
//   promise between the work and what follows it (`within`).

import { FlashdutyError } from '../internal/flashduty-error.js';
import { isThenable } from '../internal/maybe.js';

/** A wait that did not finish by the delivery's deadline. */
export class DeadlineExceededError extends FlashdutyError {
  constructor(what: string, ms: number) {
    super(`${what} did not finish within the ack deadline (${ms} ms)`);
  }
}
DeadlineExceededError.prototype.name = 'DeadlineExceededError';

/** How often the watched deadlines are looked at: one passes at most this late. */
const SWEEP_MS = 10;
/**
 * The deadlines something waits on, of every delivery in progress, and of some answered since the
 * last sweep: a deadline leaves when a sweep finds it expired or disposed. An array the sweep
 * compacts, not a Set: a Set's add and delete per delivery cost about 8% of the throughput over
 * HTTP (measured).
 */
const watched: Deadline[] = [];
/**
 * When the sweep to come is due (`Date.now()`); -Infinity while none is. The clock is Date's, the
 * one fake timers fake along with setTimeout (a test that fakes those two but not `performance`
 * would see no deadline pass); a step of the wall clock moves the deadlines in progress with it.
 */
let sweepDue = -Infinity;
/**
 * Whether a timer outlives the request that set it. Not in Cloudflare Workers: there a request's
 * timers are cancelled once it is answered (in workerd, a timer set by a request answered at once
 * never fired while another request ran on), so a shared timer would go with whichever delivery set
 * it. There each deadline keeps a timer of its own.
 */
const SHARED_TIMER =
  (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent !== 'Cloudflare-Workers';

/** One delivery's deadline: `race()` each wait against it, `dispose()` when the delivery is answered. */
export class Deadline {
  #at: number;
  /**
   * What to do when it passes: one entry per wait. A wait that settled stays (a delivery makes a
   * few): its entry then settles a settled wait, which does nothing.
   */
  #onExpiry: Array<() => void> | undefined;
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

  /** Milliseconds left (0 once passed). */
  get remaining(): number {
    return Math.max(0, this.#at - Date.now());
  }

  /**
   * The value once it settles, or a `DeadlineExceededError` naming `what` if the deadline comes
   * first. A plain value is returned as it is. A late rejection of `value` is handled here (the
   * caller has moved on), so it never becomes an unhandled rejection.
   */
  race<T>(value: T | PromiseLike<T>, what: string): T | Promise<T> {
    if (!isThenable(value)) return value;
    return new Promise<T>((resolve, reject) => {
      this.#atExpiry(() => reject(new DeadlineExceededError(what, this.ms)));
      value.then(resolve, reject);
    });
  }

  /** The value if it settles by the deadline, else `atDeadline` (the work keeps running). */
  settledBy<T, D>(promise: PromiseLike<T>, atDeadline: D): Promise<T | D> {
    return new Promise((resolve, reject) => {
      this.#atExpiry(() => resolve(atDeadline));
      promise.then(resolve, reject);
    });
  }

  /**
   * Runs `start`, which calls `settle(run)` once its work is done; `settle` runs `run` there and then,
   * in the same event (for a body read from a stream, the whole delivery runs in the body's last
   * event, with no promise between). If the deadline comes first, or `start` throws before it
   * settled, `atDeadline(error)` runs instead, and a later `run` never does: work whose input came
   * after the deadline was seen to pass (SWEEP_MS late at most) never starts. What `run` throws goes
   * to `atDeadline` too, never to the stream's listener or the shared sweep; `atDeadline` must not
   * throw.
   */
  within(
    what: string,
    start: (settle: (run: () => unknown) => void) => void,
    atDeadline: (error: unknown) => void,
  ): void {
    let open = true;
    const settle = (run: () => unknown) => {
      if (!open) return;
      open = false;
      try {
        run();
      } catch (error) {
        atDeadline(error);
      }
    };
    this.#atExpiry(() => settle(() => atDeadline(new DeadlineExceededError(what, this.ms))));
    try {
      start(settle);
    } catch (error) {
      settle(() => atDeadline(error)); // a read that could not start (a locked stream)
    }
  }

  /** Stops watching: the delivery is answered. */
  dispose(): void {
    this.#expired = true; // nothing waits on it any more: the sweep drops it
    clearTimeout(this.#timer);
    this.#onExpiry = undefined;
  }

  /**
   * Watches this deadline. When no sweep is due (none was, or the one due is overdue by more than
   * SWEEP_MS: a timer the runtime dropped, or a loop too busy to run timers), this wait sweeps now
   * and sets the next: under a loop that keeps timers waiting, the deliveries that come still expire
   * what passed (an overdue timer that fires later finds itself superseded and does nothing).
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
    if (Math.abs(now - sweepDue) > SWEEP_MS) Deadline.#sweep(now);
  }

  #expire(): void {
    this.#expired = true;
    const waits = this.#onExpiry;
    this.#onExpiry = undefined;
    if (waits) for (const onExpiry of waits) onExpiry();
  }

  /** Expires the watched deadlines that passed; looks again in SWEEP_MS while some are left. */
  static #sweep(now = Date.now()): void {
    // Due again from now on, before any expiry runs: a deadline that an expiry gets watched joins
    // this sweep (appended to the list it walks) instead of starting a sweep of its own over it.
    const due = (sweepDue = now + SWEEP_MS);
    let kept = 0;
    for (const deadline of watched)
      if (!deadline.#expired)
        if (deadline.#at <= now) deadline.#expire();
        else watched[kept++] = deadline;
    watched.length = kept;
    if (kept === 0) sweepDue = -Infinity;
    else setTimeout(() => due === sweepDue && Deadline.#sweep(), SWEEP_MS);
  }

  /** Calls `onExpiry` when the deadline passes (at once if it has). */
  #atExpiry(onExpiry: () => void): void {
    if (this.#expired) return onExpiry();
    (this.#onExpiry ??= []).push(onExpiry);
    this.#watch();
  }
}
