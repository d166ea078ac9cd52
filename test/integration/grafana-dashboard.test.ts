// The Grafana dashboard (examples/observability/grafana-dashboard.json) and the PromQL of
// docs/observability.md, run against what a real exporter prints: the in-process
// `@opentelemetry/exporter-prometheus` serving /metrics on a loopback port, fed by real client
// calls to the mock over HTTP (a success, a path no operation matches, a 429, a trigger fired), a
// real WebhookReceiver on node:http (accepted, duplicate, stale, rejected, unrecorded, a handler
// that throws) and queue mode with BullMQ on a real redis-server and a real Worker. Every metric,
// label and value a query names must be in the scrape (support/promql.ts); the Collector's queries
// in the docs are the in-process ones with its names. And the scrape itself: every instrument has a
// description (no "description missing") and a unit, and no attribute holds an unbounded value.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { metrics } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../src/testing/index.js';
import { WebhookReceiver } from '../../src/webhooks/index.js';
import { closedPort, DAY, NOW, rejection, standIn, startMock } from '../helpers.js';
import { storeThatGoesDown } from './support/outage-store.js';
import { parseScrape, partsOf, problemsOf, type Sample } from './support/promql.js';
import { startRedis } from './support/redis.js';

const root = path.resolve(import.meta.dirname, '../..');
const dashboard = JSON.parse(
  readFileSync(path.join(root, 'examples/observability/grafana-dashboard.json'), 'utf8'),
) as {
  uid: string;
  title: string;
  templating: { list: Array<{ name: string; type: string; query: string }> };
  panels: Panel[];
};
interface Panel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  panels?: Panel[];
  targets?: Array<{ expr: string; datasource?: { uid: string } }>;
}
const docs = readFileSync(path.join(root, 'docs/observability.md'), 'utf8');

/** The queries of the docs' PromQL block under the heading `heading`, one by one, without their comments. */
function docQueries(heading: string): string[] {
  const at = docs.search(new RegExp(`^#+ ${heading.replace(/[()'.]/g, '\\$&')}$`, 'm'));
  if (at < 0) throw new Error(`docs/observability.md has no heading "${heading}"`);
  const block = /```promql\n([\s\S]*?)```/.exec(docs.slice(at))?.[1];
  if (block === undefined) throw new Error(`no PromQL under "${heading}"`);
  // A query runs on over indented lines; a comment, a blank line or an unindented line starts another.
  return block
    .split(/\n(?=\S)/)
    .map((query) => query.replace(/^#.*$/gm, '').trim())
    .filter(Boolean);
}

/** Every panel, those inside rows too. */
const allPanels = (panels: Panel[]): Panel[] => panels.flatMap((panel) => [panel, ...allPanels(panel.panels ?? [])]);
/** A dashboard query as Prometheus gets it: Grafana's interval variables filled in. */
const asRun = (expr: string) => expr.replaceAll('$__rate_interval', '5m').replaceAll('$__interval', '1m');

let scrape: Sample[] = [];
let text = '';

const redis = await startRedis();
afterAll(() => redis.stop());
const h = await startMock({ incidents: 5, rateLimits: false });

beforeAll(async () => {
  const port = await closedPort();
  const exporter = new PrometheusExporter({ host: '127.0.0.1', port, preventServerStart: true });
  await exporter.startServer();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [exporter] }));
  try {
    await driveTheClient();
    await driveTheReceiver();
    await driveTheQueue();
    const url = `http://127.0.0.1:${port}/metrics`;
    // The first measurements are recorded once the instruments' code has loaded (metrics.ts).
    await vi.waitFor(async () => {
      text = await (await fetch(url)).text();
      expect(text).toContain('flashduty_webhook_queue_wait_bucket');
      expect(text).toMatch(/flashduty_webhook_deliveries_total\{[^}]*outcome="unrecorded"/);
    });
    scrape = parseScrape(text);
  } finally {
    metrics.disable();
    await exporter.shutdown();
  }
}, 60_000);

async function driveTheClient(): Promise<void> {
  const client = h.client({ maxRetries: 0 });
  await client.listIncidents({ start_time: NOW - 7 * DAY, end_time: NOW });
  await rejection(client.request('/no/such/route' as never, {}));
  h.service.faults.add({ status: 429, headers: { 'Retry-After': '0' } });
  await rejection(client.listIncidents({ start_time: NOW - 7 * DAY, end_time: NOW }));
  const trigger = h.service.automations.createTrigger();
  await client.automations.triggers.fire({ trigger_id: trigger.trigger_id }, { token: trigger.token });
}

async function driveTheReceiver(): Promise<void> {
  const { store, down } = storeThatGoesDown();
  const receiver = new WebhookReceiver({ store, logger: false }).on('i_rslv', () => {
    throw new TypeError('bug');
  });
  receiver.on('error', () => {});
  const { url } = await standIn(receiver.nodeMiddleware());
  const post = (payload: unknown) =>
    fetch(url, buildDelivery(payload).init()).then(
      (r) => r.status,
      () => 0,
    );
  const incident = { incident_id: 'dashboard-incident' };
  const ack = buildWebhookEvent('i_ack', { incident });
  expect(await post(ack)).toBe(200);
  expect(await post(ack)).toBe(200); // duplicate
  expect(await post(buildWebhookEvent('i_new', { incident, event_time: ack.event_time - 1_000 }))).toBe(200); // stale
  expect(await post({ ...buildWebhookEvent('i_new'), event_type: `i_${'x'.repeat(64 * 1024)}` })).toBe(200);
  expect(await post({ not: 'a delivery' })).toBe(400);
  expect(await post(buildWebhookEvent('i_rslv'))).toBe(500);
  down.value = true;
  expect(await post(buildWebhookEvent('i_snooze'))).not.toBe(200); // unrecorded: no answer, the sender retries
}

