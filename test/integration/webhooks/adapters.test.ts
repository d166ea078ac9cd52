// Every adapter under its real framework, over real HTTP on loopback, with the same deliveries.
import { createServer } from 'node:http';
import express from 'express';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../../src/testing/index.js';
import { MemoryStateStore, type StateStore, type WebhookEvent, WebhookReceiver } from '../../../src/webhooks/index.js';
import { adapters, listening, PATH, post, type Running } from '../support/adapters.js';
import example from '../../fixtures/incident-webhook.example.json' with { type: 'json' };

const SECRET = { header: 'x-flashduty-token', values: ['s3cret', 'old-s3cret'] };
const AUTH = { 'x-flashduty-token': 's3cret' };

const deliver = (
  url: string,
  payload: unknown,
  headers: Record<string, string> = AUTH,
  contentType: string | null = 'application/json',
) => {
  const delivery = buildDelivery(payload, { headers, contentType });
  return post(url, delivery.body, delivery.headers);
};

for (const [name, adapter] of Object.entries(adapters)) {
  describe(`adapter: ${name}`, async () => {
    const handled: WebhookEvent[] = [];
    let failNext = 0;
    /** While set, handlers wait for it: a handler slower than any machine's answer. */
    let gate: Promise<void> | undefined;
    const receiver = new WebhookReceiver({ secret: SECRET, maxBodyBytes: 16 * 1024, ackTimeoutMs: 300 });
    receiver.on('event', async (event) => {
      if (gate) await gate;
      if (failNext > 0) {
        failNext--;
        throw new Error('handler failed');
      }
      handled.push(event);
    });
    receiver.on('error', () => {});
    const server = await adapter.start(receiver);
    afterAll(() => server.close());
    const runs = (id: string) => handled.filter((e) => e.event_id === id).length;

    it('accepts the documented example', async () => {
      const res = await deliver(server.url, example);
      expect(res).toEqual({ status: 200, body: '{"outcome":"accepted"}' });
      expect(runs(example.event_id)).toBe(1);
    });

    it('runs handlers once for sequential and concurrent duplicates', async () => {
      const event = buildWebhookEvent('i_ack');
      const answers = await Promise.all(Array.from({ length: 4 }, () => deliver(server.url, event)));
      answers.push(await deliver(server.url, event));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(answers.filter((a) => a.body.includes('duplicate'))).toHaveLength(4);
      expect(runs(event.event_id)).toBe(1);
    });

    it('drops an out-of-order older event as stale (200)', async () => {
      const incident = { incident_id: buildWebhookEvent('i_new').incident.incident_id };
      const t = Date.now();
      await deliver(server.url, buildWebhookEvent('i_ack', { event_time: t, incident }));
      const res = await deliver(server.url, buildWebhookEvent('i_new', { event_time: t - 1_000, incident }));
      expect(res).toEqual({ status: 200, body: '{"outcome":"stale"}' });
    });

    it('accepts an unknown event type', async () => {
      expect((await deliver(server.url, buildWebhookEvent('i_brand_new'))).status).toBe(200);
    });

    it('refuses a wrong or missing secret with 401, before anything else', async () => {
      expect((await deliver(server.url, buildWebhookEvent('i_new'), { 'x-flashduty-token': 'nope' })).status).toBe(401);
      expect((await deliver(server.url, buildWebhookEvent('i_new'), {})).status).toBe(401);
      expect((await deliver(server.url, 'x'.repeat(64 * 1024), {}, 'text/plain')).status).toBe(401);
      expect(
        (await deliver(server.url, buildWebhookEvent('i_new'), { 'x-flashduty-token': 'old-s3cret' })).status,
      ).toBe(200);
    });

    it('refuses an invalid payload with 400 and the path', async () => {
      const bad = { ...buildWebhookEvent('i_new'), event_time: 'soon' };
      const res = await deliver(server.url, bad);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).reason).toContain('event_time');
    });

    // With express.json() in front, Express reads and parses the body itself: these are its answers, not ours.
    if (!adapter.parsed)
      it('refuses malformed JSON and an empty body with 400', async () => {
        expect((await deliver(server.url, '{"event_id": "x",')).status).toBe(400);
        expect((await deliver(server.url, '')).status).toBe(400);
      });

    it('refuses a non-JSON content type with 415', async () => {
      expect((await deliver(server.url, JSON.stringify(example), AUTH, 'text/plain')).status).toBe(415);
    });

    it('judges a malformed Content-Type as the receiver does: after the secret (401), then 415', async () => {
      expect((await deliver(server.url, JSON.stringify(example), {}, 'json')).status).toBe(401);
      const refused = await deliver(server.url, JSON.stringify(example), AUTH, 'json');
      expect(refused.status).toBe(415);
      expect(JSON.parse(refused.body)).toEqual({ outcome: 'rejected', reason: 'content type json is not JSON' });
    });

    if (!adapter.parsed)
      it('refuses a missing content type with 415', async () => {
        expect((await deliver(server.url, JSON.stringify(buildWebhookEvent('i_new')), AUTH, null)).status).toBe(415);
      });

    if (!adapter.parsed)
      it('refuses a body over the limit with 413', async () => {
        const big = buildWebhookEvent('i_comm', { incident: { description: 'x'.repeat(200 * 1024) } });
        const res = await deliver(server.url, big);
        expect(res.status).toBe(413);
        expect(runs(big.event_id)).toBe(0);
      });

    it('answers within the deadline while a slow handler runs', async () => {
      let open = () => {};
      gate = new Promise<void>((resolve) => (open = resolve));
      const event = buildWebhookEvent('i_storm');
      const res = await deliver(server.url, event);
      gate = undefined;
      // Answered while the handler was held: had the receiver waited for it, no answer would come.
      expect(res.status).toBe(200);
      expect(runs(event.event_id)).toBe(0);
      open();
      await vi.waitFor(() => expect(runs(event.event_id)).toBe(1), { timeout: 10_000, interval: 10 });
    });

    it('answers 500 for a failing handler, and processes the redelivery', async () => {
      failNext = 1;
      const event = buildWebhookEvent('i_rslv');
      expect((await deliver(server.url, event)).status).toBe(500);
      expect((await deliver(server.url, event)).status).toBe(200);
      expect(runs(event.event_id)).toBe(1);
    });
  });
}

