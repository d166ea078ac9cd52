// `npm run size`: what an app pays, min+gzip, for each entry of the built package with its
// dependencies, bundled by rollup (the bundler behind Vite's production builds) and minified by
// esbuild. Code behind a dynamic import (the zod schemas of `validate: 'deep'`) is its own chunk,
// loaded only when used, and reported apart. Exits 1 when an entry goes over its budget.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { transform } from 'esbuild';
import commonjs from '@rollup/plugin-commonjs';
import { rollup } from 'rollup';

interface Case {
  name: string;
  code: string;
  /** Budget for the code loaded up front, in bytes; none = reported only. */
  budget?: number;
}

const CASES: Case[] = [
  { name: 'client: import { Flashduty }', code: "export { Flashduty } from 'flashduty-sdk';", budget: 16 * 1024 },
  { name: 'whole entry: import * from flashduty-sdk', code: "export * from 'flashduty-sdk';" },
  // 12 kB until wave 2; the entry now also holds the queue handoff, replay, every kind and custom bodies with their lint.
  { name: 'webhooks: import * from flashduty-sdk/webhooks', code: "export * from 'flashduty-sdk/webhooks';", budget: 14 * 1024 },
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES_WITHOUT_SIDE_EFFECTS = /^(flashduty-sdk|ky|zod|eventemitter3)(\/|$)/;

async function measure(code: string): Promise<{ upFront: number; onDemand: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fd-size-'));
  const input = path.join(dir, 'entry.mjs');
  writeFileSync(input, code);
  try {
    const bundle = await rollup({
      input,
      onwarn: () => {},
      plugins: [
        commonjs(), // eventemitter3's ESM wrapper imports its CommonJS build
        {
          name: 'node-resolve-lite',
          resolveId(source, importer) {
            if (!importer || source.startsWith('.') || path.isAbsolute(source)) return null;
            const parent = importer === input ? pathToFileURL(path.join(root, 'package.json')).href : pathToFileURL(importer).href;
            // Our own entries by the package's exports map (the built files, never src/ through tsconfig paths).
            const own = /^flashduty-sdk(\/\w+)?$/.exec(source);
            return {
              id: own ? path.join(root, 'dist', own[1] ?? '', 'index.js') : fileURLToPath(import.meta.resolve(source, parent)),
              moduleSideEffects: !PACKAGES_WITHOUT_SIDE_EFFECTS.test(source),
            };
          },
        },
      ],
    });
    const { output } = await bundle.generate({ format: 'es' });
    let upFront = 0;
    let onDemand = 0;
    for (const chunk of output) {
      if (chunk.type !== 'chunk') continue;
      const minified = await transform(chunk.code, { minify: true, format: 'esm', target: 'es2022' });
      const bytes = gzipSync(minified.code, { level: 9 }).length;
      if (chunk.isDynamicEntry) onDemand += bytes;
      else upFront += bytes;
    }
    return { upFront, onDemand };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
let failed = false;
console.log('min+gzip, with dependencies (rollup + esbuild minify)\n');
for (const c of CASES) {
  const { upFront, onDemand } = await measure(c.code);
  const over = c.budget !== undefined && upFront > c.budget;
  failed ||= over;
  const budget = c.budget === undefined ? '' : ` (budget ${kb(c.budget)}${over ? ', OVER' : ', ok'})`;
  const lazy = onDemand ? `; + ${kb(onDemand)} loaded on demand` : '';
  console.log(`${c.name.padEnd(48)} ${kb(upFront)}${budget}${lazy}`);
}
process.exit(failed ? 1 : 0);
