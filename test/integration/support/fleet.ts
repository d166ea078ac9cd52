// A fleet on one account, in real processes: the mock service in a process of its own
// (processes/mock-server.ts, which enforces the account's limits and logs every arrival) and client
// processes (processes/limiter-client.ts) whose limiter keeps its windows in a real redis-server.
// Used by the shared-limiter tests and bench/shared-limiter.ts. Every process is tied (lifetime.ts).
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { spawnTied, stopChild } from './lifetime.js';

const processes = (name: string) => fileURLToPath(new URL(`../processes/${name}`, import.meta.url));

/** What one client process reports. */
export interface FleetResult {
  ok: number;
  /** Calls refused with 429 (RequestTooFrequentlyError). */
  limited: number;
  failed: number;
  /** From its first call to its last answer. */
  ms: number;
}

/** The mock service in its own process. */
export interface MockProcess {
  url: string;
  appKey: string;
  /** Stops it and resolves to every call it saw: [arrival (Unix ms), status]. */
  stop(): Promise<Array<[number, number]>>;
}

function lineOf(out: string, tag: string): string | undefined {
  return new RegExp(`^${tag} (.*)$`, 'm').exec(out)?.[1];
}

/** Starts the mock service with the account limits given (default 50/s and 1000/min). */
export async function startMockProcess(perSecond = 50, perMinute = 1000): Promise<MockProcess> {
  const child = spawnTied(
    process.execPath,
    ['--import', 'tsx', processes('mock-server.ts'), String(perSecond), String(perMinute)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [url, appKey] = await new Promise<string[]>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the mock process exited with ${code}`)));
    child.stdout?.on('data', () => {
      const match = /LISTENING (\S+) (\S+)/.exec(out);
      if (match) resolve([match[1] as string, match[2] as string]);
    });
  });
  return {
    url: url as string,
    appKey: appKey as string,
    async stop() {
      await stopChild(child);
      return JSON.parse(lineOf(out, 'CALLS') ?? '[]') as Array<[number, number]>;
    },
  };
}

/** Options of one client process. */
export interface ClientProcess {
  flavour: 'ioredis' | 'node-redis';
  calls: number;
  keyPrefix: string;
  perSecond?: number;
  perMinute?: number;
}

/** Runs a client process to its end and resolves to its report. */
export function runClient(mock: MockProcess, redisUrl: string, options: ClientProcess): Promise<FleetResult> {
  const { flavour, calls, keyPrefix, perSecond = 50, perMinute = 1000 } = options;
  const args = [
    mock.url,
    mock.appKey,
    redisUrl,
    flavour,
    String(calls),
    keyPrefix,
    String(perSecond),
    String(perMinute),
  ];
  const child: ChildProcess = spawnTied(
    process.execPath,
    ['--import', 'tsx', processes('limiter-client.ts'), ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const result = lineOf(out, 'RESULT');
      if (code === 0 && result) resolve(JSON.parse(result) as FleetResult);
      else reject(new Error(`the client process exited with ${code}: ${out}`));
    });
  });
}

/** The most arrivals within any `windowMs` (a rolling window, as the service counts). */
export function busiestWindow(calls: Array<[number, number]>, windowMs: number): number {
  const times = calls.map(([time]) => time).sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < times.length; last++) {
    while ((times[last] as number) - (times[first] as number) >= windowMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}
