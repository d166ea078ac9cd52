// Loads the built package through its `import` conditions, as an ESM user would.
import assert from 'node:assert/strict';
import { Flashduty, InvalidParameterError, ResponseValidationError } from 'flashduty-sdk';
import * as webhooks from 'flashduty-sdk/webhooks';
import { createMockService } from 'flashduty-sdk/testing';

assert.equal(typeof webhooks, 'object');
const service = createMockService({ seed: 2, incidents: 30 });
assert.equal(service.handlers.length, 3);
const server = await service.listen();
try {
  const client = new Flashduty({ appKey: service.appKey, baseUrl: server.url, logLevel: 'off', validate: 'deep' });
  const now = Math.floor(Date.now() / 1000);
  const page = await client.listIncidents({ start_time: now - 7 * 86400, end_time: now, limit: 5 });
  assert.equal(page.items.length, 5);
  let count = 0;
  for await (const _ of client.listIncidents({ start_time: now - 40 * 86400, end_time: now })) count++;
  assert.ok(count >= 5);
  await client.enableA2AAgent('a2a_demo');
  await assert.rejects(client.enableA2AAgent('a2a_demo'), InvalidParameterError);
  service.faults.add({ status: 200, body: '{"request_id":"r","data":{"items":[{"incident_id":1}],"total":1,"has_next_page":false}}', headers: { 'Content-Type': 'application/json' } });
  await assert.rejects(client.listIncidents({ start_time: now - 86400, end_time: now }), ResponseValidationError);
  console.log(`esm ok on node ${process.version}: ${count} incidents`);
} finally {
  await server.close();
}
