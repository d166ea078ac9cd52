// Runs after tsup: the CommonJS build's declarations (`.d.cts`), written from the ESM build's. tsup
// would build them with a TypeScript program and rollup pass of their own, 26 CPU-seconds of every
// build for files whose text is the same but for their relative imports (`./x.js` → `./x.cjs`, which
// TypeScript resolves to `./x.d.cts`); checked once against tsup's own output, file by file.
// attw (`npm run lint:package`) and the package test check what a CommonJS user then reads.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
/** A relative module specifier ending in `.js`, in an import or export of a declaration file. */
const RELATIVE_JS = /((?:from|import) '\.{1,2}\/[^']*)\.js'/g;

let written = 0;
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const file = path.join(entry.parentPath, entry.name);
  // The command line is ESM only (bin/flashduty.js imports it); nothing requires it.
  if (path.relative(dist, file).startsWith(`cli${path.sep}`)) continue;
  const text = readFileSync(file, 'utf8').replace(RELATIVE_JS, "$1.cjs'");
  writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), text);
  written++;
}
if (written === 0) throw new Error('cjs-types: no declaration file in dist/ (run tsup first)');
