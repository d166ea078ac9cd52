// The mock's start: `createMockService()` (the default 200 incidents), `listen()` and a first
// `client.members.list`, timed in a fresh Node process each round (the package already imported:
// its import is bench/import-time.ts's), the median of the rounds. Given the root of another
// checkout (built with `npm run build`), it times that one too, rounds interleaved, and prints the
// ratio: how the world's seeding is held to at most 1.5× the mock's start before it.
// Run: npm run build && node --import tsx bench/mock-start.ts [/path/to/other/checkout]

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROUNDS = 15;
const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const roots = [here, ...process.argv.slice(2).map((root) => path.resolve(root))];
const dir = mkdtempSync(path.join(tmpdir(), 'fd-mock-start-'));

/** A script that imports one checkout's build, then prints how long the start and the first call took (ms). */
function scriptFor(root: string, index: number): string {
  const file = path.join(dir, `start-${index}.mjs`);
  writeFileSync(
    file,
    `import { Flashduty } from ${JSON.stringify(path.join(root, 'dist/index.js'))};
import { createMockService } from ${JSON.stringify(path.join(root, 'dist/testing/index.js'))};
const started = performance.now();
const service = createMockService();
const server = await service.listen();
const client = new Flashduty({ appKey: service.appKey, baseUrl: server.url, logLevel: 'off' });
const page = await client.members.list({ limit: 100 });
const took = performance.now() - started;
if (page.items.length === 0) throw new Error('no members');
await server.close();
console.log(took.toFixed(2));
`,
  );
  return file;
}

const scripts = roots.map(scriptFor);
const times = roots.map((): number[] => []);
for (let round = 0; round < ROUNDS; round++) {
  scripts.forEach((script, i) => {
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${script}: ${run.stderr}`);
    times[i]?.push(Number(run.stdout.trim()));
  });
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
roots.forEach((root, i) => {
  const all = times[i] as number[];
  console.log(
    `${root}: median ${median(all).toFixed(1)} ms (${Math.min(...all).toFixed(1)}–${Math.max(...all).toFixed(1)}) over ${ROUNDS} runs`,
  );
});
if (roots.length > 1)
  console.log(`ratio: ${(median(times[0] as number[]) / median(times[1] as number[])).toFixed(2)}× the second`);
