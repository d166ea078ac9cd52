// `npm run bench`: the client's cost against baselines measured in the same run, on the same
// machine, against the same local server. Prints ratios; the targets are those of the issues:
//   listIncidents (100 incidents), limiter on  ≤ 1.05 × openapi-fetch (the lightest typed client a
//                                              TypeScript user would pick instead, generated from
//                                              the same OpenAPI) and ≤ 0.95 × ky alone (the transport under it)
//   listIncidents (100 incidents)              ≤ 1.25 × raw fetch + JSON.parse
//   deep validation of that page               ≤ 2 × JSON.parse of it
// Below the plain call, a row for each thing a call does that it did not at 08dfc00 (a credential
// of either kind, a client of withOptions(), values checked, call options checked, the paging
// classes), each against the plain call in its last column. Nothing here is a pass/fail test; the
// figures go in docs/performance.md.

import ky from 'ky';
import createClient from 'openapi-fetch';
import type { paths } from '../src/generated/openapi.js';
import { Flashduty } from '../dist/index.js';
import { checkPageDeep } from '../src/schemas/deep.js';
import { startPageServer } from './page-server.js';

const CALLS_PER_BATCH = 200;
const ROUNDS = 21;

const { baseUrl, page, payload, payloadBytes, params, close } = await startPageServer();
const { items } = page;
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
const tokenClient = new Flashduty({ accessToken: 'bench-token', baseUrl, rateLimit: false, logLevel: 'off' });
const derivedClient = envelopeClient.withOptions({ timeout: 20_000 });
const filtered = {
  ...params,
  start_time: new Date(params.start_time * 1000),
  end_time: new Date(params.end_time * 1000),
  progress: ['Triggered', 'Processing', 'Closed'] as const,
  incident_severity: ['Critical', 'Warning', 'Info'] as const,
};
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
  // What a call does now that it did not at 08dfc00, each beside the plain call above (the last
  // column); the in-process cost of each step is in bench/call-steps.ts.
  ['  an access token (credentials)', () => tokenClient.listIncidents(params)],
  ['  a client made by withOptions()', () => derivedClient.listIncidents(params)],
  ['  Dates, filters as arrays (values checked)', () => envelopeClient.listIncidents(filtered)],
  ['  call options checked', () => envelopeClient.listIncidents(params, { timeout: 20_000, maxRetries: 2 })],
  ['  client.request (no paging classes)', () => envelopeClient.request('/incident/list', params)],
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
const plain = "listIncidents (validate: 'envelope')";
for (const [name] of contenders) {
  const ms = median(samples.get(name) ?? []);
  console.log(
    `${name.padEnd(44)} ${(ms * 1000).toFixed(0).padStart(6)} µs/call   ${perRound(name, 'raw fetch + JSON.parse').toFixed(2)}× raw   ${perRound(name, 'ky alone').toFixed(2)}× ky   ${perRound(name, 'openapi-fetch').toFixed(2)}× openapi-fetch   ${perRound(name, plain).toFixed(2)}× listIncidents`,
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
console.log(`\nJSON.parse of the page                       ${(parseMs * 1000).toFixed(0).padStart(6)} µs`);
console.log(
  `deep validation of the page                  ${(deepMs * 1000).toFixed(0).padStart(6)} µs   ${(deepMs / parseMs).toFixed(2)}× JSON.parse`,
);

close();
