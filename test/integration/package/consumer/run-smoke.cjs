// The checks both smoke scripts run, whichever way they loaded the package (require or import).
const assert = require('node:assert/strict');

module.exports = async function runSmoke(label, sdk, webhooks, testing, operations) {
  assert.equal(typeof sdk.Flashduty, 'function');
  assert.equal(operations.OPERATIONS['/member/list'].method, 'members.list');
  assert.equal(typeof webhooks.WebhookReceiver, 'function');
  const service = testing.createMockService({ seed: 2, incidents: 30 });
  assert.equal(service.handlers.length, 258); // every path of the merged OpenAPI (the AI SRE ones among them); msw loads on first use
  const server = await service.listen();
  try {
    const client = new sdk.Flashduty({
      appKey: service.appKey,
      baseUrl: server.url,
      logLevel: 'off',
      validate: 'deep',
    });
    const now = Math.floor(Date.now() / 1000);
    const page = await client.listIncidents({ start_time: now - 7 * 86400, end_time: now, limit: 5 });
    assert.equal(page.items.length, 5);
    let count = 0;
    for await (const _ of client.listIncidents({ start_time: now - 40 * 86400, end_time: now })) count++;
    assert.ok(count >= 5);
    let members = 0;
    for await (const _ of client.members.list({ limit: 2 })) members++; // a generated method, its table loaded on first call
    assert.ok(members > 2);
    await client.enableA2AAgent('a2a_demo');
    await assert.rejects(client.enableA2AAgent('a2a_demo'), sdk.InvalidParameterError);
    service.faults.add({
      status: 200,
      body: '{"request_id":"r","data":{"items":[{"incident_id":1}],"total":1,"has_next_page":false}}',
      headers: { 'Content-Type': 'application/json' },
    });
    await assert.rejects(client.listIncidents({ start_time: now - 86400, end_time: now }), sdk.ResponseValidationError);
    const receiver = new webhooks.WebhookReceiver();
    const result = await receiver.receive(testing.buildDelivery(testing.buildWebhookEvent('i_new')).receiveInput());
    assert.equal(result.status, 200);
    console.log(`${label} ok on node ${process.version}: ${count} incidents`);
  } finally {
    await server.close();
  }
};
