// Webhook receiver figures, each against a baseline measured in the same run:
//   requests/s through nodeMiddleware on node:http vs a bare node:http server that reads the body,
//   JSON.parses it and answers 200 (same payloads, same load tool: wrk)      target ≥ 0.85×
//   renderCustomBody on the documented example vs JSON.stringify of the payload
//   MemoryStateStore: bytes per remembered event id at 100 000 ids
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildWebhookEvent } from '../dist/testing/index.js';
import { MemoryStateStore, renderCustomBody } from '../dist/webhooks/index.js';

const CONNECTIONS = 32;
const SECONDS = 4;
const ROUNDS = 6;

// The load tool is wrk (Debian's package): light enough that the servers, not the load, are what is
// measured. Each request carries a fresh event_id, so the receiver handles every one (no duplicates).
const deliveryTemplate = JSON.stringify(buildWebhookEvent('i_ack', { event_id: 'EVENTID' }));
const script = path.join(mkdtempSync(path.join(tmpdir(), 'fd-wrk-')), 'deliveries.lua');
writeFileSync(
  script,
  `local counter = 0
local prefix = string.format("%08x", math.random(0, 0x7fffffff))
local template = [==[${deliveryTemplate}]==]
request = function()
  counter = counter + 1
  local body = template:gsub("EVENTID", prefix .. string.format("%016x", counter))
  return wrk.format("POST", "/hooks", { ["Content-Type"] = "application/json" }, body)
end
`,
);

async function startServer(kind: 'bare' | 'sdk') {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/processes/webhook-server.ts', kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /LISTENING (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
  });
  return { port, stop: () => child.kill() };
}

/** Requests per second that wrk reaches against the server; every answer must be a 200. */
function load(port: number): number {
  const result = spawnSync('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '-s', script, `http://127.0.0.1:${port}/hooks`], { encoding: 'utf8' });
  if (result.error) throw new Error(`wrk is needed for this benchmark (apt-get install wrk): ${result.error.message}`);
  if (/Non-2xx or 3xx responses/.test(result.stdout)) throw new Error(`some answers were not 200:\n${result.stdout}`);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(result.stdout);
  if (!rate) throw new Error(`unexpected wrk output:\n${result.stdout}${result.stderr}`);
  return Number(rate[1]);
}

console.log(`Webhook deliveries: ${(Buffer.byteLength(deliveryTemplate) / 1024).toFixed(1)} kB each, wrk with ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s per server, alternating\n`);
const servers = { bare: await startServer('bare'), sdk: await startServer('sdk') };
try {
  load(servers.bare.port); // warm-up
  load(servers.sdk.port);
  const rates: Record<'bare' | 'sdk', number[]> = { bare: [], sdk: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rates.bare.push(load(servers.bare.port));
    rates.sdk.push(load(servers.sdk.port));
  }
  console.log(`rounds: bare ${rates.bare.map((r) => r.toFixed(0)).join(" ")}; sdk ${rates.sdk.map((r) => r.toFixed(0)).join(" ")}`);
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] as number;
  const bare = median(rates.bare);
  const sdk = median(rates.sdk);
  console.log(`bare node:http + JSON.parse                 ${bare.toFixed(0).padStart(7)} req/s`);
  console.log(`receiver.nodeMiddleware()                   ${sdk.toFixed(0).padStart(7)} req/s   ${(sdk / bare).toFixed(2)}×`);
} finally {
  servers.bare.stop();
  servers.sdk.stop();
}

// renderCustomBody on the documented example.
const payload = JSON.parse(readFileSync('test/fixtures/incident-webhook.example.json', 'utf8')) as unknown;
const template = JSON.parse(readFileSync('test/fixtures/incident-webhook.custom-body-template.example.json', 'utf8')) as unknown;
function opsPerSecond(fn: () => unknown): number {
  for (let i = 0; i < 20_000; i++) fn();
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < 1000) {
    for (let i = 0; i < 1000; i++) fn();
    n += 1000;
  }
  return n / ((performance.now() - started) / 1000);
}
const renders = opsPerSecond(() => renderCustomBody(template, payload));
const stringifies = opsPerSecond(() => JSON.stringify(payload));
console.log(`\nJSON.stringify of the example payload       ${stringifies.toFixed(0).padStart(7)} /s`);
console.log(`renderCustomBody(documented template)       ${renders.toFixed(0).padStart(7)} /s   ${(renders / stringifies).toFixed(2)}× JSON.stringify`);

// MemoryStateStore footprint.
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const store = new MemoryStateStore({ maxEntries: 100_000 });
gc();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < 100_000; i++) {
  const id = `${i.toString(16).padStart(8, '0')}fac0599a2a25529ba2362c0c`;
  const claim = await store.claim(id, 60_000);
  if (claim.status === 'claimed') await store.complete(id, claim.token);
}
gc();
const perId = (process.memoryUsage().heapUsed - before) / 100_000;
console.log(`\nMemoryStateStore at 100 000 event ids (32-char): ${perId.toFixed(0)} bytes per id (${((perId * 100_000) / 1048576).toFixed(1)} MiB)`);
for (let i = 100_000; i < 300_000; i++) {
  const id = `${i.toString(16).padStart(8, '0')}fac0599a2a25529ba2362c0c`;
  const claim = await store.claim(id, 60_000);
  if (claim.status === 'claimed') await store.complete(id, claim.token);
}
gc();
console.log(`after 200 000 more ids: ${store.size} held, ${((process.memoryUsage().heapUsed - before) / 1048576).toFixed(1)} MiB (flat: bounded by maxEntries)`);
