// A real Redis Cluster on loopback, tied to the test's lifetime: six `redis-server
// --cluster-enabled yes` nodes in a temp dir of their own (three primaries, each with a replica),
// joined by `redis-cli --cluster create`, ready once every node says `cluster_state:ok` and knows
// every primary's replica, and every replica has synced. Each node also opens its cluster bus on its
// port + 10 000, so both ports are picked free, below the ephemeral range.
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { spawnTied, stopChild } from './lifetime.js';

const run = promisify(execFile);

/** A running cluster. */
export interface RedisCluster {
  /** Every node's port, primaries first as `redis-cli --cluster create` made them. */
  ports: number[];
  /** `[{ host, port }]` of every node, as ioredis' Cluster and node-redis' createCluster take them. */
  nodes: Array<{ host: string; port: number }>;
  /** `redis-cli -p <port> args…` on one node; resolves with its output. */
  cli(port: number, ...args: string[]): Promise<string>;
  /** The port of the primary that holds `slot`, and of its replica. */
  shardOf(slot: number): Promise<{ primary: number; replica: number }>;
  /** SIGSTOP one node (its connections stay open, nothing answers); `thaw` sends SIGCONT. */
  freeze(port: number): void;
  thaw(port: number): void;
  stop(): Promise<void>;
}

/**
 * A free port P with P + 10 000 free for the bus, both below Linux's ephemeral range (32 768 and up),
 * where the other tests' servers (port 0: an ephemeral port) never land.
 */
async function freePort(taken: Set<number>): Promise<number> {
  for (let tries = 0; ; tries++) {
    if (tries >= 1_000) throw new Error('redis cluster: no free port pair (P, P + 10 000) found in 20 000-22 699');
    const port = 20_000 + Math.floor(Math.random() * 2_700);
    if (taken.has(port) || taken.has(port + 10_000)) continue;
    if ((await isFree(port)) && (await isFree(port + 10_000))) {
      taken.add(port);
      return port;
    }
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function startRedisCluster(): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'flashduty-cluster-'));
  const taken = new Set<number>();
  const ports: number[] = [];
  for (let i = 0; i < 6; i++) ports.push(await freePort(taken));
  const children: ChildProcess[] = [];
  const cli = async (port: number, ...args: string[]) =>
    (await run('redis-cli', ['-p', String(port), ...args], { timeout: 30_000 })).stdout;
  const stop = async () => {
    await Promise.all(children.map((child) => stopChild(child)));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      // prettier-ignore
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes',
        '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '2000', '--dir', dir,
        '--save', '', '--appendonly', 'no', '--dbfilename', `dump-${port}.rdb`,
        // No 5 s wait for more replicas before a full sync: each primary has one.
        '--repl-diskless-sync-delay', '0'];
      children.push(spawnTied('redis-server', args, { stdio: 'ignore' }));
    }
    await Promise.all(
      ports.map((port) => until(async () => (await cli(port, 'PING')).trim() === 'PONG', `node ${port}`)),
    );
    const addresses = ports.map((port) => `127.0.0.1:${port}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '1', '--cluster-yes'], {
      timeout: 60_000,
    });
    await Promise.all(
      ports.map((port) =>
        until(
          async () => (await cli(port, 'CLUSTER', 'INFO')).includes('cluster_state:ok'),
          `cluster state at ${port}`,
        ),
      ),
    );
    // And every node knows each primary's replica (learnt by gossip, after the state is ok: else
    // shardOf() could name no replica), and each replica has synced with its primary (a replica
    // that never had a link to it does not take over when it fails).
    await Promise.all(
      ports.map((port) =>
        until(async () => {
          const rows = (await cli(port, 'CLUSTER', 'NODES')).trim().split('\n');
          const replicas = rows.filter((row) => /^\S+ \S+ \S*slave\S* [0-9a-f]{40} /.test(row)).length;
          const info = await cli(port, 'INFO', 'replication');
          return (
            replicas === ports.length / 2 && (info.includes('role:master') || info.includes('master_link_status:up'))
          );
        }, `every replica known at ${port}, and synced if it is one`),
      ),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const signal = (port: number, name: NodeJS.Signals) => void children[ports.indexOf(port)]?.kill(name);
  const shardOf = async (slot: number) => {
    // CLUSTER NODES: `id host:port@bus flags master-id … slot-ranges` per line.
    const rows = (await cli(ports[0] as number, 'CLUSTER', 'NODES'))
      .trim()
      .split('\n')
      .map((line) => line.split(' '));
    const holds = (row: string[]) =>
      row.slice(8).some((range) => {
        const [from, to = from] = range.split('-').map(Number);
        return slot >= (from as number) && slot <= (to as number);
      });
    const primary = rows.find((row) => row[2]?.includes('master') && holds(row));
    const replica = rows.find((row) => row[3] === primary?.[0]);
    const portOf = (row: string[] | undefined) => Number(row?.[1]?.split('@')[0]?.split(':')[1]);
    return { primary: portOf(primary), replica: portOf(replica) };
  };
  return {
    ports,
    nodes: ports.map((port) => ({ host: '127.0.0.1', port })),
    cli,
    shardOf,
    freeze: (port) => signal(port, 'SIGSTOP'),
    thaw: (port) => signal(port, 'SIGCONT'),
    stop,
  };
}

/** Polls `check` until it holds, at most `timeoutMs`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`redis cluster: ${what} not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
