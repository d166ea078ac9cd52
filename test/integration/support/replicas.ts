// Receiver replicas in their own processes (test/integration/processes/redis-receiver.ts), sharing one Redis.
import type { ChildProcess } from 'node:child_process';
import { spawnTied } from './lifetime.js';

export interface Replica {
  url: string;
  child: ChildProcess;
  output: () => string;
}

export interface ReplicaReport {
  handled: string[];
  stale: string[];
  memory: { rss: number; heapUsed: number };
}

export function startReplica(
  redisUrl: string,
  flavour: 'ioredis' | 'node-redis',
  keyPrefix?: string,
): Promise<Replica> {
  const args = [
    '--import',
    'tsx',
    'test/integration/processes/redis-receiver.ts',
    redisUrl,
    flavour,
    ...(keyPrefix ? [keyPrefix] : []),
  ];
  const child = spawnTied(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`replica did not start: ${err}`)), 20_000);
    child.stdout?.on('data', () => {
      const match = /LISTENING (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1] as string, child, output: () => out });
      }
    });
    child.once('exit', (code) => reject(new Error(`replica exited with ${code}: ${err}`)));
  });
}

export function stopReplica(replica: Replica): Promise<ReplicaReport> {
  return new Promise((resolve, reject) => {
    replica.child.once('exit', () => {
      const read = (label: string) =>
        /^(\S+) (.*)$/m.exec(
          replica
            .output()
            .split('\n')
            .find((l) => l.startsWith(`${label} `)) ?? '',
        )?.[2];
      const handled = read('HANDLED');
      if (!handled) return reject(new Error(`no report from the replica: ${replica.output()}`));
      resolve({
        handled: JSON.parse(handled),
        stale: JSON.parse(read('STALE') ?? '[]'),
        memory: JSON.parse(read('MEMORY') ?? '{}'),
      });
    });
    replica.child.kill('SIGTERM');
  });
}
