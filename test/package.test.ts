// The package as users install it: `npm pack`, installed into a fresh project, then loaded with
// import and require (Node 20 and 24) and type-checked with moduleResolution node16 and bundler.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const project = mkdtempSync(path.join(tmpdir(), 'fd-consumer-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

beforeAll(async () => {
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', project], { cwd: root });
  const tarball = path.join(project, stdout.trim().split('\n').at(-1) as string);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // Only what a user adds: the tarball, msw for the testing entry's handlers, and TypeScript.
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, 'msw@2.15.0', 'typescript@5.9.3', '@types/node@20'], {
    cwd: project,
    timeout: 170_000,
  });
  for (const file of ['run-smoke.cjs', 'smoke.cjs', 'smoke.mjs', 'consumer.ts', 'consumer-cjs.cts']) {
    copyFileSync(path.join(root, 'test/package', file), path.join(project, file));
  }
  const base = { strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], types: ['node'], skipLibCheck: false };
  writeFileSync(path.join(project, 'tsconfig.node16.json'), JSON.stringify({ compilerOptions: { ...base, module: 'node16', moduleResolution: 'node16' }, files: ['consumer.ts', 'consumer-cjs.cts'] }));
  writeFileSync(path.join(project, 'tsconfig.bundler.json'), JSON.stringify({ compilerOptions: { ...base, module: 'esnext', moduleResolution: 'bundler' }, files: ['consumer.ts'] }));
}, 180_000);

describe('the packed package in a fresh project', () => {
  const runtimes: Array<[string, string, string[]]> = [
    ['20', process.execPath, []],
    ['24', 'npx', ['-y', 'node@24']],
  ];
  for (const [version, command, prefix] of runtimes) {
    for (const script of ['smoke.cjs', 'smoke.mjs']) {
      it(`${script.endsWith('cjs') ? 'require()' : 'import'} of all three entries on Node ${version}`, { timeout: 120_000 }, async () => {
        const { stdout } = await run(command, [...prefix, script], { cwd: project, timeout: 110_000 });
        expect(stdout).toMatch(new RegExp(`${script.endsWith('cjs') ? 'cjs' : 'esm'} ok on node v${version}\\.`));
      });
    }
  }

  it.each(['node16', 'bundler'])('type-checks a TypeScript consumer with moduleResolution %s', { timeout: 120_000 }, async (resolution) => {
    const tsc = path.join(project, 'node_modules/typescript/bin/tsc');
    await expect(run(process.execPath, [tsc, '-p', `tsconfig.${resolution}.json`], { cwd: project })).resolves.toBeDefined();
  });

  it('ships dist, README and CHANGELOG only', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json'], { cwd: root });
    const files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((f) => f.path) ?? [];
    expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(['CHANGELOG.md', 'README.md', 'package.json']);
    expect(files).toContain('dist/index.d.cts');
  });
});
