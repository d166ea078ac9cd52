// Runs after tsup: the published types may import msw (the testing entry's `handlers`), an optional
// peer. A TypeScript user without msw and with `skipLibCheck` off would get TS2307 from our .d.ts
// files, so every import from msw there gets a `@ts-ignore` (TypeScript honours it in declaration
// files): with msw installed the types are msw's own, without it `handlers` is typed `any` and
// nothing else changes. rollup-plugin-dts drops comments from src, hence this step on dist.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const OPTIONAL_PEERS = ['msw'];
const MARK = '// @ts-ignore optional peer dependency: these types compile without it installed';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const peer = new RegExp(`^(?:import|export) .* from '(?:${OPTIONAL_PEERS.join('|')})(?:/[^']*)?';$`);

let patched = 0;
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !/\.d\.c?ts$/.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const lines = readFileSync(file, 'utf8').split('\n');
  const out = lines.flatMap((line, i) => (peer.test(line) && lines[i - 1] !== MARK ? [MARK, line] : [line]));
  if (out.length !== lines.length) {
    writeFileSync(file, out.join('\n'));
    patched++;
  }
}
if (patched === 0) {
  // The testing entry imports msw's types today; if that ever stops, this step (and its test) can go.
  console.warn('optional-peer-types: no declaration file imports an optional peer');
}
