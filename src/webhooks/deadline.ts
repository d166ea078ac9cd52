// The ack deadline of one delivery. The sender waits 2 s and never retries a late answer, so every
// wait on something outside the receiver (the body, the store, the queue, the handlers) is raced
// against one deadline.
//
// Cheap because it runs on every delivery:
// - A value that is already there is returned as it is: no promise, no timer.
// - A deadline is watched only once something waits on it, and deliveries due in the same 10 ms
//   share one timer (a bucket): a delivery costs a Set entry, not a timer of its own. Buckets are
//   rounded down, so a deadline fires a few ms early at most, never late.
// - A wait is one promise settled by whichever comes first, not a `Promise.race` of two.

import { FlashdutyError } from '../internal/errors.js';
import { isThenable } from '../internal/maybe.js';

/** A wait that did not finish by the delivery's deadline. */
export class DeadlineExceededError extends FlashdutyError {
  constructor(what: string, ms: number) {
    super(`${what} did not finish within the ack deadline (${ms} ms)`);
    this.name = 'DeadlineExceededError';
  }
}

const BUCKET_MS = 10;

/** Watched deadlines by the start of the 10 ms in which they pass; one timer per bucket. */
const buckets = new Map<number, Set<Deadline>>();

function fire(key: number): void {
  const due = buckets.get(key);
  buckets.delete(key);
  if (due) for (const deadline of due) deadline.expire();
}

function watch(deadline: Deadline, at: number): Set<Deadline> {
  const key = at - (at % BUCKET_MS);
  let bucket = buckets.get(key);
  if (bucket === undefined) {
    bucket = new Set();
    buckets.set(key, bucket);
    setTimeout(fire, Math.max(0, key - Date.now()), key);
  }
  bucket.add(deadline);
  return bucket;
}

const ignore = () => {};

/** One delivery's deadline: `race()` each wait against it, `dispose()` when the delivery is answered. */
export class Deadline {
  #at: number;
  /** The bucket it is watched in, once something waited on it. */
  #bucket: Set<Deadline> | undefined;
  /** What to do when it passes: one entry per wait in progress. */
  #onExpiry: Set<() => void> | undefined;
  #expired = false;

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
    if (this.#bucket === undefined) return;
    this.#bucket.delete(this);
    this.#bucket = watch(this, this.#at);
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

  /** The value if it settles by the deadline, else `undefined` (it keeps running). */
  settledBy<T>(promise: PromiseLike<T>): Promise<{ value: T } | undefined> {
    return new Promise((resolve, reject) =>
      this.#wait(
        promise,
        (value) => resolve({ value }),
        reject,
        () => resolve(undefined),
      ),
    );
  }

  /** Stops watching: the delivery is answered. */
  dispose(): void {
    this.#bucket?.delete(this);
    this.#bucket = undefined;
    this.#onExpiry = undefined;
  }

  /** @internal Called by its bucket's timer. */
  expire(): void {
    this.#expired = true;
    this.#bucket = undefined;
    const waits = this.#onExpiry;
    this.#onExpiry = undefined;
    if (waits) for (const onExpiry of waits) onExpiry();
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
    this.#bucket ??= watch(this, this.#at);
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
