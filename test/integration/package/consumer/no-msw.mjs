// The testing entry without msw installed: importing it and serving the mock over HTTP work; only
// `handlers` needs msw, and says so.
import assert from 'node:assert/strict';
import { Flashduty } from 'flashduty-sdk';
import { createMockService } from 'flashduty-sdk/testing';

const service = createMockService({ seed: 3, incidents: 5 });
assert.throws(() => service.handlers, /needs the msw package/);
const server = await service.listen();
try {
  const client = new Flashduty({ appKey: service.appKey, baseUrl: server.url, logLevel: 'off' });
  const now = Math.floor(Date.now() / 1000);
  const page = await client.listIncidents({ start_time: now - 86400, end_time: now });
  console.log(`no-msw ok: ${page.items.length} incidents`);
} finally {
  await server.close();
}
