// State shared by every replica through the user's own Redis client (ioredis or node-redis; the
// SDK depends on neither). Each operation is one Lua script on one key, so claim, complete, release
// and the watermark are atomic across processes (and each script's key is in one slot on a Cluster).
// Scripts go by SHA-1 (EVALSHA), their body only when Redis answers NOSCRIPT.

import { positiveWhole } from '../../internal/options.js';
import { LuaScript, type RedisClientLike, type RedisRun, redisRunner } from '../../internal/redis.js';
import { type Claim, claimToken, type StateStore } from './store.js';

export type { IORedisLike, NodeRedisClusterLike, NodeRedisLike, RedisClientLike } from '../../internal/redis.js';

/** Options of {@link RedisStateStore}. */
export interface RedisStateStoreOptions {
  /** An ioredis or node-redis client, connected. */
  client: RedisClientLike;
  /** Prefix of every key; default `flashduty:webhooks:`. */
  keyPrefix?: string;
  /** How long a processed id (and a watermark) is remembered, in ms. Default 24 h. */
  ttlMs?: number;
}

// KEYS[1] event key; ARGV: token, lease ms. Returns 'claimed', 'done' or 'pending'. A pending
// claim with the same token is taken again (a fresh token never matches one).
const CLAIM = new LuaScript(`
local v = redis.call('GET', KEYS[1])
if v == 'done' then return 'done' end
if v and v ~= 'p:' .. ARGV[1] then return 'pending' end
redis.call('SET', KEYS[1], 'p:' .. ARGV[1], 'PX', ARGV[2])
return 'claimed'`);

// KEYS[1] event key; ARGV: token, ttl ms. Completes unless another holder took over a lapsed lease.
const COMPLETE = new LuaScript(`
local v = redis.call('GET', KEYS[1])
if v and v ~= 'p:' .. ARGV[1] then return 0 end
redis.call('SET', KEYS[1], 'done', 'PX', ARGV[2])
return 1`);

// KEYS[1] event key; ARGV: token. Only the holder of the claim can release it.
const RELEASE = new LuaScript(`
if redis.call('GET', KEYS[1]) == 'p:' .. ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);

// KEYS[1] watermark key; ARGV: event time ms, ttl ms. 0 when a later event was already accepted.
const ADVANCE = new LuaScript(`
local current = tonumber(redis.call('GET', KEYS[1]))
local time = tonumber(ARGV[1])
if current and current > time then return 0 end
if current and current == time then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`);

/** Dedup and staleness state shared by every replica through Redis; each operation is one atomic Lua script. */
export class RedisStateStore implements StateStore {
  readonly keyPrefix: string;
  readonly ttlMs: number;
  readonly #run: RedisRun;

  constructor(options: RedisStateStoreOptions) {
    this.#run = redisRunner(options?.client, 'RedisStateStore: `client`');
    this.keyPrefix = options.keyPrefix ?? 'flashduty:webhooks:';
    this.ttlMs = positiveWhole(options.ttlMs ?? 86_400_000, 'ttlMs');
  }

  async claim(eventId: string, leaseMs: number, token = claimToken()): Promise<Claim> {
    const status = String(await this.#eval(CLAIM, `event:${eventId}`, token, String(Math.max(1, Math.ceil(leaseMs)))));
    if (status === 'claimed') return { status, token };
    return status === 'done' ? { status } : { status: 'pending' };
  }

  async complete(eventId: string, token: string): Promise<void> {
    await this.#eval(COMPLETE, `event:${eventId}`, token, String(this.ttlMs));
  }

  async release(eventId: string, token: string): Promise<void> {
    await this.#eval(RELEASE, `event:${eventId}`, token);
  }

  async advance(scope: string, eventTime: number): Promise<boolean> {
    return Number(await this.#eval(ADVANCE, scope, String(eventTime), String(this.ttlMs))) === 1;
  }

  #eval(script: LuaScript, key: string, ...args: string[]): Promise<unknown> {
    return script.run(this.#run, [this.keyPrefix + key], args);
  }
}
