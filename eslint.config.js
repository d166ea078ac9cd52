// Lint: typescript-eslint with type information (the project's tsconfig through the project
// service). The type-checked recommended set, with `no-floating-promises` and
// `no-misused-promises` as errors: a dropped `await` on a store call or a promise handed where a
// void callback is expected loses events silently and passes the type check. Formatting is
// Prettier's job (`npm run format`), not ESLint's.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      'dist/',
      'docs/',
      'coverage/',
      '.tmp/',
      // The README's and guides' snippets, written out and type-checked by scripts/snippets.ts.
      '.snippets/',
      // Written by `npm run generate` and compared with its output byte for byte by generate:check;
      // type-aware linting of the OpenAPI's types alone took 25 s of every npm test.
      'src/generated/',
      'src/testing/generated/',
      // Consumers of the packed package, type-checked in their own project by test/integration/package/package.test.ts.
      'test/integration/package/consumer/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `_`-prefixed parameters and bindings are deliberately unused (positional callbacks, rest omits).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Off: `async` without `await` is how this code turns a synchronous throw (a bad argument)
      // into a rejection, so callers see one failure channel.
      '@typescript-eslint/require-await': 'off',
      // TypeScript reports undefined names itself, with the right globals per file.
      'no-undef': 'off',
    },
  },
  {
    // Tests and benchmarks read untyped JSON (from child processes, the wire, fixtures) on purpose;
    // src keeps the no-unsafe-* rules (no `any` there).
    files: ['test/**', 'bench/**', 'examples/**', 'scripts/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JavaScript (this file) has no types to check against.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
