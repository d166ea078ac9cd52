// The mock service in a process of its own (so a load generator does not share its event loop).
// Prints `LISTENING <url> <appKey>`; on SIGTERM prints the arrival times of its calls and exits.
//   argv (optional): perSecond perMinute, the account's limits (default 50 and 1000)
import { createMockService } from '../../../src/testing/index.js';

const [perSecond = '50', perMinute = '1000'] = process.argv.slice(2);
const service = createMockService({
  seed: 3,
  incidents: 20,
  rateLimits: { perSecond: Number(perSecond), perMinute: Number(perMinute) },
});
const server = await service.listen();
console.log(`LISTENING ${server.url} ${service.appKey}`);
process.on('SIGTERM', () => {
  console.log(`CALLS ${JSON.stringify(service.callLog.map((c) => [c.time, c.status]))}`);
  void server.close().finally(() => process.exit(0));
});
