// The user's Redis client, ioredis or node-redis (the SDK depends on neither), seen as one function
// that sends a command and resolves to its reply; and the Lua scripts run through it. Shared by the
// webhooks' RedisStateStore and the client's shared rate limiter, so that both accept the same
// clients and refuse the rest alike, and send their scripts one way: by SHA-1 (EVALSHA), the body
// only when Redis does not hold it (NOSCRIPT: after a restart, a failover or SCRIPT FLUSH).

import { ConfigError } from './flashduty-error.js';

/** The parts of an ioredis client used here. */
export interface IORedisLike {
  /** ioredis's generic command method. */
  call(command: string, ...args: Array<string | number>): Promise<unknown>;
}
/** The parts of a node-redis (v4+) client used here. */
export interface NodeRedisLike {
  /** node-redis's generic command method. */
  sendCommand(args: string[]): Promise<unknown>;
}
/** The parts of a node-redis cluster (`createCluster()`) used here. */
export interface NodeRedisClusterLike {
  /** The cluster's generic command method, routed by the command's first key. */
  sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[]): Promise<unknown>;
  /** Present on a cluster only: how a cluster is told from a client. */
  nodeClient(node: never): Promise<unknown>;
}
/** An ioredis client or Cluster, or a node-redis client or cluster. */
export type RedisClientLike = IORedisLike | NodeRedisLike | NodeRedisClusterLike;

/** @internal Sends one command (`['EVALSHA', sha, ...]`) and resolves to its reply. */
export type RedisRun = (args: string[]) => Promise<unknown>;

/** @internal The client as a {@link RedisRun}; a ConfigError naming `owner` for anything else. */
export function redisRunner(client: unknown, owner: string): RedisRun {
  const candidate = client as Partial<IORedisLike & NodeRedisLike> | null | undefined;
  if (typeof candidate?.call === 'function') {
    const ioredis = candidate as IORedisLike;
    return ([command, ...args]) => ioredis.call(command as string, ...args);
  }
  if (
    typeof candidate?.sendCommand === 'function' &&
    typeof (candidate as Partial<NodeRedisClusterLike>).nodeClient === 'function'
  ) {
    // node-redis's cluster routes a command by the key it is given: a script's first key.
    const cluster = candidate as unknown as NodeRedisClusterLike;
    return (args) => cluster.sendCommand(scriptKey(args), false, args);
  }
  if (typeof candidate?.sendCommand === 'function') {
    const nodeRedis = candidate as NodeRedisLike;
    return (args) => nodeRedis.sendCommand(args);
  }
  throw new ConfigError(`${owner} must be an ioredis or node-redis client`);
}

/** @internal Whether the client is a Redis Cluster client (ioredis `Cluster`, node-redis `createCluster()`). */
export function isClusterClient(client: unknown): boolean {
  const candidate = client as { isCluster?: unknown; nodeClient?: unknown } | null | undefined;
  return candidate?.isCluster === true || typeof candidate?.nodeClient === 'function';
}

/** The first key of an EVAL or EVALSHA (`[command, script, numkeys, key…]`); none for other commands. */
function scriptKey(args: string[]): string | undefined {
  return /^EVAL(SHA)?$/i.test(args[0] ?? '') && Number(args[2]) > 0 ? args[3] : undefined;
}

/**
 * @internal `prefix` with a hash tag, so that every key made from it lies in one Cluster slot (a Lua
 * script may only touch keys of one slot): the prefix's own tag where it has one (`{team-a}:rl:`),
 * else the whole prefix as the tag (`{flashduty:ratelimit:}`).
 */
export function oneSlot(prefix: string): string {
  return /\{[^}]+\}/.test(prefix) ? prefix : `{${prefix}}`;
}

/**
 * @internal A Lua script, run by its SHA-1 and sent whole only when Redis answers NOSCRIPT. Its body
 * comes in parts (shared Lua functions, then the script's own lines) rather than as one template
 * literal: bundlers cannot tell that interpolating a variable is free of side effects, so a script
 * made at module level would stay in every bundle, even one that never uses it.
 */
export class LuaScript {
  readonly body: string;
  #sha: Promise<string | undefined> | undefined;

  constructor(...parts: readonly string[]) {
    this.body = parts.join('');
  }

  /** Runs the script on `keys` and `args` through `send`; resolves to its reply. */
  async run(send: RedisRun, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    const sha = await (this.#sha ??= sha1(this.body));
    const tail = [String(keys.length), ...keys, ...args];
    // Without WebCrypto (no SHA-1 at hand) the body goes every time.
    if (sha === undefined) return send(['EVAL', this.body, ...tail]);
    try {
      return await send(['EVALSHA', sha, ...tail]);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      // EVAL runs it and leaves it in Redis's script cache: the next call is an EVALSHA again.
      return send(['EVAL', this.body, ...tail]);
    }
  }
}

/** Redis's answer to EVALSHA for a script it does not hold (ioredis and node-redis both keep the text). */
function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/** The hex SHA-1 of a script, as EVALSHA names it; `undefined` without WebCrypto. */
async function sha1(text: string): Promise<string | undefined> {
  try {
    const digest = await globalThis.crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
    return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  } catch {
    return undefined;
  }
}
