import path from 'node:path';
import { defineConfig, type Options } from 'tsup';

const entry = {
  index: 'src/index.ts',
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

export default defineConfig([
  { ...shared, format: 'esm', clean: true, splitting: true },
  {
    ...shared,
    format: 'cjs',
    splitting: false,
    // ky is ESM-only: left external, the CJS output would call a missing `default.create`.
    noExternal: ['ky'],
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
