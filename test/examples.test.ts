// The examples are recipes users copy: each runs here against the mock, from the built package.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);

it('the demo runs end to end against the mock service', { timeout: 60_000 }, async () => {
  const env = { ...process.env };
  delete env.FLASHDUTY_APP_KEY;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], { env, timeout: 55_000 });
  expect(stdout).toContain('running against the mock service');
  expect(stdout).toMatch(/second call → InvalidParameterError \(InvalidParameter, HTTP 400\)/);
  expect(stdout).toMatch(/second call → ResourceNotFoundError/);
  expect(stdout).toMatch(/\d+ pages; open incidents by severity/);
  expect(stdout).toMatch(/received i_ack .* by Ada/);
  expect(stdout).toMatch(/duplicate i_rslv .* handlers not run/);
  expect(stdout).toMatch(/stale i_new/);
  expect(stdout).toMatch(/i_new {4}success HTTP 200/);
});