async function driveTheQueue(): Promise<void> {
  const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
  const queue = new Queue(`dashboard-${process.pid}`, { connection });
  const receiver = new WebhookReceiver({ queue, logger: false });
  const { url } = await standIn(receiver.nodeMiddleware());
  const worker = new Worker(queue.name, receiver.processor(), { connection });
  try {
    for (const type of ['i_new', 'i_ack'] as const) {
      const response = await fetch(url, buildDelivery(buildWebhookEvent(type)).init());
      expect(response.status).toBe(200);
    }
    await vi.waitFor(async () => expect(await queue.getCompletedCount()).toBe(2), { interval: 20 });
  } finally {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
  }
}

describe('the scrape of the in-process exporter', () => {
  it('names each instrument as the docs say: dots as underscores, counters with _total, histograms without a unit', () => {
    const names = new Set(scrape.map((sample) => sample.name));
    for (const name of [
      'flashduty_webhook_deliveries_total',
      'flashduty_webhook_jobs_total',
      'flashduty_webhook_handler_duration_bucket',
      'flashduty_webhook_queue_wait_bucket',
      'http_client_request_duration_bucket',
      'http_client_request_duration_count',
    ])
      expect(names, name).toContain(name);
    expect([...names].filter((name) => name.includes('_seconds'))).toEqual([]);
  });

  it('gives every instrument a description and a unit', () => {
    expect(text).not.toContain('description missing');
    for (const family of [
      'flashduty_webhook_handler_duration',
      'flashduty_webhook_queue_wait',
      'http_client_request_duration',
    ])
      expect(text).toContain(`# UNIT ${family} s`);
    for (const family of ['flashduty_webhook_deliveries_total', 'flashduty_webhook_jobs_total'])
      expect(text).toMatch(new RegExp(`# HELP ${family} \\S`));
  });

  it('holds bounded values only: operation templates, known event types or _OTHER', () => {
    const values = (label: string) => new Set(scrape.flatMap((sample) => sample.labels[label] ?? []));
    expect([...values('flashduty_operation')].sort()).toEqual([
      '/incident/list',
      '/safari/automation/triggers/{trigger_id}/fire',
      '_OTHER',
    ]);
    // "": a rejected delivery, whose payload had no valid event type (the exporter prints a label left out so).
    expect([...values('flashduty_webhook_event_type')].sort()).toEqual([
      '',
      '_OTHER',
      'i_ack',
      'i_new',
      'i_rslv',
      'i_snooze',
    ]);
  });
});

describe('the Grafana dashboard', () => {
  const panels = allPanels(dashboard.panels);
  const queries = panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));

  it('is a dashboard Grafana imports: a uid, a Prometheus data source variable that every panel uses', () => {
    expect(dashboard.uid).toMatch(/^[\w-]{1,40}$/);
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }),
    );
    for (const panel of panels.filter((panel) => panel.type !== 'row')) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    }
  });

  it('has panels for client calls, errors and latency, deliveries by outcome, handler duration, queue wait and jobs', () => {
    const named = queries.flatMap((query) => partsOf(asRun(query)).selectors.map(({ metric }) => metric));
    for (const metric of [
      'http_client_request_duration_count',
      'http_client_request_duration_bucket',
      'flashduty_webhook_deliveries_total',
      'flashduty_webhook_handler_duration_bucket',
      'flashduty_webhook_handler_duration_count',
      'flashduty_webhook_jobs_total',
      'flashduty_webhook_queue_wait_bucket',
    ])
      expect(named, metric).toContain(metric);
  });

  it('asks only for metrics, labels and values the exporter printed', () => {
    expect(queries.length).toBeGreaterThan(10);
    for (const query of queries) expect(problemsOf(asRun(query), scrape), query).toEqual([]);
  });
});

describe('docs/observability.md', () => {
  it('its queries for the in-process exporter ask only for what it printed', () => {
    const queries = docQueries('With the in-process exporter');
    expect(queries.length).toBeGreaterThan(5);
    for (const query of queries) expect(problemsOf(query, scrape), query).toEqual([]);
  });

  it("its queries for the Collector are the same, with the Collector's names for the duration histograms", () => {
    const collector = docQueries("With the OpenTelemetry Collector's Prometheus exporter");
    const inProcess = docQueries('With the in-process exporter');
    expect(collector.map((query) => query.replace(/_seconds(?=_(?:bucket|count|sum)\b)/g, ''))).toEqual(inProcess);
    // Each duration histogram has the unit in its name there, and nothing else does.
    for (const query of collector)
      for (const { metric } of partsOf(query).selectors)
        expect(metric.endsWith('_total') || /_duration_seconds_|_wait_seconds_/.test(metric), metric).toBe(true);
  });

  it('the checks fail for a name the exporter does not print', () => {
    expect(problemsOf('sum(rate(flashduty_webhook_handler_duration_seconds_bucket[5m]))', scrape)).toEqual([
      'no metric flashduty_webhook_handler_duration_seconds_bucket in the scrape',
    ]);
    expect(problemsOf('sum by (nope) (rate(flashduty_webhook_jobs_total{outcome="x"}[5m]))', scrape)).toEqual([
      'flashduty_webhook_jobs_total has no label outcome',
      'no sample of flashduty_webhook_jobs_total matches [{"label":"outcome","op":"=","value":"x"}]',
      'no metric of the query has a label nope',
    ]);
    expect(() => partsOf('sum(rate(x[$__rate_interval]))')).toThrow(/variable/);
    expect(() => partsOf('made_up(x)')).toThrow(/unknown function/);
  });
});
