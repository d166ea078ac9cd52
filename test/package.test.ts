// The built dist/ as users get it: require() and import of all three entry points, on this
// machine's Node 20 and on Node 24 (the `node` package from npm).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const built = existsSync('dist/index.js') && existsSync('dist/index.cjs');

describe.runIf(built)('the built package', () => {
  const runtimes: Array<[string, string, string[]]> = [
    ['node 20 (this machine)', process.execPath, []],
    ['node 24', 'npx', ['-y', 'node@24']],
  ];
  for (const [name, command, prefix] of runtimes) {
    for (const script of ['smoke.cjs', 'smoke.mjs']) {
      it(`${script} on ${name}`, { timeout: 120_000 }, async () => {
        const { stdout } = await run(command, [...prefix, `test/package/${script}`], { timeout: 110_000 });
        expect(stdout).toMatch(new RegExp(`${script.endsWith('cjs') ? 'cjs' : 'esm'} ok on node v${name.match(/\d+/)?.[0]}`));
      });
    }
  }
});

it('dist exists (npm test builds it first)', () => {
  expect(built).toBe(true);
});
