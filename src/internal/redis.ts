// The user's Redis client, ioredis or node-redis (the SDK depends on neither), seen as one function
// that sends a command and resolves to its reply. Shared by the webhooks' RedisStateStore and the
// client's shared rate limiter, so that both accept the same clients and refuse the rest alike.

import { ConfigError } from '../core/errors.js';

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
/** An ioredis or a node-redis client. */
export type RedisClientLike = IORedisLike | NodeRedisLike;

/** @internal Sends one command (`['EVALSHA', sha, ...]`) and resolves to its reply. */
export type RedisRun = (args: string[]) => Promise<unknown>;

/** @internal The client as a {@link RedisRun}; a ConfigError naming `owner` for anything else. */
export function redisRunner(client: unknown, owner: string): RedisRun {
  const candidate = client as Partial<IORedisLike & NodeRedisLike> | null | undefined;
  if (typeof candidate?.call === 'function') {
    const ioredis = candidate as IORedisLike;
    return ([command, ...args]) => ioredis.call(command as string, ...args);
  }
  if (typeof candidate?.sendCommand === 'function') {
    const nodeRedis = candidate as NodeRedisLike;
    return (args) => nodeRedis.sendCommand(args);
  }
  throw new ConfigError(`${owner} must be an ioredis or node-redis client`);
}
