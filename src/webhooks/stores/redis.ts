// State shared by every replica through the user's own Redis client (ioredis or node-redis; the
// SDK depends on neither). Each operation is one Lua script, so claim, complete, release and the
// watermark are atomic across processes. Each script touches one key, except the claim, which takes
// the event's watermark too where both lie in one slot (not a Cluster, or a prefix with a hash tag).
// Scripts go by SHA-1 (EVALSHA), their body only when Redis replies NOSCRIPT.

import { positiveWhole } from '../../internal/options.js';
import {
  isClusterClient,
  LuaScript,
  oneSlot,
  type RedisClientLike,
  type RedisRun,
  redisRunner,
} from '../../internal/redis.js';
import { type Claim, type ClaimRequest, claimToken, DONE, PENDING, STALE, type StateStore } from './store.js';

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

// An event's key holds `done`, `stale` (judged stale: its retries are told so too), `r` (released
// after its handlers failed: fresh when claimed again) or a claim, `p<verdict><lease end, Unix ms>:<token>`, whose verdict is `f` (judged fresh) or `u`
// (not judged yet: on a Cluster whose prefix has no hash tag, the watermark lies in another slot and
// is judged by a second script). Every state lives for the TTL, so a lapsed claim keeps its verdict.
// Lua functions the scripts are made of, so that every script reads a key the same way.
// claim: 'done', 'stale', 'pending' or 'claimed', and whether it was judged fresh before.
const CLAIM_FN = `
local function holder(v)
  return string.sub(v, string.find(v, ':', 3, true) + 1)
end
local function claim(key, token, now)
  local v = redis.call('GET', key)
  if v == 'done' or v == 'stale' then return v, 0 end
  if v == 'r' then return 'claimed', 1 end
  if not v then return 'claimed', 0 end
  local lapsed = tonumber(string.sub(v, 3, string.find(v, ':', 3, true) - 1)) <= tonumber(now)
  if not lapsed and holder(v) ~= token then return 'pending', 0 end
  if string.sub(v, 2, 2) == 'f' then return 'claimed', 1 end
  return 'claimed', 0
end`;
// advance: 0 when a later event was already accepted in the scope, else 1, and the watermark moves
// to the event's time, never past the receiver's clock (`now`).
const ADVANCE_FN = `
local function advance(key, time, now, ttlMs)
  local current = tonumber(redis.call('GET', key))
  if current and current > tonumber(time) then return 0 end
  local moved = time
  if tonumber(time) > tonumber(now) then moved = now end
  if current and current >= tonumber(moved) then
    redis.call('PEXPIRE', key, ttlMs)
  else
    redis.call('SET', key, moved, 'PX', ttlMs)
  end
  return 1
end`;

// KEYS[1] event key, KEYS[2] its scope's watermark (one slot on a Cluster; none: not judged here);
// ARGV: token, lease end, now, event time, ttl ms, `later` when the watermark is judged apart, and
// `1` when the claimant says an earlier claim judged it fresh (a job's next attempt).
// Returns { status, superseded, judged before }: a first claim judged stale is recorded as stale.
const CLAIM = /* @__PURE__ */ new LuaScript(
  CLAIM_FN,
  ADVANCE_FN,
  `
local status, judged = claim(KEYS[1], ARGV[1], ARGV[3])
if status ~= 'claimed' then return { status, 0, 0 } end
if ARGV[7] == '1' then judged = 1 end
local superseded = 0
if KEYS[2] then
  local fresh = advance(KEYS[2], ARGV[4], ARGV[3], ARGV[5])
  if fresh == 0 and judged == 0 then
    redis.call('SET', KEYS[1], 'stale', 'PX', ARGV[5])
    return { 'stale', 0, 0 }
  end
  superseded = 1 - fresh
end
local verdict = 'f'
if ARGV[6] == 'later' and judged == 0 then verdict = 'u' end
redis.call('SET', KEYS[1], 'p' .. verdict .. ARGV[2] .. ':' .. ARGV[1], 'PX', ARGV[5])
return { 'claimed', superseded, judged }`,
);

