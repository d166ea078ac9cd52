// What `npm test` needs beyond node_modules, made present before the first test runs (npm runs this
// as `pretest`; `npm install` runs it with `--prism` as `prepare`). The tests start real parts of
// their own: redis-server and redis-cli (Debian's redis-server package), a headless Chromium, Prism
// (tools/prism, pinned by its own lock), and Bun, Deno and workerd from the devDependencies. A part
// that is missing is installed where this machine allows it (root with apt-get); elsewhere this stops
// at once and says what to install, on Debian and on macOS. No test is skipped for a missing part:
// the tests that need it would fail instead, later and less clearly. Plain Node, no dependencies, so
// that it can say "run npm install" before there is anything installed.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PRISM = path.join(root, 'tools/prism/node_modules/@stoplight/prism-cli/dist/index.js');
/** Where test/integration/package/browser.test.ts looks for Chromium (the same expression). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Stops with one message, before anything is run. */
function stop(message) {
  console.error(`\nnpm test cannot run yet: ${message}\n`);
  process.exit(1);
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Runs a command, its own chatter hidden unless `loud` (errors always show). */
function run(command, args, { loud = true, ...options } = {}) {
  console.error(`> ${command} ${args.join(' ')}`);
  execFileSync(command, args, { stdio: ['ignore', loud ? 'inherit' : 'ignore', 'inherit'], cwd: root, ...options });
}

/** Prism lives in tools/prism with its own lock (185 packages that nothing else needs). */
function ensurePrism() {
  if (existsSync(PRISM)) return;
  // `prepare` also runs where this repository is installed as a git dependency of another project:
  // Prism is for this repository's own tests only.
  if (process.env.INIT_CWD && path.resolve(process.env.INIT_CWD) !== root) return;
  run('npm', ['ci', '--prefix', 'tools/prism', '--no-audit', '--no-fund', '--loglevel=error']);
}

/** Debian's packages the tests start: redis-server (with redis-cli) and chromium. */
function ensureSystemPackages() {
  const missing = [];
  if (!onPath('redis-server') || !onPath('redis-cli')) missing.push('redis-server');
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (process.platform !== 'linux' || !isRoot || !onPath('apt-get')) {
    stop(
      `the tests start a real ${missing.join(' and a real ')}, and this machine has ${missing.length > 1 ? 'neither' : 'none'}` +
        ` (this script installs them itself only as root on Debian or Ubuntu).\n` +
        `  Debian/Ubuntu: sudo apt-get install -y ${missing.join(' ')}\n` +
        `  macOS:         ${missing.includes('redis-server') ? 'brew install redis' : ''}${missing.length > 1 ? ' && ' : ''}` +
        `${missing.includes('chromium') ? 'brew install --cask chromium && export CHROMIUM_PATH=/Applications/Chromium.app/Contents/MacOS/Chromium' : ''}\n` +
        `then run npm test again.`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env, loud: false });
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env, loud: false });
  // A redis-server started by the package's own service would only compete for memory: the tests start their own.
  if (missing.includes('redis-server') && onPath('systemctl'))
    spawnSync('systemctl', ['stop', 'redis-server'], { stdio: 'ignore' });
}

/** Bun, Deno and workerd come with `npm install` (platform packages their install scripts pick). */
function checkRuntimes() {
  for (const runtime of ['bun', 'deno', 'workerd']) {
    const binary = path.join(root, 'node_modules/.bin', runtime);
    if (spawnSync(binary, ['--version'], { stdio: 'ignore' }).status !== 0) {
      stop(
        `node_modules/.bin/${runtime} does not run. The runtime tests start it; it comes with npm install` +
          ` (not with --ignore-scripts): run npm install (or npm rebuild ${runtime === 'workerd' ? 'workerd' : runtime}) and then npm test.`,
      );
    }
  }
}

if (!existsSync(path.join(root, 'node_modules'))) stop('run npm install first (npm install && npm test).');
ensurePrism();
if (!process.argv.includes('--prism')) {
  ensureSystemPackages();
  checkRuntimes();
}
