// State shared by every replica through the user's own Redis client (ioredis or node-redis; the
// SDK depends on neither). Each operation is one Lua script, so claim, complete, release and the
// watermark are atomic across processes. Each script touches one key, except claimAndAdvance, which
// takes two only where they lie in one slot (not a Cluster, or a prefix with a hash tag).
// Scripts go by SHA-1 (EVALSHA), their body only when Redis answers NOSCRIPT.

import { positiveWhole } from '../../internal/options.js';
import {
  isClusterClient,
  LuaScript,
  oneSlot,
  type RedisClientLike,
  type RedisRun,
  redisRunner,
} from '../../internal/redis.js';
import { type Claim, type ClaimAndAdvance, claimToken, type StateStore } from './store.js';

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

// Lua functions the scripts are made of, so that one step made of two (claimAndAdvance) runs the
// same code as each alone.
// claim: 'claimed', 'done' or 'pending'. A pending claim with the same token is taken again (a
// fresh token never matches one).
const CLAIM_FN = `
local function claim(key, token, leaseMs)
  local v = redis.call('GET', key)
  if v == 'done' then return 'done' end
  if v and v ~= 'p:' .. token then return 'pending' end
  redis.call('SET', key, 'p:' .. token, 'PX', leaseMs)
  return 'claimed'
end`;
// advance: 0 when a later event was already accepted in the scope, else 1 (and the watermark moves).
const ADVANCE_FN = `
local function advance(key, time, ttlMs)
  local current = tonumber(redis.call('GET', key))
  if current and current > tonumber(time) then return 0 end
  if current and current == tonumber(time) then redis.call('PEXPIRE', key, ttlMs) return 1 end
  redis.call('SET', key, time, 'PX', ttlMs)
  return 1
end`;

// KEYS[1] event key; ARGV: token, lease ms.
const CLAIM = /* @__PURE__ */ new LuaScript(
  CLAIM_FN,
  `
return claim(KEYS[1], ARGV[1], ARGV[2])`,
);

// KEYS[1] watermark key; ARGV: event time ms, ttl ms.
const ADVANCE = /* @__PURE__ */ new LuaScript(
  ADVANCE_FN,
  `
return advance(KEYS[1], ARGV[1], ARGV[2])`,
);

// KEYS[1] event key, KEYS[2] watermark key (one slot on a Cluster); ARGV: token, lease ms, event
// time ms, ttl ms. Returns { claim, fresh }: the watermark moves only for a claimed event.
const CLAIM_AND_ADVANCE = /* @__PURE__ */ new LuaScript(
  CLAIM_FN,
  ADVANCE_FN,
  `
local status = claim(KEYS[1], ARGV[1], ARGV[2])
if status ~= 'claimed' then return { status, 0 } end
return { status, advance(KEYS[2], ARGV[3], ARGV[4]) }`,
);

// KEYS[1] event key; ARGV: token, ttl ms. Completes unless another holder took over a lapsed lease.
const COMPLETE = /* @__PURE__ */ new LuaScript(`
local v = redis.call('GET', KEYS[1])
if v and v ~= 'p:' .. ARGV[1] then return 0 end
redis.call('SET', KEYS[1], 'done', 'PX', ARGV[2])
return 1`);

// KEYS[1] event key; ARGV: token. Only the holder of the claim can release it.
const RELEASE = /* @__PURE__ */ new LuaScript(`
if redis.call('GET', KEYS[1]) == 'p:' .. ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);

/** Dedup and staleness state shared by every replica through Redis; each operation is one atomic Lua script. */
export class RedisStateStore implements StateStore {
  readonly keyPrefix: string;
  readonly ttlMs: number;
  readonly #run: RedisRun;
  /** Whether an event key and a watermark key may go to one script: always, but on a Cluster only with a hash tag in the prefix. */
  readonly #oneSlot: boolean;

  constructor(options: RedisStateStoreOptions) {
    this.#run = redisRunner(options?.client, 'RedisStateStore: `client`');
    this.keyPrefix = options.keyPrefix ?? 'flashduty:webhooks:';
    this.ttlMs = positiveWhole(options.ttlMs ?? 86_400_000, 'ttlMs');
    this.#oneSlot = !isClusterClient(options.client) || oneSlot(this.keyPrefix) === this.keyPrefix;
  }

  async claim(eventId: string, leaseMs: number, token = claimToken()): Promise<Claim> {
    return claimOf(await this.#eval(CLAIM, `event:${eventId}`, token, lease(leaseMs)), token);
  }

  /** One script where both keys lie in one slot; else the claim and the watermark side by side. */
  async claimAndAdvance(
    eventId: string,
    leaseMs: number,
    token = claimToken(),
    scope: string,
    eventTime: number,
  ): Promise<ClaimAndAdvance> {
    if (!this.#oneSlot) {
      const [claim, fresh] = await Promise.all([this.claim(eventId, leaseMs, token), this.advance(scope, eventTime)]);
      return { claim, fresh: claim.status === 'claimed' && fresh };
    }
    const keys = [this.keyPrefix + `event:${eventId}`, this.keyPrefix + scope];
    const args = [token, lease(leaseMs), String(eventTime), String(this.ttlMs)];
    const [status, fresh] = (await CLAIM_AND_ADVANCE.run(this.#run, keys, args)) as [unknown, unknown];
    return { claim: claimOf(status, token), fresh: Number(fresh) === 1 };
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

/** A lease in whole ms, at least 1 (PX refuses 0). */
const lease = (leaseMs: number) => String(Math.max(1, Math.ceil(leaseMs)));

/** A claim script's reply as a {@link Claim}. */
function claimOf(reply: unknown, token: string): Claim {
  const status = String(reply);
  if (status === 'claimed') return { status, token };
  return status === 'done' ? { status } : { status: 'pending' };
}
