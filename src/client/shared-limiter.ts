// The limiter's windows kept in Redis, so that every client on one Redis and key prefix, in any
// process, shares the account's budget. The rule is the in-process limiter's (rate-limiter.ts): a
// call holds a slot in every window from before it is sent until one window length after it
// finished. Each window is a sorted set of slots scored by when they free; one Lua script per
// acquire takes a slot in every window at once or says how long to wait, on Redis's clock (one clock
// for the whole fleet, whatever the hosts' clocks say). A client sends one acquire at a time, for the
// first of its waiting calls: the others wait in process, not in Redis.
//
// Every call also takes a slot of the client's in-process limiter (same limits), first. It almost
// never binds (this client's calls are a part of the fleet's), but it keeps count of what this client
// really sent, so that when Redis fails or does not answer within `redisTimeoutMs`, the in-process
// limiter stands in from the true state: the client then limits itself alone (a fleet may then
// draw 429s, retried as usual), a warning says so once, and Redis is asked again a second later.
// A slot whose call never reports back (its process died) frees at the call's timeout plus the
// window: no wait is longer than that, or than the call's signal allows.

import { APIUserAbortError } from '../core/api-errors.js';
import type { LogFn } from '../internal/logger.js';
import { uniqueToken } from '../internal/token.js';
import { LuaScript, oneSlot, type RedisRun } from '../internal/redis.js';
import type { Limiter, RateLimiter, RateLimitOptions } from './rate-limiter.js';

/** How long the in-process limiter stands in alone after Redis failed, before Redis is asked again. */
const RETRY_REDIS_MS = 1_000;
/** The windows' lengths in ms, as the scripts take them. */
const LENGTHS = ['1000', '60000'] as const;

const CLOCK = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function extend(key, ms)
  if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, ms) end
end`;

// KEYS: one sorted set per window. ARGV: slot id, lease (ms), then limit and length (ms) of each
// window. 0: the slot is taken in every window, scored while its call runs as if the call finished
// at the lease's end; else the ms to wait before asking again: until the earliest slot frees, at most
// a window's length (a slot of a running call frees no sooner than that).
const ACQUIRE = /* @__PURE__ */ new LuaScript(
  CLOCK,
  `
