// The ack deadline of one delivery. The sender waits 2 s and never retries a late answer, so every
// wait on something outside the receiver (the body, the store, the queue, the handlers) is raced
// against one deadline. A value that is already there costs nothing: the timer is made only for the
// first real promise of the delivery, and shared by the waits after it.

import { FlashdutyError } from '../core/errors.js';

/** A wait that did not finish by the delivery's deadline. */
export class DeadlineExceededError extends FlashdutyError {
  constructor(what: string, ms: number) {
    super(`${what} did not finish within the ack deadline (${ms} ms)`);
    this.name = 'DeadlineExceededError';
  }
}

const EXPIRED: unique symbol = Symbol('expired');

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

/** One delivery's deadline: `race()` each wait against it, `dispose()` when the delivery is answered. */
export class Deadline {
  #at: number;
  #expiry: Promise<typeof EXPIRED> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #expire: ((value: typeof EXPIRED) => void) | undefined;

  constructor(public ms: number) {
    this.#at = Date.now() + ms;
  }

  /** Unix ms when it passes. */
  get at(): number {
    return this.#at;
  }

  /** Brings the deadline forward to `ms` after its start (never later), e.g. for a sender that waits less. */
  tighten(ms: number): void {
    if (ms >= this.ms) return;
    this.#at -= this.ms - ms;
    this.ms = ms;
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#arm();
  }

  /** Milliseconds left (0 once passed). */
  get remaining(): number {
    return Math.max(0, this.#at - Date.now());
  }

  /**
   * The value once it settles, or a `DeadlineExceededError` naming `what` if the deadline comes
   * first. A plain value is returned as it is. A late rejection of `value` is swallowed here (the
   * caller has moved on), so it never becomes an unhandled rejection.
   */
  race<T>(value: T | PromiseLike<T>, what: string): T | Promise<T> {
    return isThenable(value) ? this.#race(value, what) : value;
  }

  async #race<T>(value: PromiseLike<T>, what: string): Promise<T> {
    const outcome = await Promise.race([value, this.#expired()]);
    if (outcome === EXPIRED) {
      Promise.resolve(value).catch(() => {});
      throw new DeadlineExceededError(what, this.ms);
    }
    return outcome;
  }

  /** The value if it settles by the deadline, else `undefined` (it keeps running). */
  async settledBy<T>(promise: PromiseLike<T>): Promise<{ value: T } | undefined> {
    const outcome = await Promise.race([Promise.resolve(promise).then((value) => ({ value })), this.#expired()]);
    return outcome === EXPIRED ? undefined : outcome;
  }

  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }

  #arm(): void {
    // Whole tens of ms (rounded down: a few ms early, never late): node keeps one list per
    // distinct duration, so deliveries' timers share a few lists instead of one each.
    const ms = this.remaining;
    this.#timer = setTimeout(this.#expire as (value: typeof EXPIRED) => void, ms - (ms % 10), EXPIRED);
  }

  #expired(): Promise<typeof EXPIRED> {
    this.#expiry ??= new Promise((resolve) => {
      this.#expire = resolve;
      this.#arm();
    });
    return this.#expiry;
  }
}
