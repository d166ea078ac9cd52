// `npm run bench`: a whole walk through a generated method, `client.incidents.list` over 2 000
// incidents of the mock over HTTP (cursor pages of 100), against a raw `fetch` + `JSON.parse` loop
// that fetches the very same pages from the same server in the same run. Target: at most 1.1×.
// The walk's cost over the raw loop is what the SDK adds per page (params, checks, page objects,
// dedup within the window), since both wait on the same server for the same bytes.

import { Flashduty } from '../dist/index.js';
import { createMockService } from '../dist/testing/index.js';

const NOW_MS = Date.UTC(2026, 10, 1);
const service = createMockService({ seed: 7, incidents: 2_000, now: NOW_MS, rateLimits: false });
const server = await service.listen();
const end = NOW_MS / 1000;
// The mock spreads its incidents over the 30 days before its clock: one window of 31 days holds them all.
const params = { start_time: end - 31 * 86_400, end_time: end, limit: 100 };
const client = new Flashduty({ appKey: service.appKey, baseUrl: server.url, rateLimit: false, logLevel: 'off' });
const ROUNDS = 9;

async function walkSdk(): Promise<number> {
  let count = 0;
  for await (const _ of client.incidents.list(params)) count++;
  return count;
}

async function walkRaw(): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  for (;;) {
    const response = await fetch(`${server.url}/incident/list?app_key=${service.appKey}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(cursor ? { ...params, search_after_ctx: cursor } : params),
    });
    const { data } = JSON.parse(await response.text()) as {
      data: { items: unknown[]; has_next_page: boolean; search_after_ctx?: string };
    };
    count += data.items.length;
    if (!data.has_next_page || !data.search_after_ctx || data.items.length === 0) return count;
    cursor = data.search_after_ctx;
  }
}

async function timed(walk: () => Promise<number>): Promise<[number, number]> {
  const started = performance.now();
  const count = await walk();
  return [performance.now() - started, count];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
await timed(walkSdk); // warm-up
await timed(walkRaw);
const ratios: number[] = [];
const sdkMs: number[] = [];
const rawMs: number[] = [];
let counts: [number, number] = [0, 0];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? [walkRaw, walkSdk] : [walkSdk, walkRaw];
  const results = new Map<typeof walkSdk, [number, number]>();
  for (const walk of order) results.set(walk, await timed(walk));
  const [sdk, sdkCount] = results.get(walkSdk) as [number, number];
  const [raw, rawCount] = results.get(walkRaw) as [number, number];
  sdkMs.push(sdk);
  rawMs.push(raw);
  ratios.push(sdk / raw);
  counts = [sdkCount, rawCount];
}
console.log(
  `Walk of ${counts[0]} incidents (raw loop: ${counts[1]}), cursor pages of 100, ${ROUNDS} rounds, interleaved`,
);
console.log(`raw fetch + JSON.parse loop                  ${median(rawMs).toFixed(0).padStart(6)} ms`);
console.log(
  `client.incidents.list (for await)            ${median(sdkMs).toFixed(0).padStart(6)} ms   ${median(ratios).toFixed(2)}× raw (target ≤ 1.10)`,
);
await server.close();
