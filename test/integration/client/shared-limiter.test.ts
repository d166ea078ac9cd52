// The shared limiter (`rateLimit.redis`) with a real redis-server: client processes (ioredis and
// node-redis) on one Redis and prefix against the mock service's own limit, in a process of its own,
// draw no 429; different prefixes do not share; and what happens when Redis dies, comes back or
// freezes (the in-process limiter stands in: every call answered, within the local limits). Every
// check counts (429s, answers, arrivals per rolling second as the mock logged them), none times.
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { APIUserAbortError } from '../../../src/index.js';
import { DAY, NOW, rejection, startMock } from '../../helpers.js';
import { busiestWindow, runClient, startMockProcess } from '../support/fleet.js';
import { spawnTied } from '../support/lifetime.js';
import { startRedis } from '../support/redis.js';

const redis = await startRedis();
afterAll(() => redis.stop());

const window = { start_time: NOW - DAY, end_time: NOW, limit: 1 };

/** A logger that keeps the lines. */
function recorder() {
  const lines: string[] = [];
  const log = (message: string) => void lines.push(message);
  return { lines, logger: { debug: log, info: log, warn: log, error: log } };
}

/** Resolves once `check` holds, polling; fails after `ms` (a bound for a hang, not a speed check). */
function until(check: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  return vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`never happened within ${ms} ms: ${what}`);
    },
    { timeout: ms, interval: 20 },
  );
}

describe('a fleet on one Redis and prefix', () => {
  it(
    'three processes (ioredis, node-redis, ioredis), 100 calls at once each: no 429, at most 50 arrivals in any second',
    {
      timeout: 120_000,
    },
    async () => {
      const mock = await startMockProcess();
      let calls: Array<[number, number]> = [];
      try {
        const keyPrefix = `fleet:${Date.now()}:`;
        const flavours = ['ioredis', 'node-redis', 'ioredis'] as const;
        const results = await Promise.all(
          flavours.map((flavour) => runClient(mock, redis.url, { flavour, calls: 100, keyPrefix })),
        );
        expect(results.map(({ ok, limited, failed }) => ({ ok, limited, failed }))).toEqual(
          flavours.map(() => ({ ok: 100, limited: 0, failed: 0 })),
        );
      } finally {
        calls = await mock.stop();
      }
      expect(calls).toHaveLength(300);
      expect(calls.filter(([, status]) => status === 429)).toEqual([]);
      expect(busiestWindow(calls, 1_000)).toBeLessThanOrEqual(50);
    },
  );

  it(
    'different prefixes do not share: two processes each within their own 60/min draw 429s from an account limit of 60/min',
    {
      timeout: 120_000,
    },
    async () => {
      // 2 × 40 calls, each process allowed 60 a minute by its own windows: 80 reach the service, which
      // refuses 20 of them however fast or slow this machine is (all within a minute). The service's
      // per-second limit is set out of reach: at 50/s, 80 arrivals within one second (a fast machine)
      // would be refused by it too, and the count would depend on the machine's speed.
      const mock = await startMockProcess(1000, 60);
      let calls: Array<[number, number]> = [];
      const prefixes = [`apart-a:${Date.now()}:`, `apart-b:${Date.now()}:`];
      try {
        const results = await Promise.all(
          prefixes.map((keyPrefix, i) =>
            runClient(mock, redis.url, { flavour: i ? 'node-redis' : 'ioredis', calls: 40, keyPrefix, perMinute: 60 }),
          ),
        );
        expect(results.reduce((sum, r) => sum + r.ok + r.limited, 0)).toBe(80);
        expect(results.reduce((sum, r) => sum + r.limited, 0)).toBe(20);
      } finally {
        calls = await mock.stop();
      }
      expect(calls).toHaveLength(80);
      // Each prefix kept its own windows in Redis: 40 slots each in its minute window.
      const io = new Redis(redis.url);
      try {
        for (const prefix of prefixes) expect(await io.zcard(`{${prefix}}minute`)).toBe(40);
      } finally {
        await io.quit();
      }
    },
  );

  it('two clients in one process, one prefix, share the windows: the second waits for the first one’s minute', async () => {
    const h = await startMock({ incidents: 5 });
    const io = new Redis(redis.url);
    try {
      const options = { rateLimit: { perMinute: 3, redis: io, keyPrefix: `pair:${Date.now()}:` }, maxRetries: 0 };
      const [a, b] = [h.client(options), h.client(options)];
      await Promise.all([a.listIncidents(window), a.listIncidents(window), a.listIncidents(window)]);
      // The minute is used up by `a`: `b` waits in the limiter (it would for a minute) until aborted.
      const controller = new AbortController();
      const waiting = b.listIncidents(window, { signal: controller.signal });
      const other = h.client({ ...options, rateLimit: { ...options.rateLimit, keyPrefix: `other:${Date.now()}:` } });
      await other.listIncidents(window); // another prefix has its own minute
      controller.abort();
      expect(await rejection(waiting)).toBeInstanceOf(APIUserAbortError);
      expect(h.service.callLog).toHaveLength(4); // the aborted call never went out
    } finally {
      await io.quit();
    }
  });
});

