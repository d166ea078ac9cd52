// A test process in miniature, for the lifetime tests: starts a redis-server through the test
// helpers, prints `REDIS <pid> <port>`, then ends as argv[2] says: `hang` (until killed), `exit`
// (process.exit), `throw` (an uncaught exception).
import { startRedis } from '../support/redis.js';

const redis = await startRedis({ persistent: process.argv[3] === 'persistent' });
if (process.argv[3] === 'frozen') redis.freeze();
console.log(`REDIS ${redis.pid} ${redis.port}`);
const how = process.argv[2] ?? 'hang';
if (how === 'exit') process.exit(3);
if (how === 'throw')
  setTimeout(() => {
    throw new Error('the test process crashed');
  }, 10);
if (how === 'hang') setInterval(() => undefined, 60_000);
