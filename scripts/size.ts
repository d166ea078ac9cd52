// `npm run size`: what an app pays, min+gzip, for each entry of the built package with its
// dependencies, bundled two ways with code splitting: by rollup (the bundler behind Vite's production
// builds; minified by esbuild) and by esbuild (minified by itself), which splits by file and so keeps
// up front any file that a lazy chunk shares with the entry. Code behind a dynamic import (`validate:
// 'deep'`, the OpenAPI's request schemas, the paging walks) is its own chunk, loaded only when used,
// and reported apart. Exits 1 when an entry goes over its budget with either bundler.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, transform } from 'esbuild';
import commonjs from '@rollup/plugin-commonjs';
import { rollup } from 'rollup';

interface Case {
  name: string;
  code: string;
  /** Budget for the code loaded up front, in bytes; none = reported only. */
  budget?: number;
}

const CASES: Case[] = [
  // The client up front: its options, the namespaces and their named methods (one line each), the page
  // promises; the request loop (ky, the wire rules), the generated tables, the params' checks and the
  // paging code load with the first call.
  { name: 'client: import { Flashduty }', code: "export { Flashduty } from 'flashduty-sdk';", budget: 12 * 1024 },
  { name: 'whole entry: import * from flashduty-sdk', code: "export * from 'flashduty-sdk';" },
  {
    name: 'manifest: import { OPERATIONS } from flashduty-sdk/operations',
    code: "export { OPERATIONS } from 'flashduty-sdk/operations';",
  },
  // What a receiver pays up front: everything a delivery runs (no part of the receiver loads apart
  // for size; the adapters load with the member that offers them, as they import the receiver).
  {
    name: 'receiver: import { WebhookReceiver }',
    code: "export { WebhookReceiver } from 'flashduty-sdk/webhooks';",
    budget: 16 * 1024,
  },
  // The whole webhooks entry: the receiver, the queue handoff, replay, every kind and custom bodies with their lint.
  {
    name: 'webhooks: import * from flashduty-sdk/webhooks',
    code: "export * from 'flashduty-sdk/webhooks';",
    budget: 18 * 1024,
  },
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES_WITHOUT_SIDE_EFFECTS = /^(flashduty-sdk|ky|zod)(\/|$)/;

interface Size {
  upFront: number;
  onDemand: number;
}

/** Our entries by the package's exports map (the built files, never src/ through tsconfig paths). */
function ownEntry(source: string): string | undefined {
  const own = /^flashduty-sdk(\/\w+)?$/.exec(source);
  if (!own) return undefined;
  // `operations` is a file of its own (dist/operations.js); the other entries are folders.
  return own[1] === '/operations'
    ? path.join(root, 'dist/operations.js')
    : path.join(root, 'dist', own[1] ?? '', 'index.js');
}

async function measureRollup(code: string): Promise<Size> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fd-size-'));
  const input = path.join(dir, 'entry.mjs');
  writeFileSync(input, code);
  try {
    const bundle = await rollup({
      input,
      onwarn: () => {},
      plugins: [
        commonjs(), // in case a dependency ships CommonJS only (none does today)
        {
          name: 'node-resolve-lite',
          resolveId(source, importer) {
            if (!importer || source.startsWith('.') || path.isAbsolute(source)) return null;
            const parent =
              importer === input ? pathToFileURL(path.join(root, 'package.json')).href : pathToFileURL(importer).href;
            return {
              id: ownEntry(source) ?? fileURLToPath(import.meta.resolve(source, parent)),
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

async function measureEsbuild(code: string): Promise<Size> {
  const result = await build({
    stdin: { contents: code, resolveDir: root, loader: 'js' },
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    outdir: path.join(tmpdir(), 'fd-size-esbuild'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'own-entries',
        setup(build) {
          build.onResolve({ filter: /^flashduty-sdk(\/\w+)?$/ }, (args) => ({ path: ownEntry(args.path) as string }));
        },
      },
    ],
  });
  const outputs = result.metafile.outputs;
  // Up front: the entry's chunk and every chunk it imports statically, transitively.
  // The stdin entry: lazily loaded files are entry points too (of their dynamic imports).
  const entry = Object.keys(outputs).find((file) => outputs[file]?.entryPoint === '<stdin>');
  const upFrontFiles = new Set<string>();
  const visit = (file: string | undefined): void => {
    if (file === undefined || upFrontFiles.has(file)) return;
    upFrontFiles.add(file);
    for (const imported of outputs[file]?.imports ?? [])
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(entry);
  const size: Size = { upFront: 0, onDemand: 0 };
  for (const file of result.outputFiles) {
    const name = path.relative(process.cwd(), file.path);
    if (!name.endsWith('.js')) continue;
    const bytes = gzipSync(file.contents, { level: 9 }).length;
    if (upFrontFiles.has(name)) size.upFront += bytes;
    else size.onDemand += bytes;
  }
  return size;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
let failed = false;
console.log('min+gzip, with dependencies, code splitting: rollup (esbuild minify) | esbuild\n');
for (const c of CASES) {
  const cells: string[] = [];
  for (const measure of [measureRollup, measureEsbuild]) {
    const { upFront, onDemand } = await measure(c.code);
    const over = c.budget !== undefined && upFront > c.budget;
    failed ||= over;
    cells.push(`${kb(upFront)}${over ? ' OVER' : ''}${onDemand ? ` (+ ${kb(onDemand)} lazy)` : ''}`);
  }
  const budget = c.budget === undefined ? '' : ` budget ${kb(c.budget)}`;
  console.log(`${c.name.padEnd(62)} ${cells.map((cell) => cell.padEnd(28)).join(' | ')}${budget}`);
}
process.exit(failed ? 1 : 0);
