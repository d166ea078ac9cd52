// `npm run bench`: the durable path as a fleet. Deliveries per second, from the first delivery sent
// to the last job handled, through N receiver processes (node:http + nodeMiddleware with a BullMQ
// queue and a RedisStateStore) and M BullMQ worker processes (receiver.processor()), on one
// redis-server; against the same fleet of bare node:http servers doing queue.add and bare BullMQ
// workers running the same handler. M = 1, 2, 4; the ratio for each. The load comes from this
// process: a keep-alive agent, 64 deliveries in flight, spread over the receivers.
//
// On two cores the curve flattens at once: the receivers, the workers, Redis and the load share
// the same two cores, so more workers mostly add context switches. The ratio is what this measures.

import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { Queue } from 'bullmq';
import { buildWebhookEvent } from '../dist/testing/index.js';
import { startRedis } from '../test/integration/support/redis.js';

const RECEIVERS = 2;
const DELIVERIES = 3_000;
const IN_FLIGHT = 64;
const ROUNDS = 5;
const SIDE_SECONDS = 6;
const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });

function start(file: string, args: string[], ready: RegExp): Promise<[ChildProcess, string]> {
  const child = spawn(process.execPath, ['--import', 'tsx', `bench/processes/${file}`, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) resolve([child, match[1] ?? '']);
    });
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}: ${out}`)));
  });
}

function post(port: number, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A fleet of `kind`: RECEIVERS receivers and `workers` workers on queue `name`; its processes go into `children`. */
async function startFleet(
  kind: 'sdk' | 'bare',
  workers: number,
  redisPort: number,
  name: string,
  children: ChildProcess[],
): Promise<{ ports: number[]; queue: Queue }> {
  const ports: number[] = [];
  for (let i = 0; i < RECEIVERS; i++) {
    const [child, port] = await start('fleet-receiver.ts', [kind, String(redisPort), name], /LISTENING (\d+)/);
    children.push(child);
    ports.push(Number(port));
  }
  for (let i = 0; i < workers; i++)
    children.push((await start('fleet-worker.ts', [kind, String(redisPort), name], /READY/))[0]);
  return { ports, queue: new Queue(name, { connection: { host: '127.0.0.1', port: redisPort } }) };
}

/** Deliveries/s of one fleet: N receivers and `workers` workers of `kind`, each run on a fresh queue. */
async function run(kind: 'sdk' | 'bare', workers: number, redisPort: number, round: number): Promise<number> {
  const name = `fleet-${kind}-${workers}-${round}`;
  const children: ChildProcess[] = [];
  try {
    const { ports, queue } = await startFleet(kind, workers, redisPort, name, children);
    const bodies = Array.from({ length: DELIVERIES }, () => JSON.stringify(buildWebhookEvent('i_new')));
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < bodies.length) {
          const i = next++;
          const status = await post(ports[i % ports.length] as number, bodies[i] as string);
          if (status !== 200) throw new Error(`${kind}: delivery answered ${status}`);
        }
      }),
    );
    while (((await queue.getJobCounts('completed')).completed ?? 0) < DELIVERIES) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const rate = DELIVERIES / ((performance.now() - started) / 1000);
    await queue.obliterate({ force: true });
    await queue.close();
    return rate;
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
}

/**
 * Both fleets at once on the same Redis and cores, each sent IN_FLIGHT / 2 deliveries at a time
 * for SIDE_SECONDS: deliveries handled (jobs completed) by each in that same interval. The scheduler
 * shares the cores between them, so their rates compare their costs per delivery under the very
 * same conditions (the alone figures drift by ±20% between rounds seconds apart on 2 shared cores).
 */
async function sideBySide(workers: number, redisPort: number, round: number): Promise<number> {
  const children: ChildProcess[] = [];
  const queues: Queue[] = [];
  try {
    const fleets = await Promise.all(
      (['sdk', 'bare'] as const).map(async (kind) => {
        const { ports, queue } = await startFleet(
          kind,
          workers,
          redisPort,
          `side-${kind}-${workers}-${round}`,
          children,
        );
        queues.push(queue);
        return { kind, ports, queue };
      }),
    );
    const until = performance.now() + SIDE_SECONDS * 1000;
    await Promise.all(
      fleets.flatMap(({ kind, ports }) =>
        Array.from({ length: IN_FLIGHT / 2 }, async (_, lane) => {
          for (let i = lane; performance.now() < until; i += IN_FLIGHT / 2) {
            const status = await post(ports[i % ports.length] as number, JSON.stringify(buildWebhookEvent('i_new')));
            if (status !== 200) throw new Error(`${kind}: delivery answered ${status}`);
          }
        }),
      ),
    );
    const [sdk, bare] = await Promise.all(
      fleets.map(async ({ queue }) => (await queue.getJobCounts('completed')).completed ?? 0),
    );
    return (sdk as number) / (bare as number);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    for (const queue of queues) {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  }
}

const redis = await startRedis();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
console.log(
  `Fleet: ${RECEIVERS} receiver processes and M worker processes on one redis-server, ${DELIVERIES} deliveries, ${IN_FLIGHT} in flight, ${ROUNDS} rounds (median of the rounds' ratios)`,
);
try {
  console.log('alone (one fleet at a time, alternating):');
  for (const workers of [1, 2, 4]) {
    // Each round runs both fleets back to back (in alternating order): the ratio is the median of
    // the rounds' ratios, so a machine that slows down for a while slows both sides of one alike.
    const rounds: Array<{ sdk: number; bare: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const rates = { sdk: 0, bare: 0 };
      for (const kind of round % 2 ? (['bare', 'sdk'] as const) : (['sdk', 'bare'] as const)) {
        rates[kind] = await run(kind, workers, redis.port, round);
      }
      rounds.push(rates);
    }
    const ratio = median(rounds.map(({ sdk, bare }) => sdk / bare));
    const [sdk, bare] = [median(rounds.map((r) => r.sdk)), median(rounds.map((r) => r.bare))];
    console.log(
      `M = ${workers}: SDK fleet ${sdk.toFixed(0).padStart(6)} deliveries/s, bare fleet ${bare.toFixed(0).padStart(6)}/s, ${ratio.toFixed(2)}× (target ≥ 0.9; rounds ${rounds.map((r) => (r.sdk / r.bare).toFixed(2)).join(' ')})`,
    );
  }
  console.log('side by side (both fleets at once on the same Redis, jobs completed in the same interval):');
  for (const workers of [1, 2, 4]) {
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) ratios.push(await sideBySide(workers, redis.port, round));
    console.log(
      `M = ${workers}: ${median(ratios).toFixed(2)}× the bare fleet (target ≥ 0.9; rounds ${ratios.map((r) => r.toFixed(2)).join(' ')})`,
    );
  }
} finally {
  agent.destroy();
  await redis.stop();
}
