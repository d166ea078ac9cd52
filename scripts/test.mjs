// `npm test`, whole, on a machine of a few cores. The build comes first (the tests, ESLint, tsc and
// the package checks read dist/), with the quick generated-code and architecture checks beside it.
// Then vitest runs in the foreground at normal priority, and the static checks (lint, types, format,
// docs, the package's exports, size budgets) run beside it at the lowest CPU priority: the tests
// leave a fifth of the CPU idle while they wait on Redis, child processes and timers, and the checks
// take that instead of running before the tests (one after another they added 2 min to a 6.5 min
// run). At the lowest priority a check gets a core only when no test wants it (Linux still gives it
// about 1.5% of a busy core).
//
// vitest writes to the terminal as it goes; each check's report waits until vitest has ended and
// is printed in one piece. The run fails after everything ran when anything failed, naming each.
import { spawn } from 'node:child_process';
import { availableParallelism, constants, setPriority } from 'node:os';

/** Beside the build: quick checks that read only src/ and the generated files. */
const WITH_BUILD = ['generate:check', 'architecture:check'];
/** Beside vitest, at the lowest priority, longest first. */
const BESIDE_TESTS = ['lint', 'typecheck', 'docs:check', 'docs:snippets', 'format:check', 'lint:package', 'size:check'];
const slots = Math.max(1, Number(process.env.CHECKS_JOBS) || availableParallelism());

const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(1);
  });

/** Runs `npm run <name>`; resolves with whether it passed, its output (unless shown live) and its time. */
function run(name, { live = false, lowest = false } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], { stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    // Right after spawn, long before npm starts the script's shell: the script's processes inherit it.
    // Lowering a child's priority needs no privilege; were it refused, the check competes with the
    // tests at normal priority (slower tests, same results), and the run says so.
    if (lowest) {
      try {
        setPriority(child.pid, constants.priority.PRIORITY_LOW);
      } catch (error) {
        process.stdout.write(`${name} runs at normal priority beside the tests (${error.message})\n`);
      }
    }
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({
        name,
        ok: code === 0,
        why: signal ?? `exit ${code}`,
        output: Buffer.concat(output).toString(),
        seconds: (performance.now() - started) / 1000,
      });
    });
  });
}

const results = [];
/** Runs the scripts `width` at a time and collects their results. */
async function pool(names, width, options) {
  const queue = [...names];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) results.push(await run(name, options));
  };
  await Promise.all(Array.from({ length: Math.min(width, queue.length) }, worker));
}

function report(result) {
  const mark = result.ok ? '✓' : '✗';
  process.stdout.write(
    `${mark} ${result.name} (${result.seconds.toFixed(1)} s${result.ok ? '' : `, ${result.why}`})\n`,
  );
  if (result.output && (!result.ok || process.env.CHECKS_VERBOSE))
    process.stdout.write(result.output.endsWith('\n') ? result.output : `${result.output}\n`);
}

const started = performance.now();
await Promise.all([pool(['build'], 1), pool(WITH_BUILD, 1)]);
if (results.every((result) => result.ok)) {
  const checks = pool(BESIDE_TESTS, slots, { lowest: true });
  const tests = await run('vitest', { live: true });
  await checks;
  results.push(tests);
}
results.forEach(report);
const total = ((performance.now() - started) / 1000).toFixed(1);
const failed = results.filter((result) => !result.ok).map((result) => result.name);
if (failed.length > 0) {
  process.stdout.write(`npm test failed: ${failed.join(', ')} (${total} s)\n`);
  process.exit(1);
}
process.stdout.write(`npm test passed: ${results.map((result) => result.name).join(', ')} in ${total} s\n`);
