// `npm test`, whole, on a machine of a few cores. The build comes first (the tests, ESLint, tsc and
// the package checks read dist/), with the quick generated-code and architecture checks beside it.
// Then vitest runs in the foreground at normal priority, and the static checks (lint, types, format,
// docs, the package's exports, size budgets) run beside it at the lowest priority: the tests spend a
// fifth of their time waiting on Redis, child processes and timers, and the checks take that CPU
// instead of delaying the tests (one after another they cost 2 min of a 6.5 min run). A niced check
// cannot skew a test's timing: the scheduler gives it a core only when no test wants it.
//
// Each check's output is shown when it ends, in one piece, so that it never interleaves with
// vitest's; the run fails after everything ran when anything failed, and names every failure.
import { spawn } from 'node:child_process';
import { availableParallelism, constants, setPriority } from 'node:os';

/** Beside the build: checks that read only src/ and the generated files, quick. */
const WITH_BUILD = ['generate:check', 'architecture:check'];
/** Beside vitest, lowest priority first come first served (longest first). */
const BESIDE_TESTS = ['lint', 'typecheck', 'docs:check', 'format:check', 'lint:package', 'size:check'];
const slots = Math.max(1, Number(process.env.CHECKS_JOBS) || availableParallelism());

/** Runs `npm run <name>`; resolves with whether it passed, its output and its time. */
function run(name, { quiet = false, lowest = false, args = [] } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name, ...(args.length ? ['--', ...args] : [])], {
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    // Before npm starts the script: the script's processes inherit the priority.
    if (lowest) {
      try {
        setPriority(child.pid, constants.priority.PRIORITY_LOW);
      } catch {
        // Not allowed here (or no such process any more): it runs at normal priority.
      }
    }
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) =>
      resolve({
        name,
        ok: code === 0,
        why: signal ?? `exit ${code}`,
        output: Buffer.concat(output).toString(),
        seconds: (performance.now() - started) / 1000,
      }),
    );
  });
}

const results = [];
function report(result) {
  results.push(result);
  const mark = result.ok ? '✓' : '✗';
  process.stdout.write(
    `${mark} ${result.name} (${result.seconds.toFixed(1)} s${result.ok ? '' : `, ${result.why}`})\n`,
  );
  if (!result.ok || process.env.CHECKS_VERBOSE)
    process.stdout.write(result.output.endsWith('\n') ? result.output : `${result.output}\n`);
}

/** Runs the queue's scripts `width` at a time, quietly (output shown by `report`). */
async function pool(names, width, options) {
  const queue = [...names];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) report(await run(name, options));
  };
  await Promise.all(Array.from({ length: Math.min(width, queue.length) }, worker));
}

const started = performance.now();
await Promise.all([pool(['build'], 1, { quiet: true }), pool(WITH_BUILD, 1, { quiet: true })]);
if (results.every((result) => result.ok)) {
  const checks = pool(BESIDE_TESTS, slots, { quiet: true, lowest: true });
  const tests = run('vitest').then((result) => report({ ...result, name: 'vitest' }));
  await Promise.all([checks, tests]);
}
const total = ((performance.now() - started) / 1000).toFixed(1);
const failed = results.filter((result) => !result.ok).map((result) => result.name);
if (failed.length > 0) {
  process.stdout.write(`npm test failed: ${failed.join(', ')} (${total} s)\n`);
  process.exit(1);
}
process.stdout.write(`npm test passed: ${results.map((r) => r.name).join(', ')} in ${total} s\n`);
