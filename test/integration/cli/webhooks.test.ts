// `flashduty webhooks …` through the real bin, at receivers on loopback: a real WebhookReceiver
// behind node:http for every kind of delivery (incident, alert, custom action, custom body with
// value mapping); receivers that fail, close the connection or never answer, reported by the
// sender's retry rule; replay from a mock service's delivery history; lint of templates.
import { writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMockService } from '../../../src/testing/index.js';
import { TRIGGER_EVENT_TYPES } from '../../../src/testing/webhook-trigger.js';
import { type WebhookEvent, WebhookReceiver } from '../../../src/webhooks/index.js';
import { flashduty, lines, serve } from './support.js';

const dir = mkdtempSync(path.join(tmpdir(), 'fd-cli-'));
const file = (name: string, value: unknown) => {
  const at = path.join(dir, name);
  writeFileSync(at, typeof value === 'string' ? value : JSON.stringify(value));
  return at;
};

/** A real receiver: what it accepted, by event type. */
const receiver = new WebhookReceiver({ logger: false });
const accepted: WebhookEvent[] = [];
receiver.on('event', (event) => void accepted.push(event));
const target = await serve(receiver.nodeMiddleware());

describe('flashduty webhooks trigger', () => {
  it('sends every kind the service sends (`all`, or several types), each accepted by a real WebhookReceiver', async () => {
    const run = await flashduty(['webhooks', 'trigger', 'i_new', '--to', `${target.url}/hooks`, '--json']);
    expect(run.code).toBe(0);
    expect(lines(run)).toEqual([
      expect.objectContaining({ event_type: 'i_new', status: 'success', http_status: 200, attempts: 1 }),
    ]);
    accepted.length = 0;
    // `all`, then a type it already named: each type once, in the order first named.
    const every = await flashduty(['webhooks', 'trigger', 'all', 'i_new', '--to', `${target.url}/hooks`, '--json']);
    expect(every.code, every.stderr).toBe(0);
    expect(lines(every).map((row) => [row.event_type, row.status])).toEqual(
      TRIGGER_EVENT_TYPES.map((type) => [type, 'success']),
    );
    expect(accepted.map((event) => event.event_type).sort()).toEqual([...TRIGGER_EVENT_TYPES].sort());
    const two = await flashduty(['webhooks', 'trigger', 'a_close', 'i_ack', '--to', `${target.url}/hooks`, '--json']);
    expect(two.code, two.stderr).toBe(0);
    expect(lines(two).map((row) => row.event_type)).toEqual(['a_close', 'i_ack']);
  }, 60_000);

  it('--count N sends N fresh events, and runs differ (a lasting store does not take them as duplicates)', async () => {
    const first = lines(
      await flashduty(['webhooks', 'trigger', 'i_ack', '--to', target.url, '--count', '3', '--json']),
    );
    const second = lines(
      await flashduty(['webhooks', 'trigger', 'i_ack', '--to', target.url, '--count', '3', '--json']),
    );
    const ids = [...first, ...second].map((row) => row.event_id);
    expect(new Set(ids).size).toBe(6);
  });

  it('renders a custom body with value mapping and sends headers, as the service does', async () => {
    const template = {
      id: '{{event_id}}',
      at: '{{event_time}}',
      type: '{{event_type}}',
      incident: '{{incident.incident_id}}',
      level: '{{incident.incident_severity}}',
    };
    const mapping = { 'incident.incident_severity': { Critical: 'P1' } };
    const custom = new WebhookReceiver({
      logger: false,
      customBody: { template, valueMapping: mapping },
      secret: { header: 'x-token', values: ['s3cret'] },
    });
    const bodies: unknown[] = [];
    custom.on('event', (event) => void bodies.push(event));
    const server = await serve(custom.nodeMiddleware());
    const run = await flashduty([
      'webhooks',
      'trigger',
      'i_new',
      '--to',
      server.url,
      '--custom-body',
      file('template.json', template),
      '--value-mapping',
      file('mapping.json', mapping),
      '--header',
      'X-Token: s3cret',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(bodies).toHaveLength(1);
    expect(JSON.stringify(bodies[0])).toContain('"level":"P1"');
  });

  it('reports failed deliveries by the retry rule, exit 1: an HTTP error is never retried, a closed connection once', async () => {
    const failing = await serve((_req, res) => {
      res.statusCode = 500;
      res.end('{"outcome":"rejected","reason":"handler failed"}');
    });
    const http500 = await flashduty(['webhooks', 'trigger', 'i_new', '--to', failing.url, '--json']);
    expect(http500.code).toBe(1);
    expect(lines(http500)).toEqual([expect.objectContaining({ status: 'failure', http_status: 500, attempts: 1 })]);

    const closing = await serve((req) => req.socket.destroy());
    const closed = await flashduty(['webhooks', 'trigger', 'i_new', '--to', closing.url, '--json']);
    expect(closed.code).toBe(1);
    expect(lines(closed)).toEqual([
      expect.objectContaining({ status: 'failure', http_status: 0, attempts: 2, error: expect.stringMatching(/^EOF/) }),
    ]);
    expect(closing.requests).toHaveLength(2);

    const unreachable = await flashduty(['webhooks', 'trigger', 'i_new', '--to', 'http://127.0.0.1:1/', '--json']);
    expect(unreachable.code).toBe(1);
    expect(lines(unreachable)[0]).toMatchObject({ status: 'failure', http_status: 0 });
  });

  it('a receiver that never answers: the 2 s deadline before headers, not retried', async () => {
    const silent = await serve(() => undefined);
    const run = await flashduty(['webhooks', 'trigger', 'i_new', '--to', silent.url, '--json']);
    expect(run.code).toBe(1);
    const [row] = lines(run);
    expect(row).toMatchObject({
      status: 'failure',
      http_status: 0,
      attempts: 1,
      error: expect.stringMatching(/deadline exceeded/),
    });
    expect(row?.duration_ms).toBeGreaterThanOrEqual(2_000);
    expect(silent.requests).toHaveLength(1);
  });
});

describe('flashduty webhooks replay', () => {
  it('posts the recorded bodies with their recorded headers from the service named by --base-url', async () => {
    const service = createMockService({ incidents: 5 });
    const server = await service.listen();
    try {
      const down = service.webhooks.create({ endpoint: 'http://127.0.0.1:1/down', headers: { 'X-Token': 'abc' } });
      const { incident_id } = await service.actions.create({ title: 'db down', incident_severity: 'Critical' });
      await service.actions.ack(incident_id, service.personId);
      await service.webhooks.idle();
      const seen: Array<{ type: unknown; token: unknown }> = [];
      const into = await serve((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          seen.push({ type: (JSON.parse(body) as { event_type: unknown }).event_type, token: req.headers['x-token'] });
          res.end('{}');
        });
      });
      const args = ['webhooks', 'replay', '--integration', String(down.id), '--to', into.url, '--json'];
      const env = { FLASHDUTY_BASE_URL: server.url, FLASHDUTY_APP_KEY: service.appKey };
      const run = await flashduty(args, env);
      expect(run.code, run.stderr).toBe(0);
      expect(
        lines(run)
          .map((row) => row.event_type)
          .sort(),
      ).toEqual(['i_ack', 'i_new']);
      expect(seen.map((s) => s.type).sort()).toEqual(['i_ack', 'i_new']);
      expect(seen.every((s) => s.token === 'abc')).toBe(true);
      // Into a receiver that refuses: reported per delivery, exit 1.
      const refusing = await serve((_req, res) => {
        res.statusCode = 503;
        res.end();
      });
      const refused = await flashduty(
        ['webhooks', 'replay', '--integration', String(down.id), '--to', refusing.url, '--json'],
        env,
      );
      expect(refused.code).toBe(1);
      expect(lines(refused).every((row) => row.http_status === 503 && row.ok === false)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('flashduty webhooks lint', () => {
  it('exit 0 for a template the receiver can use fully; path: message and exit 1 otherwise', async () => {
    const good = file('good.json', {
      id: '{{event_id}}',
      at: '{{event_time}}',
      type: '{{event_type}}',
      incident: '{{incident.incident_id}}',
    });
    expect(await flashduty(['webhooks', 'lint', good])).toMatchObject({ code: 0, stdout: 'no problems\n' });
    const bad = file('bad.json', {
      id: '{{event_id}}',
      at: '{{event_time}}',
      incident: '{{incident.incident_id}}',
      title: '{{incident.titel}}',
    });
    const run = await flashduty(['webhooks', 'lint', bad]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^title: .*incident\.titel/m);
    const missing = await flashduty(['webhooks', 'lint', path.join(dir, 'none.json')]);
    expect(missing.code).toBe(2);
  });
});
