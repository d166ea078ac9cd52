// A real redis-server (the Debian package) on a free loopback port, tied to the test's lifetime
// (lifetime.ts). For the chaos tests it can also persist every write (AOF, fsync always, in a temp
// dir), restart in place (same port, same data), crash (kill -9), freeze (SIGSTOP) and sleep
// (DEBUG SLEEP: the server blocks, as a slow fork or a huge command would make it).
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedPort } from '../../helpers.js';
import { killHard, spawnTied, stopChild } from './lifetime.js';

/** Options of {@link startRedis}. */
export interface RedisOptions {
  /** Append every write to an AOF in a temp dir, fsync'd before the reply; default false (no persistence). */
  persistent?: boolean;
  /** A replica of the redis-server on this port: started once its link to that primary is up. */
  replicaOf?: number;
}

/** A running redis-server. */
export interface RedisServer {
  port: number;
  url: string;
  /** The pid of the current redis-server process (it changes on restart). */
  readonly pid: number;
  /** The server's data dir (the AOF of a persistent server, a replica's synced RDB). */
  dir: string;
  /** SIGTERM and wait; removes the data dir. */
  stop(): Promise<void>;
  /** kill -9, as a crash would; the data dir stays for `start`. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data dir (after `kill`); resolves when it answers PING. */
  start(): Promise<void>;
  /** `kill()` then `start()`. */
  restart(): Promise<void>;
  /** SIGSTOP: connections stay open, nothing answers. */
  freeze(): void;
  /** SIGCONT after `freeze`. */
  thaw(): void;
  /** `DEBUG SLEEP seconds`: the server blocks for that long (sent on a connection of its own). */
  sleep(seconds: number): Promise<void>;
  /** Stderr and stdout of the server so far, for failure messages. */
  output(): string;
}

export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  const port = await closedPort();
  // Every server has a dir of its own, even without persistence: a replica's full sync writes an
  // RDB file there (into the test's cwd otherwise).
  const dir = await mkdtemp(join(tmpdir(), 'flashduty-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--enable-debug-command',
    'local',
    // A primary waits 5 s by default before a full sync, for more replicas to join it; a test's
    // replica is the only one, and every start of one (and every failover) paid those 5 s.
    '--repl-diskless-sync-delay',
    '0',
  ];
  args.push(...(options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']));
  if (options.replicaOf !== undefined) args.push('--replicaof', '127.0.0.1', String(options.replicaOf));
  let child: ChildProcess | undefined;
  let log = '';

  const start = async (): Promise<void> => {
    const spawned = spawnTied('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = spawned;
    spawned.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    spawned.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const failed = new Promise<never>((_, reject) => {
      spawned.once('error', (e) => reject(new Error(`redis-server could not start (is it installed?): ${e.message}`)));
      spawned.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    });
    failed.catch(() => undefined);
    const ready = async () => {
      await waitForPong(port);
      if (options.replicaOf !== undefined) await waitForLink(port);
    };
    await Promise.race([ready(), failed]).catch(async (error: Error) => {
      await killHard(spawned);
      throw new Error(`${error.message}\n${log.slice(-2000)}`);
    });
  };
  const kill = async () => {
    if (child) await killHard(child);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child?.pid ?? 0;
    },
    dir,
    async stop() {
      if (child) await stopChild(child);
      await rm(dir, { recursive: true, force: true });
    },
    kill,
    start,
    async restart() {
      await kill();
      await start();
    },
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
    sleep: (seconds) => send(port, ['DEBUG', 'SLEEP', String(seconds)], false).then(() => undefined),
    output: () => log,
  };
}

/** Sends one command in RESP; resolves with the first reply line, or once written when `wait` is false. */
function send(port: number, command: string[], wait = true): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    socket.on('connect', () => {
      socket.write(
        `*${command.length}\r\n${command.map((part) => `$${Buffer.byteLength(part)}\r\n${part}\r\n`).join('')}`,
        () => {
          if (wait) return;
          // Leave the connection to the server: closing it at once could race the command's arrival.
          setTimeout(() => socket.destroy(), 100).unref();
          resolve('');
        },
      );
    });
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      const line = reply.indexOf('\r\n');
      if (line < 0) return;
      socket.destroy();
      resolve(reply.slice(0, line));
    });
    socket.on('error', reject);
  });
}

/** Waits until the server answers PING (not LOADING: an AOF being replayed answers with an error). */
async function waitForPong(port: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await send(port, ['PING']).catch(() => '');
    if (reply === '+PONG') return;
    if (Date.now() > deadline)
      throw new Error(
        `redis-server did not answer PING on ${port} within ${timeoutMs} ms (last: ${reply || 'no connection'})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until a replica's link to its primary is up (its first sync done). */
async function waitForLink(port: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = await replicationInfo(port).catch(() => '');
    if (info.includes('master_link_status:up')) return;
    if (Date.now() > deadline) throw new Error(`replica on ${port}: no link to its primary within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `INFO replication` of a server, whole (a bulk reply). */
function replicationInfo(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    socket.on('connect', () => socket.write('*2\r\n$4\r\nINFO\r\n$11\r\nreplication\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      const header = /^\$(\d+)\r\n/.exec(reply);
      if (header && reply.length >= header[0].length + Number(header[1])) {
        socket.destroy();
        resolve(reply);
      }
    });
    socket.on('error', reject);
  });
}