// Handlers that return no promise take the synchronous path: the answer goes out in the tick the
// body ends, without a timer. The same guarantees must hold there.
for (const [name, adapter] of Object.entries(adapters)) {
  describe(`adapter: ${name}, synchronous handlers`, async () => {
    const handled: string[] = [];
    let failNext = 0;
    const receiver = new WebhookReceiver({ secret: SECRET });
    receiver.on('event', (event) => {
      if (failNext > 0) {
        failNext--;
        throw new Error('handler failed');
      }
      handled.push(event.event_id);
    });
    receiver.on('error', () => {});
    const server = await adapter.start(receiver);
    afterAll(() => server.close());

    it('runs each event once, duplicates sent together or one after another', async () => {
      const event = buildWebhookEvent('i_ack');
      const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(server.url, event)));
      answers.push(await deliver(server.url, event));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(answers.filter((a) => a.body.includes('"accepted"'))).toHaveLength(1);
      expect(handled.filter((id) => id === event.event_id)).toHaveLength(1);
    });

    it('answers 500 for a handler that throws, and processes the redelivery', async () => {
      const event = buildWebhookEvent('i_comm');
      failNext = 1;
      expect((await deliver(server.url, event)).status).toBe(500);
      expect((await deliver(server.url, event)).status).toBe(200);
      expect(handled.filter((id) => id === event.event_id)).toHaveLength(1);
    });
  });
}

describe('nodeMiddleware after another middleware answered', () => {
  it('hands the error to next() instead of throwing', async () => {
    const receiver = new WebhookReceiver();
    const app = express();
    const errors: unknown[] = [];
    app.post(
      PATH,
      (_req: express.Request, res: express.Response, next: express.NextFunction) => {
        res.status(202).end('taken');
        next();
      },
      receiver.nodeMiddleware(),
      (error: unknown, _req: express.Request, _res: express.Response, _next: express.NextFunction) =>
        void errors.push(error),
    );
    const server = await listening(createServer(app));
    try {
      const answer = await deliver(server.url, buildWebhookEvent('i_new'), {});
      expect(answer).toEqual({ status: 202, body: 'taken' });
      // next(error) comes once the receiver finds the answer gone: wait for it.
      await vi.waitFor(() => expect(errors).toEqual([expect.objectContaining({ code: 'ERR_HTTP_HEADERS_SENT' })]), {
        timeout: 10_000,
        interval: 10,
      });
    } finally {
      await server.close();
    }
  });
});

describe('a delivery the receiver cannot record in time', () => {
  // A store of the user's making that never answers: Redis gone quiet.
  const stuck = new MemoryStateStore();
  const store: StateStore = {
    claim: () => new Promise<never>(() => {}),
    complete: (id, token) => stuck.complete(id, token),
    release: (id, token) => stuck.release(id, token),
    advance: (scope, time, now) => stuck.advance(scope, time, now),
  };
  const expected: Record<string, string> = { 'hono (fetchHandler)': 'HTTP 503' };

  it.each(Object.keys(adapters))('%s: no answer (the connection closes) or 503, within the deadline', async (name) => {
    const receiver = new WebhookReceiver({ store, ackTimeoutMs: 150 });
    receiver.on('error', () => {});
    const server = await (adapters[name] as { start(r: WebhookReceiver): Promise<Running> }).start(receiver);
    try {
      const started = Date.now();
      const outcome = await deliver(server.url, buildWebhookEvent('i_new'), {}).then(
        (res) => `HTTP ${res.status}`,
        (error: NodeJS.ErrnoException) => error.code ?? error.message,
      );
      expect(outcome).toBe(expected[name] ?? 'ECONNRESET');
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await server.close();
    }
  });
});

describe('a body parser in front of nodeMiddleware() (Express 5)', () => {
  it('answers what the receiver answers without one: a form is 415, a body over maxBodyBytes 413', async () => {
    const receiver = new WebhookReceiver({ maxBodyBytes: 2000 });
    const app = express();
    app.post(PATH, express.urlencoded({ extended: false }), express.json({ limit: '1mb' }), receiver.nodeMiddleware());
    const server = await listening(createServer(app));
    try {
      const form = await post(server.url, 'event_id=e1&event_type=i_new', {
        'Content-Type': 'application/x-www-form-urlencoded',
      });
      expect(form).toMatchObject({ status: 415 });
      expect(JSON.parse(form.body)).toEqual({
        outcome: 'rejected',
        reason: 'content type application/x-www-form-urlencoded is not JSON',
      });
      const big = buildWebhookEvent('i_comm', { incident: { description: 'x'.repeat(5000) } });
      expect((await deliver(server.url, big, {})).status).toBe(413);
      expect((await deliver(server.url, buildWebhookEvent('i_new'), {})).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
