// One client process of a fleet, for the shared-limiter tests and bench: `calls` listIncidents at
// once through a limiter whose windows live in Redis (ioredis or node-redis, as argv says), with no
// retries, so that a 429 shows. Prints `RESULT {"ok","limited","failed","ms"}` (ms: first call to
// last answer) and exits.
//   argv: baseUrl appKey redisUrl ioredis|node-redis calls keyPrefix [perSecond perMinute]
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { Flashduty, RequestTooFrequentlyError } from '../../../src/index.js';

const [baseUrl, appKey, redisUrl, flavour, calls, keyPrefix, perSecond = '50', perMinute = '1000'] =
  process.argv.slice(2);
const io = flavour === 'ioredis' ? new Redis(redisUrl as string) : undefined;
const nodeRedis = io ? undefined : await createClient({ url: redisUrl as string }).connect();
const client = new Flashduty({
  appKey: appKey as string,
  baseUrl: baseUrl as string,
  maxRetries: 0,
  // A loaded machine must not switch this process to its in-process limiter: the test counts 429s.
  rateLimit: {
    redis: io ?? nodeRedis,
    keyPrefix: keyPrefix as string,
    perSecond: Number(perSecond),
    perMinute: Number(perMinute),
    redisTimeoutMs: 30_000,
  },
});
const now = Math.floor(Date.now() / 1000);
const started = performance.now();
const results = await Promise.allSettled(
  Array.from({ length: Number(calls) }, () =>
    client.listIncidents({ start_time: now - 86_400, end_time: now, limit: 1 }),
  ),
);
const ms = performance.now() - started;
const limited = results.filter((r) => r.status === 'rejected' && r.reason instanceof RequestTooFrequentlyError).length;
const ok = results.filter((r) => r.status === 'fulfilled').length;
for (const r of results)
  if (r.status === 'rejected' && !(r.reason instanceof RequestTooFrequentlyError)) console.error(r.reason);
console.log(`RESULT ${JSON.stringify({ ok, limited, failed: results.length - ok - limited, ms })}`);
if (io) await io.quit();
else await nodeRedis?.quit();
