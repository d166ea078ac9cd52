// What a hostile sender can make the receiver do, through every adapter under its real framework,
// with and without a real BullMQ queue: the same answer everywhere, and nothing accepted lost.
//   deep nesting → 400 (never a closed connection: BullMQ could not store it)
//   ids that are not well-formed Unicode (lone surrogates, invalid UTF-8) → 400, never merged into one
//   an incident's event_time in seconds → 400 naming event_time
//   malformed JSON → 400 naming the position, quoting none of the body
//   an early answer (401, 413, 415) → the connection closed, however slowly the body still dribbles
//   a UTF-8 secret → the same verdict over HTTP as through receive()
import { request } from 'node:http';
import { connect } from 'node:net';
import { Queue } from 'bullmq';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../../src/testing/index.js';
import { type WebhookEvent, WebhookReceiver } from '../../../src/webhooks/index.js';
import { adapters, type Running } from '../support/adapters.js';
import { startRedis } from '../support/redis.js';

const redis = await startRedis();
afterAll(() => redis.stop());
const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };

const SECRET = 'pässwörd-ü';
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

let queueNumber = 0;
/** A receiver with the secret, direct or on a real BullMQ queue; what its handlers saw. */
function receiverFor(mode: 'direct' | 'queue') {
  let queue: Queue | undefined;
  if (mode === 'queue') {
    const created = new Queue(`hostile-${process.pid}-${++queueNumber}`, { connection });
    closers.push(() => created.obliterate({ force: true }).then(() => created.close()));
    queue = created;
  }
  const receiver = new WebhookReceiver({
    secret: { header: 'x-token', values: [SECRET] },
    logger: false,
    maxBodyBytes: 64 * 1024,
    ...(queue ? { queue } : {}),
  });
  const handled: string[] = [];
  receiver.on('event', (event) => void handled.push(event.event_id));
  return { receiver, handled, queue };
}

/**
 * The secret's UTF-8 bytes as a header value: each byte one character, which node:http writes as
 * one byte each when the body is a Buffer (as `post` sends it).
 */
const SECRET_ON_THE_WIRE = Buffer.from(SECRET, 'utf8').toString('latin1');
const HEADERS = { 'content-type': 'application/json', 'x-token': SECRET_ON_THE_WIRE };

async function start(name: string, receiver: WebhookReceiver): Promise<Running> {
  const running = await (adapters[name] as { start(r: WebhookReceiver): Promise<Running> }).start(receiver);
  closers.push(() => running.close());
  return running;
}

/** A JSON text nested `depth` deep around a valid delivery's fields. */
function nested(event: WebhookEvent, depth: number): string {
  return JSON.stringify(event).replace(/}$/, `,"deep":${'['.repeat(depth)}${']'.repeat(depth)}}`);
}

/** Sends the head of a request with a long body, then a byte every 20 ms: when does the server close? */
async function dribble(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: string; closedAfterMs: number }> {
  const { hostname, port, pathname } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const started = Date.now();
  let answer = '';
  socket.on('data', (chunk) => (answer += String(chunk)));
  socket.on('error', () => {});
  const head = Object.entries({ ...headers, host: hostname, 'content-length': '100000' })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  socket.write(`POST ${pathname} HTTP/1.1\r\n${head}\r\n\r\n`, 'latin1');
  const timer = setInterval(() => socket.writable && socket.write('x'), 20);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  clearInterval(timer);
  const closedAfterMs = socket.destroyed ? Date.now() - started : Infinity;
  socket.destroy();
  return { status: answer.split('\r\n')[0] ?? '', closedAfterMs };
}

