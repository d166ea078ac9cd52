// The package as users install it: `npm pack`, installed into fresh projects (one with msw, one
// without), then loaded with import and require (Node 20 and 24) and type-checked with
// moduleResolution node16 (`skipLibCheck` off: our declarations are checked) and bundler. Also
// what the tarball holds: the build, the docs and the copy-paste examples (whose dependency-free
// recipes must type-check as shipped).
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../../src/testing/index.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'fd-consumer-'));
/** A project with what a user adds for the testing entry's handlers: msw. */
const project = path.join(scratch, 'with-msw');
/** A project without msw: the package's types must still compile and the mock still serve HTTP. */
const plain = path.join(scratch, 'without-msw');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
/** The repository's package.json before any pack: packing strips its scripts and must put them back. */
const manifestBefore = readFileSync(path.join(root, 'package.json'), 'utf8');

/** The examples of the repository (their source files), as paths from the package root. */
const examples = readdirSync(path.join(root, 'examples'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.split(path.sep).includes('node_modules'))
  .map((file) => `examples/${file.split(path.sep).join('/')}`)
  .sort();
/** Shipped examples that import nothing but the SDK and Node: a project without extras compiles them. */
const standaloneExamples = examples.filter((file) =>
  [...readFileSync(path.join(root, file), 'utf8').matchAll(/from '([^']+)'/g)].every(([, from]) =>
    /^(node:|flashduty-sdk)/.test(from as string),
  ),
);

const tsc = (dir: string, config: string) =>
  run(process.execPath, [path.join(dir, 'node_modules/typescript/bin/tsc'), '-p', config], { cwd: dir });

function consumer(
  dir: string,
  dependencies: string[],
  files: string[],
  checks: Record<string, { resolution: string; files: string[]; skipLibCheck?: boolean }>,
) {
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  for (const file of files)
    copyFileSync(path.join(root, 'test/integration/package/consumer', file), path.join(dir, file));
  const base = {
    strict: true,
    noEmit: true,
    target: 'es2022',
    lib: ['es2022', 'dom'],
    types: ['node'],
  };
  for (const [name, { resolution, files: checked, skipLibCheck = false }] of Object.entries(checks)) {
    const module = resolution === 'node16' ? 'node16' : 'esnext';
    writeFileSync(
      path.join(dir, `tsconfig.${name}.json`),
      JSON.stringify({
        compilerOptions: { ...base, module, moduleResolution: resolution, skipLibCheck },
        files: checked,
      }),
    );
  }
  return run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...dependencies], {
    cwd: dir,
    timeout: 170_000,
  });
}

beforeAll(async () => {
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', scratch], { cwd: root });
  const tarball = path.join(scratch, stdout.trim().split('\n').at(-1) as string);
  const typescript = ['typescript@5.9.3', '@types/node@20'];
  await Promise.all([
    consumer(
      project,
      [tarball, 'msw@2.15.0', ...typescript],
      ['run-smoke.cjs', 'smoke.cjs', 'smoke.mjs', 'consumer.ts', 'consumer-cjs.cts', 'consumer-msw.ts'],
      {
        node16: { resolution: 'node16', files: ['consumer.ts', 'consumer-cjs.cts', 'consumer-msw.ts'] },
        // The declarations are checked (skipLibCheck off) by the node16 programs; this one checks
        // that the consumers compile as a bundler resolves the package. Checking every library
        // again here took 12 of its 15 s, most of it msw's type-fest and lib.dom, none of it ours.
        bundler: { resolution: 'bundler', files: ['consumer.ts', 'consumer-msw.ts'], skipLibCheck: true },
      },
    ),
    // node16 reads both the .d.ts (consumer.ts is ESM here) and the .d.cts (consumer-cjs.cts) files;
    // bundler would read the same .d.ts again.
    consumer(
      plain,
      [tarball, ...typescript, 'tsx@4.23.15'],
      ['no-msw.mjs', 'consumer.ts', 'consumer-cjs.cts', 'consumer-testing.cts'],
      {
        // One program for the consumers and the shipped examples: each tsc run reads the SDK's
        // declarations anew (the OpenAPI's types alone are 1 MB), which took ~12 s a run.
        node16: {
          resolution: 'node16',
          files: [
            'consumer.ts',
            'consumer-cjs.cts',
            'consumer-testing.cts',
            ...standaloneExamples.map((file) => `node_modules/flashduty-sdk/${file}`),
          ],
        },
      },
    ),
  ]);
}, 180_000);

