// The reply every adapter sends (src/webhooks/receiver.ts `reply()`): the status of the result, a
// small JSON body with the outcome and the reason of a rejection, and nothing else of the result
// (the error on this side never leaves); a reply sent before the body was read whole (401, 405,
// 413, 415, 503) closes the connection, any other keeps it; a non-POST gets 405; a delivery that
// could not be recorded is to be dropped (503 where the transport cannot drop it).
import { describe, expect, it } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import { MemoryStateStore, UNRECORDED, WebhookReceiver } from '../../../src/webhooks/index.js';
import type { BodySource } from '../../../src/webhooks/ingress.js';

const JSON_TYPE = { 'content-type': 'application/json' };
const raw = (value: string): BodySource => ({ form: 'raw', value });
const event = () => JSON.stringify(buildWebhookEvent('i_ack'));

describe('receiver.reply()', () => {
  it('gives the fixed body of each plain outcome, keeping the connection', async () => {
    const receiver = new WebhookReceiver({ logger: false });
    const body = event();
    const accepted = await receiver.reply({ method: 'POST', headers: JSON_TYPE, body: raw(body) });
    const duplicate = await receiver.reply({ method: 'POST', headers: JSON_TYPE, body: raw(body) });
    expect(accepted).toEqual({
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: '{"outcome":"accepted"}',
      drop: false,
    });
    expect(duplicate).toMatchObject({ status: 200, body: '{"outcome":"duplicate"}', drop: false });
    const older = buildWebhookEvent('i_ack', { event_time: buildWebhookEvent('i_ack').event_time - 60_000 });
    const stale = await receiver.reply({
      method: 'POST',
      headers: JSON_TYPE,
      body: raw(JSON.stringify({ ...older, incident: JSON.parse(body).incident })),
    });
    expect(stale).toMatchObject({ status: 200, body: '{"outcome":"stale"}' });
  });

  it('says why a delivery was refused, as JSON, and closes the connection when the body may still be coming', async () => {
    const receiver = new WebhookReceiver({
      secret: { header: 'x-token', values: ['s3cret'] },
      maxBodyBytes: 64,
      logger: false,
    });
    const cases: Array<[headers: Record<string, string>, body: string, status: number, closes: boolean]> = [
      [{}, event(), 401, true],
      [{ 'x-token': 's3cret', 'content-type': 'text/plain' }, event(), 415, true],
      [{ 'x-token': 's3cret', ...JSON_TYPE }, 'x'.repeat(65), 413, true],
      [{ 'x-token': 's3cret', ...JSON_TYPE }, '{"a": "quoted \\" \\\\ and \\n"', 400, false],
    ];
    for (const [headers, body, status, closes] of cases) {
      const reply = await receiver.reply({ method: 'POST', headers, body: raw(body) });
      expect([status, reply.status, reply.drop]).toEqual([status, status, false]);
      expect(reply.headers).toEqual(
        closes ? { 'Content-Type': 'application/json', Connection: 'close' } : { 'Content-Type': 'application/json' },
      );
      const parsed = JSON.parse(reply.body) as { outcome: string; reason: string };
      expect(parsed.outcome).toBe('rejected');
      expect(typeof parsed.reason).toBe('string');
      expect(Object.keys(parsed)).toEqual(['outcome', 'reason']);
    }
  });

  it('answers every method but POST with 405, before reading anything', async () => {
    const receiver = new WebhookReceiver({ logger: false });
    let read = false;
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'post']) {
      const reply = await receiver.reply({
        method,
        headers: JSON_TYPE,
        body: {
          form: 'stream',
          read: async () => {
            read = true;
            return new Uint8Array(0);
          },
        },
      });
      expect([method, reply.status, reply.headers.Allow, reply.headers.Connection]).toEqual([
        method,
        405,
        'POST',
        'close',
      ]);
      expect(reply.body).toBe('{"outcome":"rejected","reason":"use POST"}');
    }
    expect(read).toBe(false);
  });

  it("leaves out what failed on this side: a handler's 500 and a store's 503 say only that", async () => {
    const failing = new WebhookReceiver({ logger: false });
    failing.on('event', () => {
      throw new Error('password=hunter2 at db.internal:5432');
    });
    const handlerFailed = await failing.reply({ method: 'POST', headers: JSON_TYPE, body: raw(event()) });
    expect(handlerFailed).toMatchObject({ status: 500, body: '{"outcome":"rejected","reason":"handler failed"}' });
    expect(handlerFailed.drop).toBe(false);

    const store = new MemoryStateStore();
    store.claim = (() => Promise.reject(new Error('redis at 10.0.0.7:6379 refused password hunter2'))) as never;
    const down = new WebhookReceiver({ store, logger: false });
    const unrecorded = await down.reply({ method: 'POST', headers: JSON_TYPE, body: raw(event()) });
    expect(unrecorded).toEqual({
      status: UNRECORDED,
      headers: { 'Content-Type': 'application/json', Connection: 'close' },
      body: '{"outcome":"rejected","reason":"not recorded"}',
      drop: true,
    });
    expect(JSON.stringify([handlerFailed, unrecorded])).not.toContain('hunter2');
  });
});
