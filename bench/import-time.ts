// `npm run bench` (part): what importing the package costs a Node process, against importing ky alone
// (the transport under the client), each in a fresh process, interleaved rounds, medians. The target
// of the issue: flashduty-sdk ≤ 1.3 × ky. zod/mini alone is printed beside them, since the entry's
// exported schemas (IncidentInfoSchema, …) need it at import. The request loop (ky included) loads
// with a client's first call, so the entry is also timed with that chunk loaded: what a script that
// makes one call pays in all.

import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROUNDS = 15;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const dist = (file: string) => pathToFileURL(path.join(root, 'dist', file)).href;
const loopChunk = readdirSync(path.join(root, 'dist')).find((file) => /^request-loop-\w+\.js$/.test(file));
if (!loopChunk) throw new Error('dist/request-loop-*.js not found: run `npm run build` first');

const contenders: Array<[name: string, specifiers: string[]]> = [
  // The loader's own start: what every first import pays, whatever it imports.
  ['an empty module', ['data:text/javascript,']],
  ['ky', ['ky']],
  ['zod/mini', ['zod/mini']],
  ['flashduty-sdk (dist/index.js)', [dist('index.js')]],
  ['  + its request loop', [dist('index.js'), dist(loopChunk)]],
  ['flashduty-sdk/webhooks', [dist('webhooks/index.js')]],
];

/** Milliseconds one fresh process spends importing `specifiers` in turn, measured inside that process. */
function importTime(specifiers: string[]): number {
  const imports = specifiers.map((specifier) => `await import(${JSON.stringify(specifier)});`).join(' ');
  const code = `const t = performance.now(); ${imports} process.stdout.write(String(performance.now() - t));`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' }));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

for (const [, specifiers] of contenders) importTime(specifiers); // warm the file cache
const samples = new Map<string, number[]>(contenders.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, specifiers] of contenders) samples.get(name)?.push(importTime(specifiers));
}
console.log(`\nImport time in a fresh Node ${process.version} process, ${ROUNDS} interleaved rounds, medians\n`);
const ky = median(samples.get('ky') ?? []);
const empty = median(samples.get('an empty module') ?? []);
for (const [name] of contenders) {
  const ms = median(samples.get(name) ?? []);
  const net = `${((ms - empty) / (ky - empty)).toFixed(2)}× ky less the empty import`;
  console.log(`${name.padEnd(32)} ${ms.toFixed(1).padStart(7)} ms   ${(ms / ky).toFixed(2)}× ky   ${net}`);
}
