// A flood of webhook deliveries at a receiver in a process of its own (processes/flood-receiver.ts),
// for the stress test (test/integration/stress/flood.test.ts) and its bench (bench/flood.ts):
// deliveries all sent at once, each on a connection of its own as the sender makes them, and what
// the receiver measured of each, from its arrival to the moment its answer left.
import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import { spawnTied } from './lifetime.js';

/** What the receiver measured of one flood: ms from each request's arrival, and the statuses it sent. */
export interface FloodStats {
  /** To the moment `res.end()` wrote the answer. */
  answeredMs: number[];
  /** To the moment 'finish' was told (a turn of the event loop later). */
  finishedMs: number[];
  statuses: Record<string, number>;
}

/**
 * Starts the flood receiver with handlers of `holdMs` (longer than `ackMs`, so that every delivery is
 * answered at its deadline), on `cpu` alone where one is given (taskset, Linux).
 */
export async function startFloodReceiver(
  ackMs: number,
  holdMs: number,
  cpu?: number,
): Promise<{ child: ChildProcess; port: number }> {
  const node = [process.execPath, '--import', 'tsx', 'test/integration/processes/flood-receiver.ts'];
  const [command, ...args] = cpu === undefined ? node : ['taskset', '-c', String(cpu), ...node];
  const child = spawnTied(command as string, args, {
    env: { ...process.env, ACK_MS: String(ackMs), HOLD_MS: String(holdMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const port = Number(/^LISTENING (\d+)$/.exec(String((await lines.next()).value))?.[1]);
  if (!port) throw new Error('the flood receiver did not start');
  return { child, port };
}

/** Sends `deliveries` i_new events at once; the statuses the sender read (0: dropped), and the receiver's figures. */
export async function flood(port: number, deliveries: number): Promise<{ sent: number[]; stats: FloodStats }> {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const bodies = Array.from({ length: deliveries }, () => JSON.stringify(buildWebhookEvent('i_new')));
  const sent = await Promise.all(bodies.map((body) => post(port, body, agent)));
  const stats = (await fetch(`http://127.0.0.1:${port}/stats`).then((r) => r.json())) as FloodStats;
  return { sent, stats };
}

/** POSTs `body` on a connection of its own; resolves with the status (0 when the connection was dropped). */
function post(port: number, body: string, agent: Agent): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', agent, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}
