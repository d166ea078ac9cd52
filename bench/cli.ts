// `npm run bench`: the command line's cost for one call. Time from `flashduty incidents list --json`
// starting to its first line on stdout, against `flashduty mock` on loopback, vs the same call
// through a small Node script that imports the package and calls listIncidents (the other way a
// user gets that line), in the same run, rounds interleaved. Then what the bin loaded for that call:
// none of the mock, the webhook receiver or zod (each found by a definition only its code has: the
// command table names createMockService where `flashduty mock` imports it on demand).

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(root, 'bin/flashduty.js');
const TRACE = path.join(root, 'bench/processes/import-trace.mjs');
const ROUNDS = 11;
const dir = mkdtempSync(path.join(tmpdir(), 'fd-cli-bench-'));
const script = path.join(dir, 'list.mjs');
writeFileSync(
  script,
  `import { Flashduty } from ${JSON.stringify(path.join(root, 'dist/index.js'))};
const client = new Flashduty();
const now = new Date();
for await (const incident of client.listIncidents({ start_time: new Date(now.getTime() - 7 * 86400000), end_time: now })) {
  process.stdout.write(JSON.stringify(incident) + '\\n');
}
`,
);

const mock = spawn(process.execPath, [BIN, 'mock', '--json', '--incidents', '300'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const { baseUrl, appKey } = await new Promise<{ baseUrl: string; appKey: string }>((resolve) =>
  mock.stdout.once('data', (chunk: Buffer) =>
    resolve(JSON.parse(chunk.toString()) as { baseUrl: string; appKey: string }),
  ),
);
const env = { ...process.env, FLASHDUTY_BASE_URL: baseUrl, FLASHDUTY_APP_KEY: appKey };

/** Milliseconds from spawning `args` to its first line on stdout. */
function firstLine(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) {
        resolve(performance.now() - started);
        child.kill();
      }
    });
    child.once('exit', (code) => {
      if (!out.includes('\n')) reject(new Error(`${args.join(' ')} printed no line (exit ${code})`));
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const bin = [BIN, 'incidents', 'list', '--since', '7d', '--json'];
const node = [script];
await firstLine(bin); // warm the disk cache
await firstLine(node);
const times = { bin: [] as number[], node: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  for (const which of round % 2 ? (['node', 'bin'] as const) : (['bin', 'node'] as const)) {
    times[which].push(await firstLine(which === 'bin' ? bin : node));
  }
}
console.log(`Time to the first incident line, ${ROUNDS} rounds interleaved, against flashduty mock on loopback`);
console.log(`node script (import flashduty-sdk, listIncidents)   ${median(times.node).toFixed(0).padStart(5)} ms`);
console.log(
  `flashduty incidents list --json                      ${median(times.bin).toFixed(0).padStart(5)} ms   ${(median(times.bin) / median(times.node)).toFixed(2)}× the script`,
);

// What the bin loaded for the call.
const trace = path.join(dir, 'imports.txt');
spawnSync(process.execPath, ['--import', TRACE, ...bin], { env: { ...env, IMPORT_TRACE: trace }, stdio: 'ignore' });
const loaded = [
  ...new Set(
    readFileSync(trace, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:')),
  ),
];
const text = loaded.map((url) => readFileSync(fileURLToPath(url), 'utf8')).join('\n');
const markers = {
  'the mock': 'function createMockService(',
  'the webhook receiver': 'class WebhookReceiver',
  zod: 'ZodMini',
};
for (const [what, marker] of Object.entries(markers)) {
  console.log(`loaded ${what}: ${text.includes(marker) ? 'YES' : 'no'} (${loaded.length} files loaded)`);
}
mock.kill();
