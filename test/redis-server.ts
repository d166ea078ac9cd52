// A real redis-server (the Debian package) on a free loopback port, for the tests that need one.
import { type ChildProcess, spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import { closedPort } from './helpers.js';

export interface RedisServer {
  port: number;
  url: string;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await closedPort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let failure = '';
  child.stderr?.on('data', (chunk: Buffer) => (failure += chunk.toString()));
  const spawned = new Promise<never>((_, reject) => child.once('error', (e) => reject(new Error(`redis-server could not start (is it installed?): ${e.message}`))));
  await Promise.race([waitForPort(port), spawned]).catch((error) => {
    child.kill();
    throw new Error(`${(error as Error).message} ${failure}`);
  });
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
