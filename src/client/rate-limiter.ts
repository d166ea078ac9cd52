// Client-side limiter, built so the server never sees more than `limit` calls of this client in any
// window. A call takes a slot in every window before it is sent and gives the slot back one window
// length after it *finished*: its arrival at the server lies somewhere between the two, so counting
// it until then covers every window its arrival can fall into. (A token bucket refilled from the
// send time lets a burst of 50 slow calls plus 50 fresh ones land in one server-side second.)
// Times are read from the monotonic clock: a wall-clock step back (NTP, a VM resumed) would
// otherwise hold every slot until the wall clock caught up, past any call's timeout.

import { APIUserAbortError } from '../core/api-errors.js';
import type { RedisClientLike } from '../internal/redis.js';

/** Limits of the client-side limiter, and where its windows are kept. */
export interface RateLimitOptions {
  /** Calls per rolling second; default 50. */
  perSecond?: number;
  /** Calls per rolling minute; default 1000. */
  perMinute?: number;
  /**
   * An ioredis or node-redis client (connected): the windows are then kept in Redis and shared by
   * every client, in any process, that uses the same Redis and `keyPrefix`, so that a fleet on one
   * account stays within the account's limit. While Redis fails, each client limits itself alone.
   * Without it (the default), each client limits itself alone.
   */
  redis?: RedisClientLike;
  /** Prefix of the shared limiter's Redis keys: one prefix per account. Default `flashduty:ratelimit:`. */
  keyPrefix?: string;
  /** How long a Redis command of the shared limiter may take before the call is limited in process instead; default 500 ms. */
  redisTimeoutMs?: number;
}

/** @internal What the request loop needs of a limiter. */
export interface Limiter {
  /**
   * Waits for a slot; the returned function gives it back when the call ends. `leaseMs` (the call's
   * timeout) bounds how long a slot of a call that never reports back is held.
   */
  acquire(signal?: AbortSignal, leaseMs?: number): Promise<() => void>;
  /** A slot at once where one is free and no one waits for one, else `undefined` (then `acquire`). */
  tryAcquire?(signal?: AbortSignal): (() => void) | undefined;
}

interface Window {
  readonly limit: number;
  readonly lengthMs: number;
  used: number;
  /** Release times of finished calls, in increasing order (the length is constant). */
  readonly releases: number[];
  head: number;
}

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class RateLimiter implements Limiter {
  readonly #windows: Window[];
  readonly #waiters: Waiter[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

  constructor(options: RateLimitOptions = {}) {
    const spec: Array<[number, number]> = [
      [options.perSecond ?? 50, 1_000],
      [options.perMinute ?? 1_000, 60_000],
    ];
    // The limits were checked with the client's options (checkRateLimit in client-options.ts).
    this.#windows = spec.map(([limit, lengthMs]) => ({ limit, lengthMs, used: 0, releases: [], head: 0 }));
  }

  /** Waits for a slot in every window; the returned function gives the slots back when the call ends. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new APIUserAbortError());
    const free = this.tryAcquire();
    if (free) return Promise.resolve(free);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const index = this.#waiters.indexOf(waiter);
          if (index >= 0) this.#waiters.splice(index, 1);
          // The last one gone: no timer left to hold the process open for a slot nobody waits for.
          if (this.#waiters.length === 0 && this.#timer !== undefined) {
            clearTimeout(this.#timer);
            this.#timer = undefined;
            this.#timerAt = Infinity;
          }
          reject(new APIUserAbortError());
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#waiters.push(waiter);
      this.#schedule();
    });
  }

  /** A slot at once where one is free and no one waits for one; `undefined` otherwise (and once aborted). */
  tryAcquire(signal?: AbortSignal): (() => void) | undefined {
    if (signal?.aborted) return undefined;
    this.#expire(performance.now());
    return this.#waiters.length === 0 && this.#hasRoom() ? this.#take() : undefined;
  }

  /** Calls waiting for a slot. */
  get pending(): number {
    return this.#waiters.length;
  }

  #hasRoom(): boolean {
    return this.#windows.every((w) => w.used < w.limit);
  }

  #take(): () => void {
    for (const w of this.#windows) w.used++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = performance.now();
      for (const w of this.#windows) w.releases.push(now + w.lengthMs);
      this.#schedule();
    };
  }

  #expire(now: number): void {
    for (const w of this.#windows) {
      while (w.head < w.releases.length && (w.releases[w.head] as number) <= now) {
        w.head++;
        w.used--;
      }
      // Compact now and then so the array does not grow with the life of the client.
      if (w.head > 1024 && w.head * 2 > w.releases.length) {
        w.releases.splice(0, w.head);
        w.head = 0;
      }
    }
  }

  #drain(): void {
    this.#expire(performance.now());
    while (this.#waiters.length > 0 && this.#hasRoom()) {
      const waiter = this.#waiters.shift() as Waiter;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.#take());
    }
  }

  /** Arms one timer for the earliest pending release, only while someone waits for it. */
  #schedule(): void {
    this.#drain();
    if (this.#waiters.length === 0) return;
    let next = Infinity;
    for (const w of this.#windows) {
      if (w.used >= w.limit && w.head < w.releases.length) {
        next = Math.min(next, w.releases[w.head] as number);
      }
    }
    if (next === Infinity || next >= this.#timerAt) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = next;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = Infinity;
        this.#schedule();
      },
      Math.max(0, next - performance.now()),
    );
  }
}
