// A process whose one call waits for a slot of the shared limiter (the minute used up by the call
// before it) and is aborted: once it quits Redis, nothing may hold it open (the limiter's wait for
// Redis's next slot ended with its last waiter). Prints `ABORTED <name>`, then `EXIT <ms after the
// abort>` as it exits.
//   argv: baseUrl appKey redisUrl keyPrefix
import { Redis } from 'ioredis';
import { Flashduty } from '../../../src/index.js';

const [baseUrl, appKey, redisUrl, keyPrefix] = process.argv.slice(2) as [string, string, string, string];
const io = new Redis(redisUrl);
const client = new Flashduty({ appKey, baseUrl, maxRetries: 0, rateLimit: { redis: io, keyPrefix, perMinute: 1 } });
const now = Math.floor(Date.now() / 1000);
const window = { start_time: now - 86_400, end_time: now, limit: 1 };
await client.listIncidents(window);
const error = await client.listIncidents(window, { signal: AbortSignal.timeout(200) }).catch((e: unknown) => e);
const aborted = performance.now();
console.log(`ABORTED ${(error as Error).name}`);
process.on('exit', () => console.log(`EXIT ${Math.round(performance.now() - aborted)}`));
await io.quit();
