// The static checks of `npm test` (build, types, lint, format, docs), as many at once as the
// machine has cores: each is one single-threaded TypeScript program or so, and one after another
// they took 2 min 20 s of every run on two cores. Two stages, because ESLint and tsc read the
// types of dist/ (the tests and benches import the build): the build (with the checks that read
// only src/) first, then those two. Longest first within a stage. Each check's output is shown when
// it ends, in one piece, so that two checks never interleave their lines; the run fails when any
// check failed, after its stage ran, so one run names every failure of a stage.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** npm scripts by stage, longest first (seconds on a two-core machine, alone: 35, 16, 12 | 39, 25). */
const STAGES = [
  ['build', 'docs:check', 'format:check'],
  ['lint', 'typecheck'],
];
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

const failed = [];
async function slot(queue) {
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
for (const stage of STAGES) {
  const queue = [...stage];
  await Promise.all(Array.from({ length: Math.min(slots, stage.length) }, () => slot(queue)));
  if (failed.length > 0) break;
}
const total = ((performance.now() - started) / 1000).toFixed(1);
if (failed.length > 0) {
  process.stdout.write(`checks failed: ${failed.join(', ')} (${total} s)\n`);
  process.exit(1);
}
process.stdout.write(`checks passed: ${STAGES.flat().join(', ')} in ${total} s, ${slots} at a time\n`);