for (const mode of ['direct', 'queue'] as const) {
  describe.each(Object.keys(adapters))(`%s, ${mode}`, (name) => {
    const parsed = adapters[name]?.parsed === true;

    it('refuses JSON nested deeper than 100 levels with 400, and takes 100', async () => {
      const { receiver, queue } = receiverFor(mode);
      const { url } = await start(name, receiver);
      const deep = await post(url, nested(buildWebhookEvent('i_new'), 5_000), HEADERS);
      expect(deep).toMatchObject({ status: 400 });
      expect(JSON.parse(deep.body)).toEqual({ outcome: 'rejected', reason: 'JSON nested deeper than 100 levels' });
      const fine = buildWebhookEvent('i_new');
      expect((await post(url, nested(fine, 99), HEADERS)).status).toBe(200);
      if (queue) expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
    });

    it('refuses ids that are not well-formed Unicode: none merged into another', async () => {
      const { receiver, handled } = receiverFor(mode);
      const { url } = await start(name, receiver);
      const event = buildWebhookEvent('i_new');
      const text = JSON.stringify(event);
      // A lone surrogate, escaped in JSON (valid JSON text, not a valid id).
      const lone = text.replace(`"event_id":"${event.event_id}"`, `"event_id":"${event.event_id}\\ud800"`);
      expect(await post(url, lone, HEADERS)).toMatchObject({
        status: 400,
        body: '{"outcome":"rejected","reason":"invalid payload at event_id: not well-formed Unicode"}',
      });
      // Ids that differ only in invalid UTF-8 bytes: the raw body is refused as not UTF-8, and one a
      // framework decoded (each invalid byte as U+FFFD) is refused for its id.
      const statuses = [];
      const end = text.indexOf(event.event_id) + event.event_id.length;
      for (const byte of [0xff, 0xfe]) {
        const raw = Buffer.concat([Buffer.from(text.slice(0, end)), Buffer.from([byte]), Buffer.from(text.slice(end))]);
        statuses.push(await postBytes(url, raw, HEADERS));
      }
      expect(statuses.map((s) => s.status)).toEqual([400, 400]);
      expect(statuses[0]?.body).toMatch(parsed ? /not well-formed Unicode/ : /the body is not UTF-8/);
      expect(handled).toEqual([]);
    });

    it('refuses an incident event_time in seconds with 400 naming event_time', async () => {
      const { receiver } = receiverFor(mode);
      const { url } = await start(name, receiver);
      const seconds = buildWebhookEvent('i_ack', { event_time: Math.floor(Date.now() / 1000) });
      expect(await post(url, buildDelivery(seconds).body, HEADERS)).toMatchObject({
        status: 400,
        body: '{"outcome":"rejected","reason":"invalid payload at event_time: expected Unix milliseconds, got what reads as seconds"}',
      });
    });

    it('names the position of malformed JSON and quotes none of the body', async () => {
      if (parsed) return; // express.json() answers malformed JSON itself, before the receiver
      const { receiver } = receiverFor(mode);
      const { url } = await start(name, receiver);
      const answer = await post(url, '{"event_id": "TOPSECRET-1234", oops}', HEADERS);
      expect(answer).toMatchObject({
        status: 400,
        body: '{"outcome":"rejected","reason":"malformed JSON at position 31"}',
      });
    });

    it('closes the connection after an early answer while the body still dribbles in', async () => {
      const { receiver } = receiverFor(mode);
      const { url } = await start(name, receiver);
      if (parsed) {
        // express.json() reads the whole body before any middleware runs: the receiver answers a
        // complete request, and still closes the connection after its early answer.
        const answer = await postBytes(url, Buffer.from('{}'), { ...HEADERS, 'x-token': 'wrong' });
        expect(answer).toMatchObject({ status: 401, connection: 'close' });
        return;
      }
      const wrongSecret = await dribble(url, { ...HEADERS, 'x-token': 'wrong' });
      expect(wrongSecret.status).toBe('HTTP/1.1 401 Unauthorized');
      expect(wrongSecret.closedAfterMs).toBeLessThan(2_000);
      const notJson = await dribble(url, { ...HEADERS, 'content-type': 'text/plain' });
      expect(notJson.status).toBe('HTTP/1.1 415 Unsupported Media Type');
      expect(notJson.closedAfterMs).toBeLessThan(2_000);
    });

    it('takes a UTF-8 secret over HTTP as receive() does, and refuses a wrong one', async () => {
      const { receiver } = receiverFor(mode);
      const { url } = await start(name, receiver);
      const event = buildWebhookEvent('i_new');
      expect((await post(url, buildDelivery(event).body, HEADERS)).status).toBe(200);
      const viaReceive = await receiver.receive(
        buildDelivery(buildWebhookEvent('i_new'), { headers: { 'x-token': SECRET } }).receiveInput(),
      );
      expect(viaReceive.status).toBe(200);
      const wrong = Buffer.from('pässwörd-u', 'utf8').toString('latin1');
      expect(
        (await post(url, buildDelivery(buildWebhookEvent('i_new')).body, { ...HEADERS, 'x-token': wrong })).status,
      ).toBe(401);
    });
  });
}