local lease = tonumber(ARGV[2])
local wait = 0
for i, key in ipairs(KEYS) do
  local limit, length = tonumber(ARGV[1 + 2 * i]), tonumber(ARGV[2 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= limit then
    local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    wait = math.max(wait, math.min(tonumber(first[2]) - now, length), 1)
  end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  local length = tonumber(ARGV[2 + 2 * i])
  redis.call('ZADD', key, now + lease + length, ARGV[1])
  extend(key, lease + length)
end
return 0`,
);

// KEYS: the windows. ARGV: slot id, then each window's length (ms). The call finished: its slot frees
// one window after now (it is added again if its lease ran out meanwhile: the call arrived by now).
const RELEASE = /* @__PURE__ */ new LuaScript(
  CLOCK,
  `
for i, key in ipairs(KEYS) do
  local length = tonumber(ARGV[1 + i])
  redis.call('ZADD', key, now + length, ARGV[1])
  extend(key, length)
end
return 1`,
);

/** The shared limiter's options, checked (checkRateLimit) and with the client adapted (limiters.ts). */
export interface SharedLimitOptions {
  run: RedisRun;
  keyPrefix: string;
  redisTimeoutMs: number;
}

interface Waiter {
  /** Settles with the Redis slot, or `undefined` when the in-process limiter stands in. */
  resolve: (slot: string | undefined) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  leaseMs: string;
  onAbort: () => void;
}

/** @internal The shared limiter: windows in Redis, the in-process limiter while Redis fails. Loaded on first use. */
export class SharedRateLimiter implements Limiter {
  readonly #options: SharedLimitOptions;
  readonly #local: RateLimiter;
  readonly #log: LogFn;
  readonly #keys: string[];
  /** Limit and length of each window, as ACQUIRE takes them. */
  readonly #windows: string[];
  readonly #queue: Waiter[] = [];
  #pumping = false;
  /** Ends the pump's wait for Redis's next slot early (every waiter left). */
  #wake: (() => void) | undefined;
  /** `performance.now()` before which Redis is not asked (it failed); 0 while it answers. */
  #retryAt = 0;

  constructor(options: SharedLimitOptions, local: RateLimiter, limits: RateLimitOptions, log: LogFn) {
    this.#options = options;
    this.#local = local;
    this.#log = log;
    // Both windows in one Cluster slot: the acquire script touches them together.
    const prefix = oneSlot(options.keyPrefix);
    this.#keys = [`${prefix}second`, `${prefix}minute`];
    this.#windows = [String(limits.perSecond ?? 50), LENGTHS[0], String(limits.perMinute ?? 1_000), LENGTHS[1]];
  }

  async acquire(signal?: AbortSignal, leaseMs = 30_000): Promise<() => void> {
    const releaseLocal = await this.#local.acquire(signal);
    let slot: string | undefined;
    try {
      slot = await this.#shared(signal, leaseMs);
    } catch (error) {
      releaseLocal();
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      releaseLocal();
      // A release that fails leaves the slot to its lease: held longer, never shorter.
      if (slot !== undefined) this.#release(slot);
    };
  }

  /** A slot in Redis's windows, or `undefined` when Redis failed and the in-process slot must do. */
  #shared(signal: AbortSignal | undefined, leaseMs: number): Promise<string | undefined> {
    if (signal?.aborted) return Promise.reject(new APIUserAbortError());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        leaseMs: String(Math.ceil(leaseMs)),
        onAbort: () => {
          const index = this.#queue.indexOf(waiter);
          if (index >= 0) this.#queue.splice(index, 1);
          if (this.#queue.length === 0) this.#wake?.(); // the pump's wait ends: nobody waits for a slot
          reject(new APIUserAbortError());
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#queue.push(waiter);
      void this.#pump();
    });
  }

  /** Asks Redis for the first waiter's slot, one acquire at a time, until no one waits. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#queue.length > 0) {
        const waiter = this.#queue[0] as Waiter;
        if (performance.now() < this.#retryAt) {
          this.#settle(waiter, undefined);
          continue;
        }
        const slot = uniqueToken();
        let wait: number;
        try {
          wait = Number(await this.#script(ACQUIRE, [slot, waiter.leaseMs, ...this.#windows]));
          if (!(wait >= 0)) throw new Error(`unexpected reply to the acquire script: ${String(wait)}`);
        } catch (error) {
          this.#failed(error);
          continue;
        }
        if (this.#retryAt !== 0) {
          this.#retryAt = 0;
          this.#log('warn', 'rateLimit: Redis answers again; the limit is shared again');
        }
        if (wait > 0) {
          if (this.#queue.length === 0) continue; // its waiter left while Redis answered
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, wait);
            this.#wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.#wake = undefined;
        } else if (this.#queue[0] === waiter) {
          this.#settle(waiter, slot);
        } else {
          this.#release(slot); // aborted while Redis answered: give the slot back as a finished call
        }
      }
    } finally {
      this.#pumping = false;
    }
  }

  /** Takes the first waiter off the queue and hands it its slot. */
  #settle(waiter: Waiter, slot: string | undefined): void {
    this.#queue.shift();
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
    waiter.resolve(slot);
  }

  #failed(error: unknown): void {
    if (this.#retryAt === 0) {
      const reason = error instanceof Error ? error.message : String(error);
      this.#log('warn', `rateLimit: Redis failed (${reason}); this client limits itself alone until Redis is back`);
    }
    this.#retryAt = performance.now() + RETRY_REDIS_MS;
  }

  #release(slot: string): void {
    this.#script(RELEASE, [slot, ...LENGTHS]).catch(() => undefined);
  }

  /** Runs a script on this client's windows, every command bounded by `redisTimeoutMs`. */
  #script(script: LuaScript, args: string[]): Promise<unknown> {
    return script.run((command) => this.#command(command), this.#keys, args);
  }

  /** One command, bounded by `redisTimeoutMs`: a client with an offline queue would wait for ever. */
  #command(args: string[]): Promise<unknown> {
    const { run, redisTimeoutMs } = this.#options;
    return new Promise((resolve, reject) => {
      const fail = (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      const timer = setTimeout(() => fail(new Error(`no answer within ${redisTimeoutMs} ms`)), redisTimeoutMs);
      try {
        run(args).then((reply) => {
          clearTimeout(timer);
          resolve(reply);
        }, fail);
      } catch (error) {
        fail(error); // a client that throws instead of rejecting
      }
    });
  }
}