describe('the packed package in a fresh project', () => {
  const runtimes: Array<[string, string, string[]]> = [
    ['20', process.execPath, []],
    ['24', 'npx', ['-y', 'node@24']],
  ];
  for (const [version, command, prefix] of runtimes) {
    for (const script of ['smoke.cjs', 'smoke.mjs']) {
      it(
        `${script.endsWith('cjs') ? 'require()' : 'import'} of every entry on Node ${version}`,
        { timeout: 120_000 },
        async () => {
          const { stdout } = await run(command, [...prefix, script], { cwd: project, timeout: 110_000 });
          expect(stdout).toMatch(new RegExp(`${script.endsWith('cjs') ? 'cjs' : 'esm'} ok on node v${version}\\.`));
        },
      );
    }
  }

  it.each(['node16', 'bundler'])(
    'type-checks a TypeScript consumer with moduleResolution %s',
    { timeout: 180_000 },
    async (resolution) => {
      await expect(tsc(project, `tsconfig.${resolution}.json`)).resolves.toBeDefined();
    },
  );
});

describe('the packed package in a project without msw', () => {
  it('has no msw to find', () => {
    expect(existsSync(path.join(plain, 'node_modules/msw'))).toBe(false);
    expect(existsSync(path.join(plain, 'node_modules/flashduty-sdk/package.json'))).toBe(true);
  });

  it(
    'type-checks ESM and CommonJS consumers of all three entries, and the shipped examples that need nothing but the SDK as a user opens them (moduleResolution node16)',
    { timeout: 150_000 },
    async () => {
      expect(standaloneExamples.length).toBeGreaterThan(6);
      await expect(tsc(plain, 'tsconfig.node16.json')).resolves.toBeDefined();
    },
  );

  // No app key: the demo runs against the mock service, as it does for a user trying the package.
  const { FLASHDUTY_APP_KEY: _key, FLASHDUTY_BASE_URL: _url, ...withoutService } = process.env;
  it(
    'runs the shipped demo as the README says (tsx on node_modules/flashduty-sdk/examples)',
    { timeout: 60_000 },
    async () => {
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', 'node_modules/flashduty-sdk/examples/demo.ts'],
        {
          cwd: plain,
          env: withoutService,
          timeout: 55_000,
        },
      );
      expect(stdout).toContain('running against the mock service');
      expect(stdout).toMatch(/received i_rslv/);
    },
  );

  it(
    'runs the bin as npx does, from the installed package (and import does not load it)',
    { timeout: 60_000 },
    async () => {
      const { stdout } = await run('npx', ['--no-install', 'flashduty', 'webhooks', 'lint', '--help'], {
        cwd: plain,
        timeout: 50_000,
      });
      expect(stdout).toMatch(/^check a custom-body template/);
      const sdk = readFileSync(path.join(plain, 'node_modules/flashduty-sdk/dist/index.js'), 'utf8');
      expect(sdk).not.toMatch(/cli\/main|parseArgs/);
    },
  );

  it(
    "runs the README's CommonJS snippet as it is, in a CommonJS project (require, no top-level await)",
    { timeout: 60_000 },
    async () => {
      const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
      const snippet = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
      expect(snippet).toMatch(/require\('flashduty-sdk'\)/);
      writeFileSync(path.join(plain, 'readme-snippet.cjs'), snippet as string);
      const service = createMockService({ seed: 5, incidents: 30 });
      const server = await service.listen();
      try {
        const { stdout } = await run(process.execPath, ['readme-snippet.cjs'], {
          cwd: plain,
          env: { ...withoutService, FLASHDUTY_APP_KEY: service.appKey, FLASHDUTY_BASE_URL: server.url },
          timeout: 50_000,
        });
        expect(stdout.trim()).toMatch(/^\d+$/);
        expect(service.callLog.filter((call) => call.path === '/incident/list')).toHaveLength(1);
      } finally {
        await server.close();
      }
    },
  );

  it("carries no script pointing at a file the tarball lacks, and leaves the repository's package.json as it was", () => {
    const installed = path.join(plain, 'node_modules/flashduty-sdk');
    const published = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
      name: string;
    };
    expect(published.name).toBe('flashduty-sdk');
    const missing = Object.entries(published.scripts ?? {}).flatMap(([name, line]) =>
      [...line.matchAll(/[\w.@-]+(?:\/[\w.@-]+)+\.[cm]?[jt]s\b/g)]
        .map(([file]) => file)
        .filter((file) => !existsSync(path.join(installed, file)))
        .map((file) => `${name}: ${file}`),
    );
    expect(missing).toEqual([]);
    expect(published.scripts).toBeUndefined(); // scripts/pack-manifest.mjs drops them all
    expect(readFileSync(path.join(root, 'package.json'), 'utf8')).toBe(manifestBefore);
    expect(existsSync(path.join(root, '.package.json.packing'))).toBe(false);
  });

  it('imports the testing entry and serves the mock over HTTP', { timeout: 60_000 }, async () => {
    const { stdout } = await run(process.execPath, ['no-msw.mjs'], { cwd: plain, timeout: 50_000 });
    expect(stdout).toMatch(/^no-msw ok: \d+ incidents$/m);
  });
});