/** Posts a body with exactly the given headers, each header character one byte on the wire. */
function post(url: string, body: string | Buffer, headers: Record<string, string>) {
  return postBytes(url, Buffer.from(body), headers);
}

/** Posts raw bytes with exactly the given headers (a Buffer body makes node:http write headers as Latin-1). */
function postBytes(url: string, body: Buffer, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        const connection = res.headers.connection;
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), connection }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('more attacks, counted (node:http, memory and Redis stores)', () => {
  it('ids named after Object.prototype keys are ids like any other: handled once, then duplicates', async () => {
    const { Redis } = await import('ioredis');
    const client = new Redis(redis.url);
    closers.push(() => client.quit());
    const { MemoryStateStore, RedisStateStore } = await import('../../../src/webhooks/index.js');
    for (const store of [new MemoryStateStore(), new RedisStateStore({ client, keyPrefix: 'attack:' })]) {
      const receiver = new WebhookReceiver({ store, logger: false });
      const handled: string[] = [];
      receiver.on('event', (event) => void handled.push(event.event_id));
      const { url } = await start('node:http', receiver);
      const statuses: number[] = [];
      for (const id of ['__proto__', 'constructor', 'hasOwnProperty', 'toString', '__proto__', 'constructor'])
        statuses.push(
          (await post(url, JSON.stringify(buildWebhookEvent('i_new', { event_id: id })), HEADERS_PLAIN)).status,
        );
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
      expect(handled).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString']);
    }
  });

  it('a body of 100 000 keys within the limit is accepted (by the deadline, or it would be 503); one over the limit is 413', async () => {
    const receiver = new WebhookReceiver({ logger: false, maxBodyBytes: 2 * 1024 * 1024 });
    const { url } = await start('node:http', receiver);
    const wide = {
      ...buildWebhookEvent('i_new'),
      extra: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])),
    };
    // 200 is only given by the deadline: a slower answer would have been a 503.
    expect((await post(url, JSON.stringify(wide), HEADERS_PLAIN)).status).toBe(200);
    const huge = { ...buildWebhookEvent('i_new'), pad: 'x'.repeat(2 * 1024 * 1024) };
    expect((await post(url, JSON.stringify(huge), HEADERS_PLAIN)).status).toBe(413);
  });

  it('event_time at the edges: far ahead is handled and moves no watermark; negative or seconds are 400', async () => {
    const receiver = new WebhookReceiver({ logger: false });
    const { url } = await start('node:http', receiver);
    const incident = { incident_id: 'edges-incident' };
    const send = (event_time: number) =>
      post(url, JSON.stringify(buildWebhookEvent('i_ack', { event_time, incident })), HEADERS_PLAIN);
    expect((await send(Number.MAX_SAFE_INTEGER)).status).toBe(200);
    expect(JSON.parse((await send(Date.now())).body)).toEqual({ outcome: 'accepted' }); // not made stale
    expect((await send(-1)).status).toBe(400);
    expect((await send(1_700_000_000)).status).toBe(400);
  });

  it('a thousand concurrent deliveries of one event: its handler runs once, every one answered by the deadline', async () => {
    const receiver = new WebhookReceiver({ logger: false });
    let runs = 0;
    receiver.on('event', async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    const { url } = await start('node:http', receiver);
    const body = JSON.stringify(buildWebhookEvent('i_new'));
    const answers = await Promise.all(Array.from({ length: 1_000 }, () => post(url, body, HEADERS_PLAIN)));
    const outcomes = answers.map((a) => (JSON.parse(a.body) as { outcome: string }).outcome);
    expect(runs).toBe(1);
    expect(outcomes.filter((o) => o === 'accepted')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(999);
  });

  it('duplicate keys in the JSON: the last one counts, as JSON.parse and the sender agree', async () => {
    const receiver = new WebhookReceiver({ logger: false });
    const handled: string[] = [];
    receiver.on('event', (event) => void handled.push(event.event_id));
    const { url } = await start('node:http', receiver);
    const text = JSON.stringify(buildWebhookEvent('i_new', { event_id: 'second' })).replace(
      '{',
      '{"event_id":"first",',
    );
    expect((await post(url, text, HEADERS_PLAIN)).status).toBe(200);
    expect(handled).toEqual(['second']);
  });
});

/** JSON without a secret header (the receivers above have none). */
const HEADERS_PLAIN = { 'content-type': 'application/json' };
