// The user's Redis client as one command function (src/internal/redis.ts): ioredis, node-redis and
// node-redis's cluster (routed by a script's first key), anything else refused; a key prefix in one
// Cluster slot; a Lua script sent by its SHA-1, whole only when Redis answers NOSCRIPT.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/index.js';
import { isClusterClient, LuaScript, oneSlot, redisRunner } from '../../../src/internal/redis.js';

describe('redisRunner', () => {
  it('sends through ioredis, node-redis and a node-redis cluster, by their own methods', async () => {
    const seen: unknown[] = [];
    await redisRunner({ call: async (...args: unknown[]) => seen.push(args) }, 'o')(['GET', 'k']);
    await redisRunner({ sendCommand: async (args: unknown) => seen.push(args) }, 'o')(['GET', 'k']);
    const cluster = { sendCommand: async (...args: unknown[]) => seen.push(args), nodeClient: async () => ({}) };
    await redisRunner(cluster, 'o')(['EVALSHA', 'sha', '1', 'key-1', 'arg']);
    expect(seen).toEqual([
      ['GET', 'k'],
      ['GET', 'k'],
      ['key-1', false, ['EVALSHA', 'sha', '1', 'key-1', 'arg']],
    ]);
    expect(isClusterClient(cluster)).toBe(true);
    expect(isClusterClient({ isCluster: true })).toBe(true);
    expect(isClusterClient({ call: () => {} })).toBe(false);
  });

  it('refuses anything else, naming its owner', () => {
    for (const client of [null, {}, 'redis://x']) {
      expect(() => redisRunner(client, 'store.client')).toThrow(ConfigError);
      expect(() => redisRunner(client, 'store.client')).toThrow('store.client must be an ioredis or node-redis client');
    }
  });
});

describe('oneSlot', () => {
  it('keeps a prefix’s own hash tag, else makes the prefix the tag', () => {
    expect([oneSlot('{team-a}:rl:'), oneSlot('flashduty:ratelimit:')]).toEqual([
      '{team-a}:rl:',
      '{flashduty:ratelimit:}',
    ]);
  });
});

describe('LuaScript', () => {
  it('runs by SHA-1, sending the body once when Redis does not hold it', async () => {
    const script = new LuaScript('return ', 'ARGV[1]');
    const sent: string[][] = [];
    let held = false;
    const send = async (args: string[]) => {
      sent.push(args);
      if (args[0] === 'EVALSHA' && !held) throw new Error('NOSCRIPT No matching script');
      held = true;
      return 'ok';
    };
    expect(await script.run(send, ['k'], ['v'])).toBe('ok');
    expect(await script.run(send, ['k'], ['v'])).toBe('ok');
    expect(sent.map((args) => args[0])).toEqual(['EVALSHA', 'EVAL', 'EVALSHA']);
    expect(sent[0]?.[1]).toMatch(/^[0-9a-f]{40}$/);
    expect(sent[1]?.slice(1)).toEqual(['return ARGV[1]', '1', 'k', 'v']);
    await expect(script.run(async () => Promise.reject(new Error('OOM')), [], [])).rejects.toThrow('OOM');
  });
});
