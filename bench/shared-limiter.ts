// `npm run bench` (part): the shared limiter (`rateLimit.redis`) against a real redis-server.
//   1. Calls/s that one client, then four processes (ioredis and node-redis) on one prefix, reach
//      against the mock service's own limit of 50/s in a process of its own, and the 429s they draw
//      (the target: at least 45/s in total, 0 × 429). The rate is the server's: arrivals
//      after the first second's burst, over the time they took.
//   2. Its cost per call against the in-process limiter: a limit high enough never to bind, calls
//      one after another to a bare local server, interleaved rounds, medians.
// Nothing here is a pass/fail test; the figures go in docs/performance.md.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { Flashduty, RequestTooFrequentlyError } from '../dist/index.js';
import { type FleetResult, runClient, startMockProcess } from '../test/integration/support/fleet.js';
import { startRedis } from '../test/integration/support/redis.js';

const redis = await startRedis();
const sum = (results: FleetResult[], of: (r: FleetResult) => number) => results.reduce((total, r) => total + of(r), 0);
const now = Math.floor(Date.now() / 1000);
const window = { start_time: now - 86_400, end_time: now, limit: 1 };

/**
 * Calls/s at the server, sustained: between the middles of the second and the last wave of 50 (a
 * burst of 50 goes out at once, then a wave each time slots free), as test/integration/stress does.
 */
function serverRate(calls: Array<[number, number]>): number {
  const times = calls.map(([time]) => time).sort((a, b) => a - b);
  const first = 75;
  const last = times.length - 25;
  return (last - first) / (((times[last] as number) - (times[first] as number)) / 1000);
}

/** `failed`: calls that failed otherwise than by a 429 (none expected). */
function report(name: string, calls: Array<[number, number]>, failed: number): void {
  const limited = calls.filter(([, status]) => status === 429).length;
  console.log(
    `${name.padEnd(44)} ${calls.length} calls   ${serverRate(calls).toFixed(1).padStart(5)} calls/s at the server   ${limited} × 429   ${failed} failed`,
  );
}

try {
  console.log('Shared limiter against the mock service (50 calls/s per account, in its own process)\n');
  {
    const mock = await startMockProcess();
    const io = new Redis(redis.url);
    const client = new Flashduty({
      appKey: mock.appKey,
      baseUrl: mock.url,
      maxRetries: 0,
      logLevel: 'off',
      rateLimit: { redis: io, keyPrefix: 'bench-one:', redisTimeoutMs: 30_000 },
    });
    const settled = await Promise.allSettled(Array.from({ length: 300 }, () => client.listIncidents(window)));
    const failed = settled.filter((r) => r.status === 'rejected' && !(r.reason instanceof RequestTooFrequentlyError));
    report('one client, 300 calls at once', await mock.stop(), failed.length);
    await io.quit();
  }
  {
    const mock = await startMockProcess();
    const flavours = ['ioredis', 'node-redis', 'ioredis', 'node-redis'] as const;
    const results = await Promise.all(
      flavours.map((flavour) => runClient(mock, redis.url, { flavour, calls: 100, keyPrefix: 'bench-fleet:' })),
    );
    report(
      'four processes, 100 calls at once each',
      await mock.stop(),
      sum(results, (r) => r.failed),
    );
  }

  // Cost per call: the same bare server for both, a limit that never binds.
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Service-Request-Id': 'r1' });
      res.end('{"request_id":"r1","data":{"items":[],"total":0,"has_next_page":false}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const io = new Redis(redis.url);
  const free = { perSecond: 1e6, perMinute: 1e9 };
  const base = { appKey: 'bench-key', baseUrl, logLevel: 'off' as const };
  const contenders: Array<[string, Flashduty]> = [
    ['in-process limiter', new Flashduty({ ...base, rateLimit: free })],
    ['shared limiter (ioredis, local redis-server)', new Flashduty({ ...base, rateLimit: { ...free, redis: io } })],
  ];
  const CALLS = 300;
  const ROUNDS = 9;
  const batch = async (client: Flashduty) => {
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) await client.listIncidents(window);
    return ((performance.now() - started) / CALLS) * 1000;
  };
  for (const [, client] of contenders) await batch(client); // warm-up, scripts loaded
  const samples = new Map<string, number[]>(contenders.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, client] of contenders) samples.get(name)?.push(await batch(client));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const local = median(samples.get('in-process limiter') ?? []);
  console.log(`\nCost per call, one call at a time, ${ROUNDS} rounds × ${CALLS} calls, interleaved (medians)\n`);
  for (const [name] of contenders) {
    const us = median(samples.get(name) ?? []);
    console.log(`${name.padEnd(44)} ${us.toFixed(0).padStart(6)} µs/call   +${(us - local).toFixed(0)} µs`);
  }
  await io.quit();
  server.close();
} finally {
  await redis.stop();
}
