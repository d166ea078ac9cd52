// A delivery reads top-down and a debugger steps through it: `npm run trace:delivery` (the
// inspector stepping through one delivery on node:http, in a child process) finds code run in
// exactly the files ARCHITECTURE.md lists, in its order, and no call back into a file on the stack.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

it('runs code in the files ARCHITECTURE.md lists, in its order, calling back into none', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts/trace-delivery.ts')],
    { cwd: root, timeout: 120_000 },
  );
  const trace = JSON.parse(stdout) as { files: string[]; reentries: string[]; steps: number; answer: string };
  const markdown = readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8');
  const listed = markdown.slice(markdown.indexOf('<!-- delivery:start -->'), markdown.indexOf('<!-- delivery:end -->'));
  expect(trace.answer).toBe('{"outcome":"accepted"}');
  expect(trace.steps).toBeGreaterThan(100); // it did step through the delivery
  expect(trace.files).toEqual([...listed.matchAll(/`([^`]+)`/g)].map((match) => match[1]));
  expect(trace.reentries).toEqual([]);
});
