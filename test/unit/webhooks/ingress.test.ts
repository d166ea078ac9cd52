// Ingress (src/webhooks/ingress.ts): the body's bounds as JSON (nesting, UTF-8, where malformed
// text stops), the same for text and for a value a framework parsed. A body still to read is read
// by the receiver within the delivery's deadline (fake clock: what is checked is the order of
// events, not the machine's speed), and a read that broke or came too late is never admitted.
import fc from 'fast-check';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import { WebhookReceiver } from '../../../src/webhooks/index.js';
import { admit, type BodySource, type IngressRules, MAX_JSON_DEPTH } from '../../../src/webhooks/ingress.js';
import type { ReadResult } from '../../../src/webhooks/payload.js';
import { leaveFakeClock } from '../../helpers.js';

const rules = (read: IngressRules['read']): IngressRules => ({ secret: undefined, maxBodyBytes: 1024, read });
const accepted: ReadResult = {
  ok: true,
  event: { event_id: 'e1', event_type: 'i_new', event_time: 1 } as never,
  keys: { eventId: 'e1', eventType: 'i_new', eventTime: 1, scope: undefined },
};

describe('admit: the body as JSON', () => {
  const admitRaw = (value: string | Uint8Array) =>
    admit(
      rules(() => accepted),
      { form: 'raw', value },
    );
  const admitParsed = (value: unknown) =>
    admit(
      rules(() => accepted),
      { form: 'parsed', value },
    );
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH}, in text and in a parsed value, and lets ${MAX_JSON_DEPTH} in`, async () => {
    const refused = { ok: false, status: 400, reason: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
    expect(admitRaw(`{"a":${deep(MAX_JSON_DEPTH)}}`)).toEqual(refused);
    expect(admitRaw(`{"a":${deep(MAX_JSON_DEPTH - 1)}}`)).toMatchObject({ ok: true });
    expect(admitParsed(JSON.parse(`{"a":${deep(MAX_JSON_DEPTH)}}`))).toEqual(refused);
    expect(admitParsed(JSON.parse(`{"a":${deep(MAX_JSON_DEPTH - 1)}}`))).toMatchObject({ ok: true });
    // Brackets inside strings (escaped quotes too) are text, not nesting.
    expect(admitRaw(JSON.stringify({ a: `\\"${deep(500)}`, b: '"[[[' }))).toMatchObject({ ok: true });
  });

  it('counts nesting in text as JSON.parse builds it (property)', async () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a') }),
        fc.integer(),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.string({ unit: fc.constantFrom('[', '"', '\\', 'k') }), tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    const depthOf = (v: unknown): number =>
      typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;
    await fc.assert(
      fc.asyncProperty(value, fc.integer({ min: 0, max: 3 }), async (inner, wrap) => {
        const body = {
          event_id: 'e',
          wrapped: JSON.parse(
            `${'['.repeat(MAX_JSON_DEPTH - 2 + wrap)}${JSON.stringify(inner)}${']'.repeat(MAX_JSON_DEPTH - 2 + wrap)}`,
          ) as unknown,
        };
        const tooDeep = depthOf(body) > MAX_JSON_DEPTH;
        expect(admitRaw(JSON.stringify(body)).ok).toBe(!tooDeep);
        expect(admitParsed(body).ok).toBe(!tooDeep);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses bytes that are not UTF-8, and names where malformed JSON stops, quoting none of it', async () => {
    expect(admitRaw(Uint8Array.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))).toEqual({
      ok: false,
      status: 400,
      reason: 'the body is not UTF-8',
    });
    expect(admitRaw('{"token": "SECRET", oops}')).toEqual({
      ok: false,
      status: 400,
      reason: 'malformed JSON at position 20',
    });
    expect(admitRaw('{"a": [1, 2')).toMatchObject({ reason: 'malformed JSON at position 11' });
    expect(admitRaw('  ')).toMatchObject({ reason: 'empty body' });
  });
});

describe('the receiver: a body still to read', () => {
  const headers = { 'content-type': 'application/json' };
  const bytes = (text: string) => new TextEncoder().encode(text);
  /** A stream source whose body the test hands over (`deliver`) or breaks (`fail`) when it likes. */
  const controlled = () => {
    const control: {
      deliver?: (body: Uint8Array | 'too-large') => void;
      fail?: (error: unknown) => void;
      limit?: number;
    } = {};
    const source: BodySource = {
      form: 'stream',
      read: (limit, deadline) =>
        new Promise((resolve, reject) => {
          deadline.bound(reject, 'reading the body'); // as the adapters' readers do
          control.limit = limit;
          control.deliver = resolve;
          control.fail = reject;
        }),
    };
    return { control, source };
  };
  const replyTo = (receiver: WebhookReceiver, source: BodySource) =>
    receiver
      .reply({ method: 'POST', headers, body: source })
      .then((reply) => `${reply.status}${reply.drop ? ' dropped' : ''}`);

  it('reads up to maxBodyBytes, and admits the body once read', async () => {
    const receiver = new WebhookReceiver({ maxBodyBytes: 4096, logger: false });
    const { control, source } = controlled();
    const reply = replyTo(receiver, source);
    await Promise.resolve();
    expect(control.limit).toBe(4096);
    control.deliver?.(bytes(JSON.stringify(buildWebhookEvent('i_ack'))));
    expect(await reply).toBe('200');
  });

  it('refuses a body over the limit (413); a broken read is not recorded, and told', async () => {
    const receiver = new WebhookReceiver({ logger: false });
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    const over = controlled();
    const tooLarge = replyTo(receiver, over.source);
    await Promise.resolve();
    over.control.deliver?.('too-large');
    expect(await tooLarge).toBe('413');
    const broken = controlled();
    const reset = new Error('socket hang up');
    const failed = replyTo(receiver, broken.source);
    await Promise.resolve();
    broken.control.fail?.(reset);
    broken.control.deliver?.(bytes('{}')); // after the failure: nothing
    expect(await failed).toBe('503 dropped');
    expect(errors).toEqual([reset]);
  });

  it('gives up on a body that misses the deadline, and never admits it when it comes later', async () => {
    vi.useFakeTimers();
    onTestFinished(leaveFakeClock);
    const receiver = new WebhookReceiver({ ackTimeoutMs: 100, logger: false });
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    const handled = vi.fn();
    receiver.on('event', handled);
    const { control, source } = controlled();
    const reply = replyTo(receiver, source);
    await vi.advanceTimersByTimeAsync(99);
    await vi.advanceTimersByTimeAsync(20);
    expect(await reply).toBe('503 dropped');
    expect(String(errors[0])).toMatch(/reading the body did not finish within the ack deadline \(100 ms\)/);
    control.deliver?.(bytes(JSON.stringify(buildWebhookEvent('i_ack'))));
    await vi.advanceTimersByTimeAsync(10);
    expect(handled).not.toHaveBeenCalled();
  });
});
