// `npm run bench` (part): what importing the package costs a Node process, against importing ky alone
// (the transport under the client), each in a fresh process, interleaved rounds, medians. The target
// of the issue: flashduty-sdk ≤ 1.3 × ky. zod/mini alone is printed beside them, since the entry's
// exported schemas (IncidentInfoSchema, …) need it at import.

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROUNDS = 15;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const contenders: Array<[name: string, specifier: string]> = [
  // The loader's own start: what every first import pays, whatever it imports.
  ['an empty module', 'data:text/javascript,'],
  ['ky', 'ky'],
  ['zod/mini', 'zod/mini'],
  ['flashduty-sdk (dist/index.js)', pathToFileURL(path.join(root, 'dist', 'index.js')).href],
  ['flashduty-sdk/webhooks', pathToFileURL(path.join(root, 'dist', 'webhooks', 'index.js')).href],
];

/** Milliseconds one fresh process spends in `await import(specifier)`, measured inside that process. */
function importTime(specifier: string): number {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' }));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

for (const [, specifier] of contenders) importTime(specifier); // warm the file cache
const samples = new Map<string, number[]>(contenders.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, specifier] of contenders) samples.get(name)?.push(importTime(specifier));
}
console.log(`\nImport time in a fresh Node ${process.version} process, ${ROUNDS} interleaved rounds, medians\n`);
const ky = median(samples.get('ky') ?? []);
const empty = median(samples.get('an empty module') ?? []);
for (const [name] of contenders) {
  const ms = median(samples.get(name) ?? []);
  const net = `${((ms - empty) / (ky - empty)).toFixed(2)}× ky less the empty import`;
  console.log(`${name.padEnd(32)} ${ms.toFixed(1).padStart(7)} ms   ${(ms / ky).toFixed(2)}× ky   ${net}`);
}
