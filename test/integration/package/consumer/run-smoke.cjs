// The checks both smoke scripts run, whichever way they loaded the package (require or import).
const assert = require('node:assert/strict');

module.exports = async function runSmoke(label, sdk, webhooks, testing, operations) {
  assert.equal(typeof sdk.Flashduty, 'function');
  assert.equal(operations.OPERATIONS['/member/list'].method, 'members.list');
  assert.equal(typeof webhooks.WebhookReceiver, 'function');
  const service = testing.createMockService({ seed: 2, incidents: 30 });
  assert.equal(service.handlers.length, 298); // every path of the merged OpenAPI (the AI SRE ones among them); msw loads on first use
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
    await receiverPartsLoadedOnFirstUse(sdk, webhooks, testing);
    console.log(`${label} ok on node ${process.version}: ${count} incidents`);
  } finally {
    await server.close();
  }
};

/** The receiver's parts that load with their first use (files built apart: tsup.config.ts), from the build. */
async function receiverPartsLoadedOnFirstUse(sdk, webhooks, testing) {
  const event = testing.buildWebhookEvent('i_ack');
  // Why a payload is invalid.
  const invalid = { ...event, incident: { ...event.incident, incident_id: '' } };
  const refused = await new webhooks.WebhookReceiver().receive({ body: invalid });
  assert.equal(refused.status, 400);
  assert.match(refused.reason, /at incident\.incident_id: expected a non-empty string/);
  // A custom body's keys; the event is of this build's class.
  const template = { id: '{{event_id}}', at: '{{event_time}}', incident: '{{incident.incident_id}}' };
  const custom = new webhooks.WebhookReceiver({ customBody: { template } });
  const body = webhooks.renderCustomBody(template, event);
  const read = await custom.receive({ body });
  assert.equal(read.status, 200);
  assert.ok(read.event instanceof webhooks.CustomBodyEvent);
  assert.equal(read.event.event_id, event.event_id);
  assert.equal((await custom.receive({ body })).outcome, 'duplicate');
  // The queue mode: the handoff, then the job run by processor().
  const jobs = [];
  const queued = new webhooks.WebhookReceiver({
    queue: { add: async (name, data, options) => void jobs.push({ id: options.jobId, data }) },
  });
  const handled = [];
  queued.on('i_ack', (e) => void handled.push(e.event_id));
  assert.equal((await queued.receive({ body: event })).status, 200);
  await queued.processor()(jobs[0]);
  assert.deepEqual(handled, [event.event_id]);
  const notADelivery = await queued
    .processor()({ id: 'x', data: {} })
    .catch((error) => error);
  assert.equal(notADelivery.name, 'UnrecoverableError');
  assert.ok(notADelivery instanceof sdk.FlashdutyError);
}
