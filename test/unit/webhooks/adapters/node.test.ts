// The node adapter's answer comes as soon as the delivery's fate is known: in the body's last event
// with synchronous handlers, and a few turns after an async handler settled (each turn between the
// body and the answer costs throughput over HTTP: docs/performance.md). The request is a real node
// Readable (a PassThrough); what is checked is when the answer is written, counted in turns.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildWebhookEvent } from '../../../../src/testing/index.js';
import { WebhookReceiver } from '../../../../src/webhooks/index.js';

/** A request whose body is `body` once 'end' is emitted, and a response that records when it was answered. */
function exchange() {
  const req = Object.assign(new PassThrough(), { headers: { 'content-type': 'application/json' } });
  const res = {
    status: 0,
    body: '',
    writeHead(status: number) {
      this.status = status;
    },
    end(body?: string) {
      this.body = body ?? '';
    },
    destroy() {
      this.status = -1;
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

/** Sends one delivery through nodeMiddleware; resolves once its body's last event has run. */
async function deliver(receiver: WebhookReceiver) {
  const { req, res } = exchange();
  let answeredInEnd = false;
  receiver.nodeMiddleware()(req, res);
  req.on('end', () => (answeredInEnd = res.status !== 0)); // after the receiver's own 'end' listener
  await new Promise<void>((resolve) => {
    req.once('end', () => resolve());
    req.end(JSON.stringify(buildWebhookEvent('i_ack')));
    req.resume();
  });
  return { res, answeredInEnd };
}

describe('nodeMiddleware: when the answer is written', () => {
  it("with synchronous handlers: in the body's last event", async () => {
    const receiver = new WebhookReceiver({ logger: false });
    receiver.on('event', () => {});
    const { res, answeredInEnd } = await deliver(receiver);
    expect(answeredInEnd).toBe(true);
    expect(res).toMatchObject({ status: 200, body: '{"outcome":"accepted"}' });
  });

  it("with an async handler: within three turns of the handler's promise", async () => {
    const receiver = new WebhookReceiver({ logger: false });
    let settle: (() => void) | undefined;
    receiver.on('event', () => new Promise<void>((resolve) => (settle = resolve)));
    const { res, answeredInEnd } = await deliver(receiver);
    expect(answeredInEnd).toBe(false);
    expect(settle).toBeDefined();
    settle?.();
    expect(await turnsUntil(() => res.status !== 0)).toBeLessThanOrEqual(3);
    expect(res).toMatchObject({ status: 200, body: '{"outcome":"accepted"}' });
  });
});
