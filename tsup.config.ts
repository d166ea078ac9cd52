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

// `validate: 'deep'` (src/schemas/deep.ts) in ESM: one self-contained file, zod and the schemas
// bundled in. The main entry also exports the schemas, so it reaches zod; were the deep chunk to share
// those files, an app bundled by esbuild with code splitting would load them up front (esbuild puts
// a file live in any chunk into a chunk shared with every entry that can reach it, used or not).
// With its own copy, an app that never asks for 'deep' never loads zod (measured: scripts/size.ts).
const DEEP_FILE = 'schemas-deep.js';

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
        name: 'deep-apart',
        setup(build) {
          build.onResolve({ filter: /^\.\/deep\.js$/ }, (args) =>
            args.importer.endsWith(path.join('schemas', 'load-deep.ts'))
              ? { path: `./${DEEP_FILE}`, external: true }
              : undefined,
          );
        },
      },
    ],
    async onSuccess() {
      await build({
        entryPoints: ['src/schemas/deep.ts'],
        outfile: `dist/${DEEP_FILE}`,
        bundle: true,
        format: 'esm',
        target: 'es2022',
        platform: 'neutral',
        mainFields: ['module', 'main'],
        logLevel: 'warning',
      });
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
