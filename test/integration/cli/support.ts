// The command line as a script runs it: the real bin (bin/flashduty.js over the built dist/) in a
// child process, tied to the test's lifetime, with its stdout, stderr and exit code; a command line
// in a POSIX shell as a user pastes it; `flashduty mock` in a child of its own; and small HTTP
// servers on loopback that count what reaches them.
import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage, RequestListener } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { standIn } from '../../helpers.js';
import { spawnTied, stopChild } from '../support/lifetime.js';

export const BIN = fileURLToPath(new URL('../../../bin/flashduty.js', import.meta.url));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `flashduty args…` to its end (at most `timeoutMs`), with `env` added to a clean environment. */
export function flashduty(
  args: string[],
  env: Record<string, string> = {},
  {
    input,
    timeoutMs = 30_000,
    node = process.execPath,
    nodeArgs = [],
    bin = true,
  }: { input?: string; timeoutMs?: number; node?: string; nodeArgs?: string[]; bin?: boolean } = {},
): Promise<Run> {
  const { FLASHDUTY_APP_KEY: _key, FLASHDUTY_ACCESS_TOKEN: _token, FLASHDUTY_BASE_URL: _url, ...rest } = process.env;
  const child = spawnTied(node, [...nodeArgs, ...(bin ? [BIN] : []), ...args], {
    env: { ...rest, ...env },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin?.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stopChild(child);
      reject(new Error(`flashduty ${args.join(' ')} did not end within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/**
 * Runs a command line as a user pastes it into a POSIX shell, `flashduty` being the real bin, with
 * `env` added to an environment that holds no FLASHDUTY_ variable.
 */
export function inShell(line: string, env: Record<string, string> = {}, timeoutMs = 30_000): Promise<Run> {
  const script = `flashduty() { "${process.execPath}" "${BIN}" "$@"; }\n${line}\n`;
  return flashduty([], env, { timeoutMs, node: 'sh', nodeArgs: ['-c', script], bin: false });
}

/** JSON lines of a run's stdout. */
export const lines = (run: Run): Array<Record<string, unknown>> =>
  run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** `flashduty mock --json` in a child process, stopped after the file's tests. */
export async function startMockProcess(
  args: string[] = [],
): Promise<{ baseUrl: string; appKey: string; accessToken: string; seed: number; child: ChildProcess }> {
  const child = spawnTied(process.execPath, [BIN, 'mock', '--json', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  afterAll(() => stopChild(child));
  let output = '';
  const first = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(output.slice(0, output.indexOf('\n')));
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`flashduty mock exited (${code}) before printing: ${output}`)));
  });
  const { baseUrl, appKey, accessToken, seed } = JSON.parse(first) as {
    baseUrl: string;
    appKey: string;
    accessToken: string;
    seed: number;
  };
  return { baseUrl, appKey, accessToken, seed, child };
}

/** An HTTP server on loopback for the file's tests (helpers' standIn); `requests` counts what reached it. */
export async function serve(listener: RequestListener): Promise<{ url: string; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const { url } = await standIn((req, res) => {
    requests.push(req);
    listener(req, res);
  });
  return { url, requests };
}
