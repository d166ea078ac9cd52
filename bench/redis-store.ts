// `npm run bench`: RedisStateStore's cost per delivery (the claim with its judgement, then the
// completion: the two scripts of an accepted event) on a local redis-server, with its scripts sent by SHA-1 (EVALSHA,
// as it does) against the same store made to send every script's text (EVAL, as it did before),
// in the same run, rounds interleaved. The EVAL side is the store behind a client that answers
// every EVALSHA with NOSCRIPT at once, without Redis: the store then sends the body, every time.

import { Redis } from 'ioredis';
import { RedisStateStore } from '../dist/webhooks/index.js';
import { startRedis } from '../test/integration/support/redis.js';

const DELIVERIES = 2_000;
const ROUNDS = 9;
const redis = await startRedis();
const client = new Redis(redis.url);
const noScript = {
  call: (command: string, ...args: Array<string | number>): Promise<unknown> =>
    command === 'EVALSHA'
      ? Promise.reject(new Error('NOSCRIPT (bench: send the body)'))
      : client.call(command, ...args),
};
const stores = {
  'EVALSHA (the store as shipped)': new RedisStateStore({ client, keyPrefix: 'bench:sha:' }),
  'EVAL (the script text every call)': new RedisStateStore({ client: noScript, keyPrefix: 'bench:eval:' }),
};

let sequence = 0;
async function deliveries(store: RedisStateStore): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < DELIVERIES; i++) {
    const id = `e${++sequence}`;
    const claim = await store.claim({
      eventId: id,
      leaseMs: 60_000,
      scope: `scope:${id}`,
      eventTime: Date.now(),
      now: Date.now(),
    });
    if (claim.status === 'claimed') await store.complete(id, claim.token);
  }
  return DELIVERIES / ((performance.now() - started) / 1000);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const rates = new Map<string, number[]>(Object.keys(stores).map((name) => [name, []]));
for (const store of Object.values(stores)) await deliveries(store); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  const order = Object.entries(stores);
  for (const [name, store] of round % 2 ? order.reverse() : order) rates.get(name)?.push(await deliveries(store));
}
console.log(
  `RedisStateStore, ${DELIVERIES} deliveries × ${ROUNDS} rounds (claim, advance, complete), one local redis-server`,
);
const [sha, text] = [...rates.values()].map(median) as [number, number];
for (const [name, values] of rates)
  console.log(`${name.padEnd(36)} ${median(values).toFixed(0).padStart(7)} deliveries/s`);
console.log(`EVALSHA / EVAL: ${(sha / text).toFixed(2)}×`);
await client.quit();
await redis.stop();
