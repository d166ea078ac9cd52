import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

const entry = {
  index: 'src/index.ts',
  operations: 'src/operations.ts',
  'webhooks/index': 'src/webhooks/index.ts',
  'testing/index': 'src/testing/index.ts',
};

const shared: Options = {
  entry,
  target: 'es2022',
  // No source maps: the output is not minified (names and structure as written, so stack traces
  // read as they are), and maps with their sources would be 60% of the package for stepping into TS.
  sourcemap: false,
  // Members marked @internal (the request loop, the receiver's pipeline) stay out of the published types.
  dts: { compilerOptions: { stripInternal: true } },
  treeshake: false,
  // Keep `node:http` as written: bare `http` cannot be told apart from a package by browser bundlers and Deno.
  removeNodeProtocol: false,
  external: ['msw', 'msw/node', 'msw/browser'],
};

// Code loaded on first use, in ESM: each file below is built as one self-contained file of its own,
// its dynamic import pointed at it. Were such a file a chunk of the main build, it would share files
// with what the entries also export statically (the schemas, `checkPayload`, `customBodyReader`),
// and an app bundled by esbuild with code splitting would load it up front (esbuild puts a file
// live in any chunk into a chunk shared with every entry that can reach it, used or not). With its
// own copy, an app loads it only when used (measured: scripts/size.ts). A copy holds no class that
// is told apart by `instanceof` elsewhere (FlashdutyError is recognised across copies by its brand).
const APART: Record<string, string> = {
  // `validate: 'deep'`: zod and the request schemas.
  'src/schemas/deep.ts': 'schemas-deep.js',
  // The receiver: why a payload is invalid (with the first invalid delivery), a custom body's keys
  // (when a receiver is made with one), the queue mode (when made with a queue, or a job runs).
  'src/webhooks/payload-problems.ts': 'webhooks-payload-problems.js',
  'src/webhooks/custom-body-keys.ts': 'webhooks-custom-body-keys.js',
  'src/webhooks/jobs.ts': 'webhooks-jobs.js',
  // The default state store (a receiver given a store of its own never loads it), and the spans (a
  // receiver in an app without a tracer provider never loads them).
  'src/webhooks/stores/memory.ts': 'webhooks-memory-store.js',
  'src/webhooks/span.ts': 'webhooks-span.js',
  // The metrics' instruments (an app without a meter provider never loads them).
  'src/webhooks/metric-instruments.ts': 'webhooks-metric-instruments.js',
  // The adapters behind `receiver.fetchHandler` (a Node app never loads it) and
  // `receiver.nodeMiddleware()` (an app on fetchHandler, Fastify or `receive()` never loads it).
  'src/webhooks/adapters/fetch.ts': 'webhooks-fetch-adapter.js',
  'src/webhooks/adapters/node.ts': 'webhooks-node-adapter.js',
};
/** How an import of a file built apart is written until the build knows where the importer landed. */
const APART_MARK = 'flashduty-sdk-apart:';

/** Every .js file under `dir`. */
function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return jsFiles(full);
    return entry.name.endsWith('.js') ? [full] : [];
  });
}

// zod is bundled in, the parts the schemas use: `zod/mini` itself loads zod's whole core and every
// locale, file by file, which made importing the package in Node cost 1.6× importing ky alone (the
// entry exports the schemas, so an import evaluates them). Bundled, the schemas are still zod's
// own (the user's zod parses and composes them); `zod` stays a dependency for the types.
const BUNDLED = ['zod'];

export default defineConfig([
  {
    ...shared,
    // The command line (bin/flashduty.js loads it): ESM only, in no `exports` entry, so that nothing imports it.
    entry: { ...entry, 'cli/main': 'src/cli/main.ts' },
    format: 'esm',
    clean: true,
    splitting: true,
    noExternal: BUNDLED,
    esbuildPlugins: [
      {
        name: 'apart',
        setup(build) {
          build.onResolve({ filter: /\.js$/ }, (args) => {
            if (args.kind !== 'dynamic-import') return undefined;
            const file = path.relative(process.cwd(), path.join(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
            const built = APART[file.split(path.sep).join('/')];
            return built ? { path: `${APART_MARK}${built}`, external: true } : undefined;
          });
        },
      },
    ],
    async onSuccess() {
      for (const [source, built] of Object.entries(APART)) {
        await build({
          entryPoints: [source],
          outfile: `dist/${built}`,
          bundle: true,
          format: 'esm',
          target: 'es2022',
          platform: 'neutral',
          mainFields: ['module', 'main'],
          logLevel: 'warning',
        });
      }
      // Each import of a file built apart, made relative to where its importer landed.
      const imported = new Set<string>();
      for (const file of jsFiles('dist')) {
        const text = readFileSync(file, 'utf8');
        if (!text.includes(APART_MARK)) continue;
        const fixed = text.replaceAll(new RegExp(`${APART_MARK}([\\w.-]+)`, 'g'), (_, built: string) => {
          imported.add(built);
          const relative = path.relative(path.dirname(file), path.join('dist', built)).split(path.sep).join('/');
          return relative.startsWith('.') ? relative : `./${relative}`;
        });
        writeFileSync(file, fixed);
      }
      // A file that no dynamic import reached was bundled as an ordinary chunk instead (a moved file,
      // tsup run from elsewhere): the up-front size would grow without a word, so the build fails.
      const missed = Object.values(APART).filter((built) => !imported.has(built));
      if (missed.length > 0) throw new Error(`tsup.config.ts APART: no dynamic import reached ${missed.join(', ')}`);
    },
  },
  {
    ...shared,
    format: 'cjs',
    // Its declarations are the ESM build's with `.cjs` imports: scripts/cjs-types.ts writes them.
    dts: false,
    splitting: false,
    // ky is ESM-only: left external, the CJS output would call a missing `default.create`.
    noExternal: ['ky', ...BUNDLED],
    esbuildPlugins: [
      {
        // The ESM loader of msw uses top-level await, which CJS cannot; swap in the require() twin.
        name: 'msw-loader-cjs',
        setup(build) {
          build.onResolve({ filter: /\/msw-loader\.js$/ }, (args) => ({
            path: path.join(args.resolveDir, 'msw-loader.cjs.ts'),
          }));
        },
      },
    ],
  },
]);
