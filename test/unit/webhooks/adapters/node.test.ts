// The node adapter's answer comes as soon as the delivery's fate is known: in the body's last event
// with synchronous handlers, and a few turns after an async handler settled (each turn between the
// body and the answer costs throughput over HTTP: docs/performance.md). The request is a real node
// Readable (a PassThrough); what is checked is when the answer is written, counted in turns.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildWebhookEvent } from '../../../../src/testing/index.js';
import { nodeMiddleware, type NodeMiddleware, WebhookReceiver } from '../../../../src/webhooks/index.js';

/** A request whose body is `body` once 'end' is emitted, and a response that records when it was answered. */
function exchange() {
  const req = Object.assign(new PassThrough(), { headers: { 'content-type': 'application/json' } });
  let answer: () => void = () => {};
  const res = {
    status: 0,
    body: '',
    answered: new Promise<void>((resolve) => (answer = resolve)),
    writeHead(status: number) {
      this.status = status;
    },
    end(body?: string) {
      this.body = body ?? '';
      answer();
    },
    destroy() {
      this.status = -1;
      answer();
    },
  };
  return { req, res };
}

/** Turns of the microtask queue until `done()`, at most `max`. */
async function turnsUntil(done: () => boolean, max = 20): Promise<number> {
  for (let turns = 0; turns <= max; turns++) {
    if (done()) return turns;
    await Promise.resolve();
  }
  return Infinity;
}

/** Sends one delivery through `middleware`; resolves once its body's last event has run. */
async function deliver(middleware: NodeMiddleware) {
  const { req, res } = exchange();
  let answeredInEnd = false;
  middleware(req, res);
  req.on('end', () => (answeredInEnd = res.status !== 0)); // after the receiver's own 'end' listener
  await new Promise<void>((resolve) => {
    req.once('end', () => resolve());
    req.end(JSON.stringify(buildWebhookEvent('i_ack')));
  });
  return { res, answeredInEnd };
}

describe('nodeMiddleware: when the answer is written', () => {
  it("with synchronous handlers: in the body's last event", async () => {
    const receiver = new WebhookReceiver({ logger: false });
    receiver.on('event', () => {});
    const { res, answeredInEnd } = await deliver(nodeMiddleware(receiver));
    expect(answeredInEnd).toBe(true);
    expect(res).toMatchObject({ status: 200, body: '{"outcome":"accepted"}' });
  });

  it("with an async handler: within three turns of the handler's promise", async () => {
    const receiver = new WebhookReceiver({ logger: false });
    let settle: (() => void) | undefined;
    receiver.on('event', () => new Promise<void>((resolve) => (settle = resolve)));
    const { res, answeredInEnd } = await deliver(nodeMiddleware(receiver));
    expect(answeredInEnd).toBe(false);
    expect(settle).toBeDefined();
    settle?.();
    expect(await turnsUntil(() => res.status !== 0)).toBeLessThanOrEqual(3);
    expect(res).toMatchObject({ status: 200, body: '{"outcome":"accepted"}' });
  });
});

describe('receiver.nodeMiddleware(): the adapter loads apart', () => {
  it('answers a request that came before its code loaded, and the ones after', async () => {
    const receiver = new WebhookReceiver({ logger: false });
    const middleware = receiver.nodeMiddleware();
    const first = exchange();
    middleware(first.req, first.res); // before the load: its body stays in the stream meanwhile
    first.req.end(JSON.stringify(buildWebhookEvent('i_ack')));
    await first.res.answered;
    expect(first.res.status).toBe(200);
    const { res } = await deliver(middleware);
    expect(res).toMatchObject({ status: 200, body: '{"outcome":"accepted"}' });
  });
});