describe('the tarball', () => {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  let files: string[] = [];
  beforeAll(async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json'], { cwd: root });
    files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((f) => f.path) ?? [];
  }, 60_000);

  it('holds README, CHANGELOG, LICENSE, the bin, the examples and the build, nothing else', () => {
    expect(files.filter((f) => !f.startsWith('dist/') && !f.startsWith('examples/')).sort()).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'bin/flashduty.js',
      'package.json',
    ]);
    // Every recipe of examples/ as source, and only that: no dependencies, lock files, builds or env
    // files that a local run of an example (Next.js, wrangler) leaves beside it.
    expect(examples.length).toBeGreaterThan(12);
    expect(files.filter((f) => f.startsWith('examples/')).sort()).toEqual(
      [...examples, 'examples/observability/grafana-dashboard.json'].sort(),
    );
    // Code and types only: no source maps (see tsup.config.ts), no leftovers of other builds.
    expect(files.filter((f) => !/^dist\/.+\.(js|cjs|d\.ts|d\.cts)$/.test(f) && f.startsWith('dist/'))).toEqual([]);
  });

  it('holds every file package.json points to', () => {
    const targets: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === 'string') targets.push(value.replace(/^\.\//, ''));
      else if (value && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk([manifest.main, manifest.module, manifest.types, manifest.exports, manifest.bin]);
    expect(targets.length).toBeGreaterThan(12);
    expect(targets.filter((target) => !files.includes(target))).toEqual([]);
  });

  it('publishes no member marked @internal', () => {
    const declarations = files.filter((f) => /\.d\.c?ts$/.test(f));
    expect(declarations.length).toBeGreaterThan(0);
    for (const file of declarations) {
      const text = readFileSync(path.join(root, file), 'utf8');
      expect(text, file).not.toMatch(/@internal|\b_post\(|\bwithItems\(/);
    }
  });

  it("holds one file built apart (tsup.config.ts), which throws no class of the SDK's error tree", () => {
    // Such a file has its own copy of what it imports: an error class of its own would fail
    // `instanceof` against the entry's class (test/integration/package/error-tree.test.ts).
    const apart = files.filter((f) => /^dist\/[\w-]+\.js$/.test(f) && !/^dist\/(index|operations)\.js$/.test(f));
    const named = apart.filter((f) => !/-[A-Z0-9]{8}\.js$/.test(f)); // chunks are hashed; files built apart are not
    expect(named).toEqual(['dist/schemas-deep.js']);
    const thrown = [...readFileSync(path.join(root, 'dist/schemas-deep.js'), 'utf8').matchAll(/\bnew (\w*Error)\(/g)];
    expect(thrown.map((m) => m[1]).filter((name) => name !== 'Error' && name !== 'TypeError')).toEqual([]);
  });

  it('is under the license package.json names', () => {
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(path.join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
  });
});