describe('an aborted wait for a slot', () => {
  it('leaves nothing that holds the process open (it waited for the next minute)', { timeout: 60_000 }, async () => {
    const mock = await startMockProcess();
    try {
      const script = fileURLToPath(new URL('../processes/limiter-abort.ts', import.meta.url));
      const args = [mock.url, mock.appKey, redis.url, `abort:${Date.now()}:`];
      const child = spawnTied(process.execPath, ['--import', 'tsx', script, ...args], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect(code).toBe(0);
      expect(out).toMatch(/^ABORTED APIUserAbortError$/m);
      // Held by the limiter it would exit a minute later; 20 s is a bound for a hang, not a speed check.
      expect(Number(/^EXIT (\d+)$/m.exec(out)?.[1])).toBeLessThan(20_000);
    } finally {
      await mock.stop();
    }
  });
});

describe('when Redis fails', () => {
  it(
    'killed mid-run: every call is answered, within the in-process limits across the switch, a warning; shared again once Redis is back',
    {
      timeout: 60_000,
    },
    async () => {
      const server = await startRedis();
      const h = await startMock({ incidents: 5 });
      const io = new Redis(server.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
      io.on('error', () => undefined); // reconnect attempts while it is down: the limiter sees the failed commands
      const { lines, logger } = recorder();
      const keyPrefix = `killed:${Date.now()}:`;
      const client = h.client({
        rateLimit: { perSecond: 5, redis: io, keyPrefix, redisTimeoutMs: 2_000 },
        maxRetries: 0,
        logLevel: 'warn',
        logger,
      });
      try {
        let answered = 0;
        const results = Promise.allSettled(
          Array.from({ length: 20 }, () => client.listIncidents(window).finally(() => answered++)),
        );
        await until(() => answered >= 6, '6 answers');
        await server.kill();
        const settled = await results;
        expect(settled.filter((r) => r.status === 'rejected')).toEqual([]);
        expect(lines.some((line) => /rateLimit: Redis failed \(.+\); this client limits itself alone/.test(line))).toBe(
          true,
        );
        // The in-process limiter counted the calls sent through Redis too: no burst at the switch.
        expect(
          busiestWindow(
            h.service.callLog.map((c) => [c.time, c.status]),
            1_000,
          ),
        ).toBeLessThanOrEqual(5);

        await server.start(); // same port, empty
        await until(async () => {
          await client.listIncidents(window);
          return lines.some((line) => line.includes('Redis answers again; the limit is shared again'));
        }, 'the limiter back on Redis');
        const check = new Redis(server.url);
        expect(await check.zcard(`{${keyPrefix}}second`).finally(() => check.quit())).toBeGreaterThan(0);
        expect(
          busiestWindow(
            h.service.callLog.map((c) => [c.time, c.status]),
            1_000,
          ),
        ).toBeLessThanOrEqual(5);
      } finally {
        io.disconnect();
        await server.stop();
      }
    },
  );

  it(
    'frozen (SIGSTOP): calls go on after redisTimeoutMs through the in-process limiter, none hangs',
    {
      timeout: 60_000,
    },
    async () => {
      const server = await startRedis();
      const h = await startMock({ incidents: 5 });
      const io = new Redis(server.url);
      io.on('error', () => undefined);
      const { lines, logger } = recorder();
      const client = h.client({
        rateLimit: { redis: io, keyPrefix: `frozen:${Date.now()}:`, redisTimeoutMs: 300 },
        logLevel: 'warn',
        logger,
      });
      try {
        await client.listIncidents(window);
        server.freeze();
        const settled = await Promise.allSettled(Array.from({ length: 10 }, () => client.listIncidents(window)));
        expect(settled.filter((r) => r.status === 'rejected')).toEqual([]);
        expect(lines.some((line) => line.includes('Redis failed (no answer within 300 ms)'))).toBe(true);
      } finally {
        server.thaw();
        io.disconnect();
        await server.stop();
      }
    },
  );

  it('gone before the first call: calls still go out, limited in process', { timeout: 60_000 }, async () => {
    const server = await startRedis();
    const url = server.url;
    await server.stop();
    const h = await startMock({ incidents: 5 });
    const io = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    io.on('error', () => undefined);
    const { lines, logger } = recorder();
    const client = h.client({
      rateLimit: { perSecond: 4, redis: io, redisTimeoutMs: 2_000 },
      maxRetries: 0,
      logLevel: 'warn',
      logger,
    });
    try {
      const settled = await Promise.allSettled(Array.from({ length: 10 }, () => client.listIncidents(window)));
      expect(settled.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(
        busiestWindow(
          h.service.callLog.map((c) => [c.time, c.status]),
          1_000,
        ),
      ).toBeLessThanOrEqual(4);
      expect(lines.filter((line) => line.includes('Redis failed'))).toHaveLength(1);
    } finally {
      io.disconnect();
    }
  });
});
