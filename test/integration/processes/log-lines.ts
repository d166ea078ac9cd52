// A program that prints one line of its own while the client logs at debug level (with a retry, so
// a warning too): the test checks that stdout holds only the program's line.
import { Flashduty } from '../../../src/index.js';
import { createMockService } from '../../../src/testing/index.js';

const service = createMockService({ seed: 1, incidents: 3 });
const server = await service.listen();
service.faults.add({ status: 503, headers: { 'Retry-After': '0' } });
const client = new Flashduty({ appKey: service.appKey, baseUrl: server.url, logLevel: 'debug' });
const now = Math.floor(Date.now() / 1000);
await client.listIncidents({ start_time: now - 86_400, end_time: now });
console.log('program output');
await server.close();
