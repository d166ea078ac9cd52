// Loads the built package through its `require` conditions, as a CommonJS user would.
const assert = require('node:assert/strict');
const sdk = require('flashduty-sdk');
const webhooks = require('flashduty-sdk/webhooks');
const testing = require('flashduty-sdk/testing');

(async () => {
  assert.equal(typeof sdk.Flashduty, 'function');
  assert.equal(typeof webhooks, 'object');
  const service = testing.createMockService({ seed: 2, incidents: 30 });
  assert.equal(service.handlers.length, 3); // msw loads lazily through require()
  const server = await service.listen();
  try {
    const client = new sdk.Flashduty({ appKey: service.appKey, baseUrl: server.url, logLevel: 'off', validate: 'deep' });
    const now = Math.floor(Date.now() / 1000);
    const page = await client.listIncidents({ start_time: now - 7 * 86400, end_time: now, limit: 5 });
    assert.equal(page.items.length, 5);
    let count = 0;
    for await (const _ of client.listIncidents({ start_time: now - 40 * 86400, end_time: now })) count++;
    assert.ok(count >= 5);
    await client.enableA2AAgent('a2a_demo');
    await assert.rejects(client.enableA2AAgent('a2a_demo'), sdk.InvalidParameterError);
    console.log(`cjs ok on node ${process.version}: ${count} incidents`);
  } finally {
    await server.close();
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
