// Load: webhook deliveries with duplicates and reordering (in one process, and in two processes
// sharing Redis), the client's limiter against the mock's 50/s, and the mock under 20 clients.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { Flashduty, RequestTooFrequentlyError } from '../../../src/index.js';
import { buildDelivery, createMockService } from '../../../src/testing/index.js';
import { WebhookReceiver } from '../../../src/webhooks/index.js';
import { DAY, sleep } from '../../helpers.js';
import { type Plan, plan, verify } from '../support/plan.js';
import { spawnTied, stopChild } from '../support/lifetime.js';
import { startRedis } from '../support/redis.js';
import { startReplica, stopReplica } from '../support/replicas.js';
import { figure, scale } from './scale.js';

async function send(urls: string[], p: Plan): Promise<number[]> {
  const statuses: number[] = [];
  let n = 0;
  for (const batch of p.batches) {
    const answers = await Promise.all(
      batch.map((i) =>
        fetch(urls[n++ % urls.length] as string, buildDelivery(p.events[i]).init()).then((r) => r.status),
      ),
    );
    statuses.push(...answers);
  }
  return statuses;
}

const TOTAL = scale(1500, 10_000);

describe('webhook deliveries under load', () => {
  it(
    `${TOTAL} deliveries through nodeMiddleware: each event once, none lost, stale exactly the older`,
    { timeout: 300_000 },
    async () => {
      const p = plan(TOTAL);
      const receiver = new WebhookReceiver();
      const handled: string[] = [];
      const stale: string[] = [];
      receiver.on('event', async (event) => {
        await sleep(Math.random() * 5); // load shaping: handlers take 0-5 ms, so that they overlap as real ones do
        handled.push(event.event_id);
      });
      receiver.on('stale', (event) => void stale.push(event.event_id));
      const middleware = receiver.nodeMiddleware();
      const server = createServer((req, res) => middleware(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const heapBefore = process.memoryUsage().heapUsed;
      const started = Date.now();
      const statuses = await send([`http://127.0.0.1:${(server.address() as AddressInfo).port}/`], p);
      const seconds = (Date.now() - started) / 1000;
      server.close();
      expect(statuses.every((s) => s === 200)).toBe(true);
      verify(p, handled, stale);
      figure(
        'webhooks in one process',
        `${statuses.length} deliveries (${p.duplicates} duplicates, ${p.reordered} reordered) in ${seconds.toFixed(1)} s: ${handled.length} handled, ${new Set(stale).size} stale, heap +${((process.memoryUsage().heapUsed - heapBefore) / 1048576).toFixed(1)} MiB`,
      );
    },
  );

  it(
    `${TOTAL} deliveries through two processes sharing Redis: each event once, none lost`,
    { timeout: 300_000 },
    async () => {
      const redis = await startRedis();
      const p = plan(TOTAL);
      const replicas = await Promise.all([
        startReplica(redis.url, 'ioredis', 'load:'),
        startReplica(redis.url, 'node-redis', 'load:'),
      ]);
      try {
        const started = Date.now();
        const statuses = await send(
          replicas.map((r) => r.url),
          p,
        );
        const seconds = (Date.now() - started) / 1000;
        const reports = await Promise.all(replicas.map(stopReplica));
        expect(statuses.every((s) => s === 200)).toBe(true);
        verify(
          p,
          reports.flatMap((r) => r.handled),
          reports.flatMap((r) => r.stale),
        );
        const peak = Math.max(...reports.map((r) => r.memory.rss));
        figure(
          'webhooks in two processes + Redis',
          `${statuses.length} deliveries in ${seconds.toFixed(1)} s: ${reports.map((r) => r.handled.length).join(' + ')} handled, ${reports.map((r) => r.stale.length).join(' + ')} stale; peak RSS ${(peak / 1048576).toFixed(0)} MiB`,
        );
      } finally {
        await Promise.all([...replicas.map((r) => stopChild(r.child)), redis.stop()]);
      }
    },
  );
});

describe('client limiter against the mock limit', () => {
  const CALLS = scale(300, 2000);
  it(
    `${CALLS} listIncidents calls at once: no 429, and no slot left idle while calls wait`,
    { timeout: 120_000 },
    async () => {
      // The mock runs in its own process, as the real service would: only the client's pacing is measured.
      const child = spawnTied(process.execPath, ['--import', 'tsx', 'test/integration/processes/mock-server.ts'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
      const [url, appKey] = await new Promise<string[]>((resolve) => {
        child.stdout?.on('data', () => {
          const match = /LISTENING (\S+) (\S+)/.exec(out);
          if (match) resolve([match[1] as string, match[2] as string]);
        });
      });
      // When each call got its slot (its fetch) and when it settled (its slot was released by then).
      const starts: number[] = [];
      const finishes: number[] = [];
      const timed: typeof fetch = (input, init) => {
        starts.push(performance.now());
        return fetch(input, init);
      };
      const client = new Flashduty({ appKey, baseUrl: url, fetch: timed, maxRetries: 0, logLevel: 'off' });
      const window = {
        start_time: Math.floor(Date.now() / 1000) - DAY,
        end_time: Math.floor(Date.now() / 1000),
        limit: 1,
      };
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      const results = await Promise.allSettled(
        Array.from({ length: CALLS }, () =>
          client.listIncidents(window).finally(() => finishes.push(performance.now())),
        ),
      );
      lag.disable();
      const limited = results.filter(
        (r) => r.status === 'rejected' && r.reason instanceof RequestTooFrequentlyError,
      ).length;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(0);
      const calls = JSON.parse(/^CALLS (.*)$/m.exec(out)?.[1] ?? '[]') as Array<[number, number]>;
      expect(calls.filter(([, status]) => status === 429)).toHaveLength(0);
      // The limiter must never leave a slot idle while calls wait (all were asked for at once). A
      // slot is held until a second (minute) after its call settled, so once the k-th call settled
      // (in order of settling), call k + 50 (k + 1000) may start a second (a minute) later. Checked
      // per call against the call's own timings, so a slow machine or slow answers do not matter;
      // the slack is the event loop's worst delay in this run, plus 100 ms. A limiter that waited
      // for whole windows, or held a slot a second too long, is about a second late.
      finishes.sort((a, b) => a - b);
      starts.sort((a, b) => a - b);
      const slack = 100 + lag.max / 1e6;
      const late = starts.flatMap((start, k) => {
        const due = Math.max(
          k >= 50 ? (finishes[k - 50] as number) + 1000 : 0,
          k >= 1000 ? (finishes[k - 1000] as number) + 60_000 : 0,
        );
        return k >= 50 && start > due + slack
          ? [`call ${k} started ${(start - due).toFixed(0)} ms after its slot was free`]
          : [];
      });
      expect(late).toEqual([]);
      // And never more than 50 calls started within a second (the server's count of the same is the no-429 above).
      expect(starts.every((start, k) => k < 50 || start - (starts[k - 50] as number) >= 1000)).toBe(true);
      // The rate the server saw, between the middles of two waves (for the figure only).
      const arrivals = calls.map(([time]) => time).sort((a, b) => a - b);
      const [budget, period, first] = CALLS > 1000 ? [1000, 60, 500] : [50, 1, 75];
      const last = CALLS > 1000 ? first + budget : arrivals.length - 25;
      const limit = budget / period;
      const sustained = (last - first) / (((arrivals[last] as number) - (arrivals[first] as number)) / 1000);
      figure(
        'client limiter',
        `${CALLS} calls, ${limited} × 429, event loop delay up to ${(lag.max / 1e6).toFixed(0)} ms, sustained ${sustained.toFixed(2)} calls/s at the server (binding limit ${limit.toFixed(2)}/s, ${((sustained / limit) * 100).toFixed(1)}%)`,
      );
    },
  );
});

describe('the mock under 20 concurrent clients', () => {
  it('keeps one audit entry per agent call and its limits per account and per key', { timeout: 120_000 }, async () => {
    const PER_CLIENT = scale(60, 300);
    // A per-minute limit below each bucket's share (5 to 10 × PER_CLIENT calls), so some calls are
    // refused however slowly this machine sends them; the per-second limit is the service's.
    const service = createMockService({
      seed: 4,
      incidents: 20,
      agents: Array.from({ length: 20 * PER_CLIENT }, (_, i) => ({ agent_id: `ag_${i}` })),
      rateLimits: { perSecond: 50, perMinute: 4 * PER_CLIENT },
    });
    const server = await service.listen();
    afterAll(() => server.close());
    const keys = [service.keys.full, service.keys.noPermission];
    const window = {
      start_time: Math.floor(Date.now() / 1000) - DAY,
      end_time: Math.floor(Date.now() / 1000),
      limit: 1,
    };
    const answers: Array<{ kind: 'list' | 'agent'; ok: boolean; limited: boolean; requestId?: string }> = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, c) => {
        const client = new Flashduty({
          appKey: keys[c % 2] as string,
          baseUrl: server.url,
          maxRetries: 0,
          logLevel: 'off',
        });
        for (let i = 0; i < PER_CLIENT; i++) {
          const agentCall = c % 2 === 1 || i % 2 === 0;
          try {
            const r = agentCall
              ? await client.enableA2AAgent(`ag_${c * PER_CLIENT + i}`)
              : await client.listIncidents(window);
            answers.push({ kind: agentCall ? 'agent' : 'list', ok: true, limited: false, requestId: r.requestId });
          } catch (error) {
            const limited = error instanceof RequestTooFrequentlyError;
            answers.push({
              kind: agentCall ? 'agent' : 'list',
              ok: false,
              limited,
              requestId: (error as { requestId?: string }).requestId,
            });
          }
        }
      }),
    );
    const agentAnswers = answers.filter((a) => a.kind === 'agent' && !a.limited);
    const audited = service.auditLog.map((e) => e.request_id).sort();
    expect(audited).toEqual(agentAnswers.map((a) => a.requestId).sort()); // none lost, none doubled
    expect(agentAnswers.every((a) => a.ok)).toBe(true);
    const maxInWindow = (times: number[]) => {
      let best = 0;
      for (let i = 0, j = 0; i < times.length; i++) {
        while ((times[i] as number) - (times[j] as number) >= 1000) j++;
        best = Math.max(best, i - j + 1);
      }
      return best;
    };
    const admitted = service.callLog.filter((c) => c.status !== 429);
    const perKey = ['full', 'no-permission'].map((name) =>
      maxInWindow(admitted.filter((c) => c.path !== '/incident/list' && c.key_name === name).map((c) => c.time)),
    );
    const perAccount = maxInWindow(admitted.filter((c) => c.path === '/incident/list').map((c) => c.time));
    expect(Math.max(...perKey)).toBeLessThanOrEqual(50);
    expect(perAccount).toBeLessThanOrEqual(50);
    const limited = answers.filter((a) => a.limited).length;
    expect(limited).toBeGreaterThanOrEqual(PER_CLIENT); // the full key's agent calls alone are 5 × PER_CLIENT
    figure(
      'mock under 20 clients',
      `${answers.length} calls, ${limited} × 429, ${audited.length} audit entries for ${agentAnswers.length} agent answers; busiest second: ${perKey.join('/')} per key, ${perAccount} per account`,
    );
  });
});
