// Processes started by a test die with it (support/lifetime.ts): however the test process ends,
// a redis-server it started is gone shortly after.
import { createConnection } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { isRunning, killHard, spawnTied } from '../support/lifetime.js';

/** Starts test/integration/processes/redis-holder.ts and resolves with the redis-server it started. */
async function holder(how: 'hang' | 'exit' | 'throw', variant = '') {
  const child = spawnTied(
    process.execPath,
    ['--import', 'tsx', 'test/integration/processes/redis-holder.ts', how, variant],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const [pid, port] = await new Promise<number[]>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const match = /REDIS (\d+) (\d+)/.exec(out);
      if (match) resolve([Number(match[1]), Number(match[2])]);
    });
    // 'close': the holder exited and all its output was read (a REDIS line in it has resolved already).
    child.once('close', () => reject(new Error(`the holder ended before starting Redis: ${out}`)));
  });
  return { child, pid: pid as number, port: port as number };
}

/**
 * The pid of the redis-server answering on `port` (`INFO server`'s process_id), or undefined when
 * none answers. By pid, not by "the port accepts": once freed, the port may go to another test's
 * redis-server started meanwhile.
 */
const serverPid = (port: number) =>
  new Promise<number | undefined>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => socket.write('INFO server\r\n'));
    let reply = '';
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      const match = /process_id:(\d+)/.exec(reply);
      if (match) {
        socket.destroy();
        resolve(Number(match[1]));
      }
    });
    socket.on('error', () => resolve(undefined));
    socket.on('close', () => resolve(undefined));
  });

/** Resolves once the process is gone; fails if it still runs after 10 s (a bound for a hang, not a speed check). */
const gone = (pid: number): Promise<void> =>
  vi.waitFor(() => expect(isRunning(pid), `process ${pid} still running`).toBe(false), {
    timeout: 10_000,
    interval: 20,
  });

describe.concurrent('processes a test starts die with the test process', () => {
  it('kill -9 of the test process: its redis-server is gone shortly after', async () => {
    const { child, pid, port } = await holder('hang');
    expect(isRunning(pid)).toBe(true);
    expect(await serverPid(port)).toBe(pid);
    await killHard(child);
    await gone(pid);
    expect(await serverPid(port)).not.toBe(pid);
  });

  it('kill -9 of the test process while its redis-server is frozen (SIGSTOP)', async () => {
    const { child, pid } = await holder('hang', 'frozen');
    await killHard(child);
    await gone(pid);
  });

  it.each(['exit', 'throw'] as const)('the test process ends by %s: its redis-server is gone', async (how) => {
    const { child, pid } = await holder(how);
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
    await gone(pid);
  });
});
