// The SDK at work, in one run: `npm run demo`.
//
// Without FLASHDUTY_APP_KEY it starts the mock of the whole service (flashduty-sdk/testing) on a
// loopback port and runs everything against it. With FLASHDUTY_APP_KEY set (and FLASHDUTY_BASE_URL
// if you use another endpoint), it runs the read-only part against the real service.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Flashduty, type IncidentInfo, InvalidParameterError, ResourceNotFoundError } from 'flashduty-sdk';
import { createMockService, type MockService } from 'flashduty-sdk/testing';
import { WebhookReceiver } from 'flashduty-sdk/webhooks';

const DAY = 86_400;

function table(incidents: IncidentInfo[]): string {
  const rows = incidents.map((i) => [
    new Date(i.start_time * 1000).toISOString().slice(0, 16).replace('T', ' '),
    i.num,
    i.incident_severity,
    i.progress,
    i.channel_name || '(none)',
    i.title.length > 40 ? `${i.title.slice(0, 39)}…` : i.title,
  ]);
  const head = ['started (UTC)', 'num', 'severity', 'progress', 'channel', 'title'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] as string).length)));
  const line = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c] as number)).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

async function readOnly(client: Flashduty): Promise<void> {
  const now = new Date();
  const dayAgo = new Date(now.getTime() - DAY * 1000);
  console.log('\n== Incidents of the last 24 hours (first page) ==');
  const page = await client.listIncidents({ start_time: dayAgo, end_time: now, limit: 10 });
  console.log(table(page.items));
  console.log(`${page.total} in all; more pages: ${page.hasNextPage}; request ${page.requestId}`);

  console.log('\n== Every open incident of the last 45 days, by cursor across 31-day windows ==');
  const bySeverity = new Map<string, number>();
  let pages = 0;
  for await (const p of client
    .listIncidents({
      start_time: new Date(now.getTime() - 45 * DAY * 1000),
      end_time: now,
      progress: ['Triggered', 'Processing'],
      limit: 50,
    })
    .pages()) {
    pages++;
    for (const incident of p.items)
      bySeverity.set(incident.incident_severity, (bySeverity.get(incident.incident_severity) ?? 0) + 1);
  }
  console.log(`${pages} pages; open incidents by severity:`, Object.fromEntries(bySeverity));
}

async function mutations(client: Flashduty): Promise<void> {
  console.log('\n== Enabling an A2A agent, twice ==');
  const { requestId } = await client.enableA2AAgent('a2a_demo');
  console.log(`enabled a2a_demo (request ${requestId})`);
  try {
    await client.enableA2AAgent('a2a_demo');
  } catch (error) {
    if (!(error instanceof InvalidParameterError)) throw error;
    console.log(`second call → ${error.name} (${error.code}, HTTP ${error.status}): ${error.message}`);
  }

  console.log('\n== Deleting a skill, twice ==');
  await client.deleteSkill('skill_demo');
  console.log('deleted skill_demo');
  try {
    await client.deleteSkill('skill_demo');
  } catch (error) {
    if (!(error instanceof ResourceNotFoundError)) throw error;
    console.log(`second call → ${error.name}: ${error.message} (request ${error.requestId})`);
  }
}

async function webhooks(service: MockService): Promise<void> {
  console.log('\n== Incident actions and the webhook events they produce ==');
  const receiver = new WebhookReceiver({ secret: { header: 'x-demo-token', values: ['demo-secret'] } });
  receiver.on('event', (event) => {
    if (!event.incident) return; // this demo subscribes to incident events only
    const who = event.person ? ` by ${event.person.person_name}` : '';
    console.log(
      `  received ${event.event_type.padEnd(12)} ${event.incident.num} "${event.incident.title}" → ${event.incident.progress}${who}`,
    );
  });
  receiver.on('duplicate', (event) =>
    console.log(`  duplicate ${event.event_type} (${event.event_id.slice(0, 8)}…) answered 200, handlers not run`),
  );
  receiver.on('stale', (event) =>
    console.log(`  stale ${event.event_type}: older than an event already handled, dropped`),
  );
  const middleware = receiver.nodeMiddleware();
  const server = createServer((req, res) => middleware(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/flashduty`;
  try {
    const hook = service.webhooks.create({ name: 'demo', endpoint, headers: { 'X-Demo-Token': 'demo-secret' } });
    const me = service.personId;
    const incident = await service.actions.create({
      title: 'Checkout latency over 2 s',
      incident_severity: 'Critical',
      channel_id: service.world.channels[0]?.channel_id,
    });
    await service.actions.assign(incident.incident_id, [me]);
    service.clock.advance(30_000);
    await service.actions.ack(incident.incident_id, me);
    await service.actions.comment(incident.incident_id, 'Rolling back the last deploy', me);
    service.clock.advance(30_000);
    await service.actions.close(incident.incident_id, me);
    await service.webhooks.idle();

    // The sender retries after time-outs, and retries can reorder: post two old deliveries again.
    const history = service.webhooks.history(hook.id);
    const redeliver = (payload: unknown) =>
      fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Demo-Token': 'demo-secret' },
        body: JSON.stringify(payload),
      });
    const newest = history[0];
    const created = history.find((r) => r.event_type === 'i_new');
    if (newest) await redeliver(newest.request.payload);
    if (created) await redeliver({ ...(created.request.payload as object), event_id: 'a-retry-that-arrived-late' });

    console.log('\n== Call history of the integration (newest first) ==');
    for (const r of history) {
      console.log(
        `  ${new Date(r.trigger_time).toISOString()}  ${r.event_type.padEnd(8)} ${r.status} HTTP ${r.http_status}  ${r.duration_ms} ms  ${r.request_count} request(s)`,
      );
    }
  } finally {
    server.close();
  }
}

if (process.env.FLASHDUTY_APP_KEY) {
  console.log(
    'FLASHDUTY_APP_KEY is set: read-only run against',
    process.env.FLASHDUTY_BASE_URL ?? 'https://api.flashcat.cloud',
  );
  await readOnly(new Flashduty());
} else {
  const service = createMockService({ seed: 7, incidents: 400 });
  const server = await service.listen();
  console.log(`No FLASHDUTY_APP_KEY: running against the mock service at ${server.url}`);
  try {
    const client = new Flashduty({ appKey: service.appKey, baseUrl: server.url });
    await readOnly(client);
    await mutations(client);
    await webhooks(service);
    console.log(
      `\nAudit log of the mock: ${service.auditLog.map((e) => `${e.operation}(${e.target})=${e.result}`).join(', ')}`,
    );
  } finally {
    await server.close();
  }
}
