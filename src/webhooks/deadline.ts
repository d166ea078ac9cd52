// The ack deadline of one delivery. The sender waits 2 s and never retries a late answer, so every
// wait on something outside the receiver (the body, the store, the queue, the handlers) is raced
// against one deadline.
//
// Cheap because it runs on every delivery:
// - A value that is already there is returned as it is: no promise, no timer.
// - A timer is set only once something waits on the deadline, and cleared when the delivery is
//   answered (`dispose`): a delivery answered at once costs none, and no timer outlives its delivery.
// - A wait is one promise settled by whichever comes first, not a `Promise.race` of two.

import { FlashdutyError } from '../internal/flashduty-error.js';
import { isThenable } from '../internal/maybe.js';

/** A wait that did not finish by the delivery's deadline. */
export class DeadlineExceededError extends FlashdutyError {
  constructor(what: string, ms: number) {
    super(`${what} did not finish within the ack deadline (${ms} ms)`);
  }
}
DeadlineExceededError.prototype.name = 'DeadlineExceededError';

const ignore = () => {};

/** One delivery's deadline: `race()` each wait against it, `dispose()` when the delivery is answered. */
export class Deadline {
  #at: number;
  /** Set once something waits on it. */
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** What to do when it passes: one entry per wait in progress. */
  #onExpiry: Set<() => void> | undefined;
  #expired = false;

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
    this.#arm();
  }

  /** Milliseconds left (0 once passed). */
  get remaining(): number {
    return this.#expired ? 0 : Math.max(0, this.#at - Date.now());
  }

  /**
   * The value once it settles, or a `DeadlineExceededError` naming `what` if the deadline comes
   * first. A plain value is returned as it is. A late rejection of `value` is swallowed here (the
   * caller has moved on), so it never becomes an unhandled rejection.
   */
  race<T>(value: T | PromiseLike<T>, what: string): T | Promise<T> {
    if (!isThenable(value)) return value;
    return new Promise<T>((resolve, reject) =>
      this.#wait(value, resolve, reject, () => {
        value.then(undefined, ignore);
        reject(new DeadlineExceededError(what, this.ms));
      }),
    );
  }

  /** The value if it settles by the deadline, else `atDeadline` (the work keeps running). */
  settledBy<T, D>(promise: PromiseLike<T>, atDeadline: D): Promise<T | D> {
    return new Promise((resolve, reject) => this.#wait(promise, resolve, reject, () => resolve(atDeadline)));
  }

  /** Stops watching: the delivery is answered. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#onExpiry = undefined;
  }

  #arm(): void {
    this.#timer = setTimeout(() => {
      this.#expired = true;
      const waits = this.#onExpiry;
      this.#onExpiry = undefined;
      if (waits) for (const onExpiry of waits) onExpiry();
    }, this.#at - Date.now());
  }

  /** Settles a wait by `value`, or by `onExpiry` if the deadline passes first. */
  #wait<T>(
    value: PromiseLike<T>,
    onValue: (value: T) => void,
    onError: (error: unknown) => void,
    onExpiry: () => void,
  ): void {
    if (this.#expired) return onExpiry();
    const waits = (this.#onExpiry ??= new Set());
    waits.add(onExpiry);
    if (this.#timer === undefined) this.#arm();
    value.then(
      (settled) => {
        waits.delete(onExpiry);
        onValue(settled);
      },
      (error: unknown) => {
        waits.delete(onExpiry);
        onError(error);
      },
    );
  }
}