// KEYS[1] event key; ARGV: token, verdict (f fresh, s stale), ttl ms. The claim judged apart (a
// Cluster without a hash tag): kept fresh, or recorded stale.
const JUDGED = /* @__PURE__ */ new LuaScript(
  CLAIM_FN,
  `
local v = redis.call('GET', KEYS[1])
if not v or string.sub(v, 1, 2) ~= 'pu' or holder(v) ~= ARGV[1] then return 0 end
if ARGV[2] == 's' then return redis.call('SET', KEYS[1], 'stale', 'PX', ARGV[3]) end
return redis.call('SET', KEYS[1], 'pf' .. string.sub(v, 3), 'KEEPTTL')`,
);

// KEYS[1] watermark key; ARGV: event time ms, now, ttl ms.
const ADVANCE = /* @__PURE__ */ new LuaScript(
  ADVANCE_FN,
  `
return advance(KEYS[1], ARGV[1], ARGV[2], ARGV[3])`,
);

// KEYS[1] event key; ARGV: token, ttl ms. Completes unless another holder took over a lapsed lease.
const COMPLETE = /* @__PURE__ */ new LuaScript(
  CLAIM_FN,
  `
local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, 1) == 'p' and holder(v) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], 'done', 'PX', ARGV[2])
return 1`,
);

// KEYS[1] event key; ARGV: token, ttl ms. Only the holder of the claim can release it; a claim
// judged fresh is kept as released (fresh when claimed again), one not judged yet is deleted.
const RELEASE = /* @__PURE__ */ new LuaScript(
  CLAIM_FN,
  `
local v = redis.call('GET', KEYS[1])
if not v or string.sub(v, 1, 1) ~= 'p' or holder(v) ~= ARGV[1] then return 0 end
if string.sub(v, 2, 2) == 'f' then return redis.call('SET', KEYS[1], 'r', 'PX', ARGV[2]) end
return redis.call('DEL', KEYS[1])`,
);

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

  /**
   * One script where the event's key and its watermark lie in one slot; else (a Cluster without a
   * hash tag in the prefix) the claim, then the watermark, then the verdict, one script each.
   */
  async claim({
    eventId,
    leaseMs,
    token = claimToken(),
    scope,
    eventTime,
    now,
    judgedFresh,
  }: ClaimRequest): Promise<Claim> {
    const key = this.#key(eventId);
    const args = [
      token,
      String(now + Math.max(1, Math.ceil(leaseMs))),
      String(now),
      String(eventTime),
      String(this.ttlMs),
    ];
    const apart = scope !== undefined && !this.#oneSlot;
    const keys = scope === undefined || apart ? [key] : [key, this.keyPrefix + scope];
    args.push(apart ? 'later' : '', judgedFresh === true ? '1' : '0');
    const [status, superseded, judged] = (await CLAIM.run(this.#run, keys, args)) as [unknown, unknown, unknown];
    if (status !== 'claimed') return status === 'done' ? DONE : status === 'stale' ? STALE : PENDING;
    if (!apart) return { status, token, superseded: Number(superseded) === 1 };
    try {
      const fresh = await this.advance(scope, eventTime, now);
      if (Number(judged) === 1) return { status, token, superseded: !fresh };
      await JUDGED.run(this.#run, [key], [token, fresh ? 'f' : 's', String(this.ttlMs)]);
      return fresh ? { status, token, superseded: false } : STALE;
    } catch (error) {
      // Claimed but not judged: let the claim go (it would hold off the sender's retry for its lease).
      await this.release(eventId, token).catch(() => {});
      throw error;
    }
  }

  async complete(eventId: string, token: string): Promise<void> {
    await COMPLETE.run(this.#run, [this.#key(eventId)], [token, String(this.ttlMs)]);
  }

  async release(eventId: string, token: string): Promise<void> {
    await RELEASE.run(this.#run, [this.#key(eventId)], [token, String(this.ttlMs)]);
  }

  async advance(scope: string, eventTime: number, now: number): Promise<boolean> {
    const reply = await ADVANCE.run(
      this.#run,
      [this.keyPrefix + scope],
      [String(eventTime), String(now), String(this.ttlMs)],
    );
    return Number(reply) === 1;
  }

  #key(eventId: string): string {
    return `${this.keyPrefix}event:${eventId}`;
  }
}
