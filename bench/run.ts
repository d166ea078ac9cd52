// `npm run bench`: the client's cost against baselines measured in the same run, on the same
// machine, against the same local server. Prints ratios; the targets are those of the issues:
//   listIncidents (100 incidents), limiter on  ≤ 1.05 × openapi-fetch (the lightest typed client a
//                                              TypeScript user would pick instead, generated from
//                                              the same OpenAPI) and ≤ 1.0 × ky alone (the transport under it)
//   listIncidents (100 incidents)              ≤ 1.25 × raw fetch + JSON.parse
//   deep validation of that page               ≤ 2 × JSON.parse of it
// Nothing here is a pass/fail test; the figures go in docs/performance.md.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import ky from 'ky';
import createClient from 'openapi-fetch';
import type { paths } from '../src/generated/openapi.js';
import { Flashduty } from '../dist/index.js';
import { checkPageDeep } from '../src/schemas/deep.js';
import { createMockService } from '../dist/testing/index.js';

const CALLS_PER_BATCH = 200;
const ROUNDS = 21;

// One page of 100 realistic incidents from the mock's generator, served as fixed bytes by a bare
// node:http server, so the server costs the same for every contender.
const service = createMockService({ seed: 42, incidents: 300, now: Date.UTC(2026, 10, 1) });
const now = Date.UTC(2026, 10, 1) / 1000;
const items = service.world.incidents.slice(0, 100);
const page = { items, total: 300, has_next_page: true, search_after_ctx: 'cursor-1' };
const payload = JSON.stringify({ request_id: '01HK8XQE3Z7JM2NTFQ5YJ8P9R4', data: page });
const payloadBytes = Buffer.from(payload);

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': payloadBytes.length,
      'Service-Request-Id': 'r1',
    });
    res.end(payloadBytes);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const params = { start_time: now - 7 * 86_400, end_time: now, limit: 100 };
const body = JSON.stringify(params);

type Contender = [name: string, run: () => Promise<unknown>];
const envelopeClient = new Flashduty({ appKey: 'bench-key', baseUrl, rateLimit: false, logLevel: 'off' });
const deepClient = new Flashduty({ appKey: 'bench-key', baseUrl, rateLimit: false, logLevel: 'off', validate: 'deep' });
// The default options but a limiter that never waits: the bench calls far faster than 50 calls/s.
const limitedClient = new Flashduty({
  appKey: 'bench-key',
  baseUrl,
  logLevel: 'off',
  rateLimit: { perSecond: 1e6, perMinute: 1e9 },
});
// ky as the client configures it: no retries, no timeout of its own, HTTP errors as answers.
const kyClient = ky.create({ prefixUrl: baseUrl, retry: 0, timeout: false, throwHttpErrors: false });
const openapiFetch = createClient<paths>({ baseUrl, querySerializer: () => 'app_key=bench-key' });

const contenders: Contender[] = [
  [
    'raw fetch + JSON.parse',
    async () => {
      const res = await fetch(`${baseUrl}/incident/list?app_key=bench-key`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      return JSON.parse(await res.text());
    },
  ],
  ['ky alone', () => kyClient.post('incident/list?app_key=bench-key', { json: params }).json()],
  ['openapi-fetch', () => openapiFetch.POST('/incident/list', { body: params })],
  ["listIncidents (validate: 'envelope')", () => envelopeClient.listIncidents(params)],
  ["listIncidents (validate: 'deep')", () => deepClient.listIncidents(params)],
  ['listIncidents (default options, limiter on)', () => limitedClient.listIncidents(params)],
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * One round: every contender makes CALLS_PER_BATCH calls, taking turns call by call (in reverse
 * order every other turn), so that a machine slowing down for a moment slows every contender alike;
 * batches of calls run one after the other spread the same code's figure over ±10% here.
 */
async function round(): Promise<Map<string, number>> {
  const spent = new Map<string, number>(contenders.map(([name]) => [name, 0]));
  const reversed = [...contenders].reverse();
  for (let i = 0; i < CALLS_PER_BATCH; i++) {
    for (const [name, run] of i % 2 ? reversed : contenders) {
      const started = performance.now();
      await run();
      spent.set(name, (spent.get(name) as number) + performance.now() - started);
    }
  }
  for (const [name, ms] of spent) spent.set(name, ms / CALLS_PER_BATCH);
  return spent;
}

console.log(
  `Page: ${items.length} incidents, ${(payloadBytes.length / 1024).toFixed(1)} kB of JSON; ${ROUNDS} rounds × ${CALLS_PER_BATCH} calls, contenders taking turns call by call; ratios are medians of per-round ratios\n`,
);
await round(); // warm-up
const samples = new Map<string, number[]>(contenders.map(([name]) => [name, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, ms] of await round()) samples.get(name)?.push(ms);
}
// Ratios are the median of each round's ratio: contenders of one round ran within seconds of each
// other, so a machine that slows down for a while slows both sides of a ratio alike.
const perRound = (name: string, base: string) => {
  const of = samples.get(name) ?? [];
  const to = samples.get(base) ?? [];
  return median(of.map((ms, round) => ms / (to[round] as number)));
};
for (const [name] of contenders) {
  const ms = median(samples.get(name) ?? []);
  console.log(
    `${name.padEnd(42)} ${(ms * 1000).toFixed(0).padStart(6)} µs/call   ${perRound(name, 'raw fetch + JSON.parse').toFixed(2)}× raw   ${perRound(name, 'ky alone').toFixed(2)}× ky   ${perRound(name, 'openapi-fetch').toFixed(2)}× openapi-fetch`,
  );
}

// Deep validation alone, against JSON.parse of the same bytes.
const parsed = JSON.parse(payload) as { data: unknown };
function perOp(fn: () => unknown, iterations = 300): number {
  const started = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  return (performance.now() - started) / iterations;
}
const parseSamples: number[] = [];
const deepSamples: number[] = [];
perOp(() => checkPageDeep('/incident/list', parsed.data));
for (let round = 0; round < ROUNDS; round++) {
  parseSamples.push(perOp(() => JSON.parse(payload)));
  deepSamples.push(
    perOp(() => {
      if (checkPageDeep('/incident/list', parsed.data)) throw new Error('bench page failed validation');
    }),
  );
}
const parseMs = median(parseSamples);
const deepMs = median(deepSamples);
console.log(`\nJSON.parse of the page                     ${(parseMs * 1000).toFixed(0).padStart(6)} µs`);
console.log(
  `deep validation of the page                ${(deepMs * 1000).toFixed(0).padStart(6)} µs   ${(deepMs / parseMs).toFixed(2)}× JSON.parse`,
);

server.close();
