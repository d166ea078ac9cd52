// The static checks of `npm test` (build, types, lint, format, docs), as many at once as the
// machine has cores: each is one single-threaded TypeScript program or so, and one after another
// they took 2 min 20 s of every run on two cores (about 75 s side by side). Longest first, so that
// the last to start is a short one. Each check's output is shown when it ends, in one piece, so
// that two checks never interleave their lines; the run fails when any check failed, after all
// of them ran, so one run names every failure.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** npm scripts, longest first (seconds on the two-core CI machine: 39, 39, 25, 16, 12). */
const CHECKS = ['build', 'lint', 'typecheck', 'docs:check', 'format:check'];
const slots = Math.max(1, Number(process.env.CHECKS_JOBS) || availableParallelism());

/** Runs `npm run <name>`; resolves with whether it passed, its output and its time. */
function run(name) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
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

const queue = [...CHECKS];
const failed = [];
async function slot() {
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const result = await run(name);
    const mark = result.ok ? '✓' : '✗';
    process.stdout.write(`${mark} ${name} (${result.seconds.toFixed(1)} s${result.ok ? '' : `, ${result.why}`})\n`);
    if (!result.ok) {
      failed.push(name);
      process.stdout.write(result.output.endsWith('\n') ? result.output : `${result.output}\n`);
    }
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: Math.min(slots, CHECKS.length) }, slot));
const total = ((performance.now() - started) / 1000).toFixed(1);
if (failed.length > 0) {
  process.stdout.write(`checks failed: ${failed.join(', ')} (${total} s)\n`);
  process.exit(1);
}
process.stdout.write(`checks passed: ${CHECKS.join(', ')} in ${total} s, ${slots} at a time\n`);
