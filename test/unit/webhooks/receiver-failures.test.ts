// What the receiver is handed that fails (a logger, a headers object, a body that never ends or
// cannot be read, a store, a tracer, a meter): every delivery is still answered, as "not recorded"
// (503) with the failure on 'error' where the delivery could not be recorded, and nothing is thrown
// at the caller or at the shared timer that watches every delivery's deadline. A meter that throws
// costs its measurement only. Real timers: the deadlines are short.
import { context, type ContextManager, metrics, type MeterProvider, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import { type StateStore, WebhookReceiver } from '../../../src/webhooks/index.js';
import type { BodySource } from '../../../src/webhooks/ingress.js';
import { inMemoryTracing } from '../../otel.js';

const headers = { 'content-type': 'application/json' };
/** A body whose stream never ends (a sender that stopped sending), read as the adapters read: until the deadline. */
const hung: BodySource = {
  form: 'stream',
  read: (_limit, deadline) => new Promise((_resolve, reject) => deadline.bound(reject, 'reading the body')),
};
const throwingLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {
    throw new Error('logger down');
  },
};

describe('failures of what the receiver is handed', () => {
  it("a logger that throws: the delivery is still answered at its deadline, and other receivers' deadlines still pass", async () => {
    const failing = new WebhookReceiver({ ackTimeoutMs: 50, logger: throwingLogger });
    const other = new WebhookReceiver({ ackTimeoutMs: 100, logger: false });
    const errors: unknown[] = [];
    failing.on('error', (error) => void errors.push(error));
    const [first, second] = await Promise.all([
      failing.reply({ method: 'POST', headers, body: hung }),
      other.reply({ method: 'POST', headers, body: hung }),
    ]);
    expect(first).toMatchObject({ status: 503, drop: true });
    expect(second).toMatchObject({ status: 503, drop: true });
    expect(String(errors[0])).toMatch(/reading the body did not finish within the ack deadline \(50 ms\)/);
  });

  it('receive() never throws: headers that cannot be read, a store and a logger that throw', async () => {
    const unreadable = new Proxy(
      {},
      {
        get() {
          throw new Error('headers gone');
        },
      },
    );
    const receiver = new WebhookReceiver({ logger: false });
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    const answering = receiver.receive({ body: '{}', headers: unreadable });
    expect(answering).toBeInstanceOf(Promise);
    expect(await answering).toMatchObject({ status: 503, reason: 'not recorded' });
    expect(errors).toEqual([new Error('headers gone')]);

    const broken: StateStore = {
      claim() {
        throw new Error('store down');
      },
      complete() {},
      release() {},
      advance: () => true,
    };
    const failing = new WebhookReceiver({ store: broken, logger: throwingLogger });
    const result = failing.receive({ body: JSON.stringify(buildWebhookEvent('i_new')), headers });
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toMatchObject({ status: 503, reason: 'not recorded' });
  });

  it('a body that cannot be read (a stream some middleware locked): 503 at once, the failure on "error"', async () => {
    const receiver = new WebhookReceiver({ logger: false, ackTimeoutMs: 60_000 }); // waiting for it would time the test out
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    const request = new Request('http://receiver.test/hooks', {
      method: 'POST',
      headers,
      body: JSON.stringify(buildWebhookEvent('i_new')),
    });
    request.body?.getReader(); // locked
    const response = await receiver.fetchHandler(request);
    expect(response.status).toBe(503);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
  });

  it('a span that fails (a context manager that throws after the work): answered once, 503, the failure on "error"', async () => {
    const { provider } = inMemoryTracing();
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager({
      active: () => ROOT_CONTEXT,
      with: ((_context: unknown, run: () => unknown) => {
        run();
        throw new Error('context manager broke');
      }) as ContextManager['with'],
      bind: (_context, target) => target,
      enable() {
        return this;
      },
      disable() {
        return this;
      },
    });
    onTestFinished(() => {
      trace.disable();
      context.disable();
    });
    const receiver = new WebhookReceiver({ logger: false });
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    const result = await receiver.receive({ body: JSON.stringify(buildWebhookEvent('i_new')), headers });
    expect(result).toMatchObject({ status: 503, reason: 'not recorded' });
    expect(errors).toEqual([new Error('context manager broke')]);
  });

  it("a meter that throws when the handlers' run or the delivery is recorded costs the measurement only", async () => {
    const throwing = () => {
      throw new Error('meter broke');
    };
    const meter = { createCounter: () => ({ add: throwing }), createHistogram: () => ({ record: throwing }) };
    metrics.setGlobalMeterProvider({ getMeter: () => meter } as unknown as MeterProvider);
    onTestFinished(() => metrics.disable());
    const receiver = new WebhookReceiver({ logger: false, ackTimeoutMs: 60_000 }); // waiting for it would time the test out
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    receiver.on('event', async () => {});
    const body = JSON.stringify(buildWebhookEvent('i_new'));
    expect(await receiver.receive({ body, headers })).toMatchObject({ status: 200, outcome: 'accepted' });
    expect(errors).toEqual([]);
    expect(await receiver.receive({ body, headers })).toMatchObject({ status: 200, outcome: 'duplicate' }); // completed
  });

  it('a handler that rejects or throws with nothing (undefined) fails like any other: 500, told, its claim released for the retry', async () => {
    // What a user's handler may do, though the rules of this repository's own code forbid it.
    for (const fail of [
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      () => Promise.reject(),
      () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        throw undefined;
      },
    ]) {
      const receiver = new WebhookReceiver({ logger: false });
      const errors: unknown[] = [];
      receiver.on('error', (error) => void errors.push(error));
      let runs = 0;
      receiver.on('i_ack', () => (++runs === 1 ? fail() : undefined));
      const body = JSON.stringify(buildWebhookEvent('i_ack'));
      expect(await receiver.receive({ body, headers })).toMatchObject({ status: 500, reason: 'handler failed' });
      expect(errors).toEqual([undefined]);
      expect(await receiver.receive({ body, headers })).toMatchObject({ status: 200, outcome: 'accepted' });
      expect(runs).toBe(2);
    }
  });
});
