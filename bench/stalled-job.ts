// `npm run bench:stalled` (not in `npm run bench`: it waits a minute with BullMQ's defaults): how long
// a job whose worker was killed mid-handler (kill -9) waits before it runs again, with BullMQ's
// default worker options and with shorter ones. Real worker processes on a real redis-server.
//   defaults            lockDuration 30 s, stalledInterval 30 s: the killed worker's lock lapses
//                       after up to 30 s, and the next stalled-job check (every 30 s) finds it
//   lockDuration 5 s, stalledInterval 2 s: the shorter options docs/webhooks.md's durable handoff names
import { type ChildProcess, spawn } from 'node:child_process';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { buildWebhookEvent } from '../dist/testing/index.js';
import { jobIdFor } from '../dist/webhooks/index.js';
import { startRedis } from '../test/integration/support/redis.js';

const redis = await startRedis();
const client = new Redis(redis.url);
const CASES: Record<string, object> = {
  'BullMQ defaults (lockDuration 30 s, stalledInterval 30 s)': {},
  'lockDuration 5 s, stalledInterval 2 s': { lockDuration: 5_000, stalledInterval: 2_000 },
};

function worker(queueName: string, options: object): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/processes/stalled-worker.ts', String(redis.port), queueName, JSON.stringify(options)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => String(chunk).includes('READY') && resolve(child));
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

async function starts(): Promise<string[]> {
  return client.lrange('starts', 0, -1);
}

const children: ChildProcess[] = [];
try {
  let round = 0;
  for (const [name, options] of Object.entries(CASES)) {
    await client.del('starts');
    const queueName = `stalled-${++round}`;
    const queue = new Queue(queueName, { connection: { host: '127.0.0.1', port: redis.port } });
    const first = await worker(queueName, options);
    children.push(first);
    const event = buildWebhookEvent('i_new');
    await queue.add('i_new', event, { jobId: jobIdFor(event.event_id), attempts: 3 });
    while ((await starts()).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    first.kill('SIGKILL');
    const killedAt = Date.now();
    children.push(await worker(queueName, options));
    while ((await starts()).length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
    const again = Number((await starts())[1]?.split(' ')[2]);
    console.log(`${name}: the job ran again ${((again - killedAt) / 1000).toFixed(1)} s after its worker was killed`);
    await queue.close();
  }
} finally {
  for (const child of children) child.kill('SIGKILL');
  await client.quit();
  await redis.stop();
}
