// Ingress (src/webhooks/ingress.ts): the body's bounds as JSON (nesting, UTF-8, where malformed
// text stops), the same for text and for a value a framework parsed; a body still to read is read
// within the delivery's deadline (fake clock: what is checked is the order of events, not the
// machine's speed), and a read that broke or came too late is never admitted.
import fc from 'fast-check';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { Deadline, DeadlineExceededError } from '../../../src/webhooks/deadline.js';
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
  const headers = { 'content-type': 'application/json' };
  const admitRaw = (value: string | Uint8Array) =>
    admit(
      rules(() => accepted),
      headers,
      { form: 'raw', value },
      new Deadline(1000),
    );
  const admitParsed = (value: unknown) =>
    admit(
      rules(() => accepted),
      undefined,
      { form: 'parsed', value },
      new Deadline(1000),
    );
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH}, in text and in a parsed value, and lets ${MAX_JSON_DEPTH} in`, async () => {
    const refused = { ok: false, status: 400, reason: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
    expect(await admitRaw(`{"a":${deep(MAX_JSON_DEPTH)}}`)).toEqual(refused);
    expect(await admitRaw(`{"a":${deep(MAX_JSON_DEPTH - 1)}}`)).toMatchObject({ ok: true });
    expect(await admitParsed(JSON.parse(`{"a":${deep(MAX_JSON_DEPTH)}}`))).toEqual(refused);
    expect(await admitParsed(JSON.parse(`{"a":${deep(MAX_JSON_DEPTH - 1)}}`))).toMatchObject({ ok: true });
    // Brackets inside strings (escaped quotes too) are text, not nesting.
    expect(await admitRaw(JSON.stringify({ a: `\\"${deep(500)}`, b: '"[[[' }))).toMatchObject({ ok: true });
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
        expect((await admitRaw(JSON.stringify(body))).ok).toBe(!tooDeep);
        expect((await admitParsed(body)).ok).toBe(!tooDeep);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses bytes that are not UTF-8, and names where malformed JSON stops, quoting none of it', async () => {
    expect(await admitRaw(Uint8Array.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))).toEqual({
      ok: false,
      status: 400,
      reason: 'the body is not UTF-8',
    });
    expect(await admitRaw('{"token": "SECRET", oops}')).toEqual({
      ok: false,
      status: 400,
      reason: 'malformed JSON at position 20',
    });
    expect(await admitRaw('{"a": [1, 2')).toMatchObject({ reason: 'malformed JSON at position 11' });
    expect(await admitRaw('  ')).toMatchObject({ reason: 'empty body' });
  });
});

describe('admit: a body still to read', () => {
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
      read: (limit) =>
        new Promise((resolve, reject) => {
          control.limit = limit;
          control.deliver = resolve;
          control.fail = reject;
        }),
    };
    return { control, source };
  };
  const admitStream = (source: BodySource, deadline: Deadline) =>
    admit(
      rules(() => accepted),
      headers,
      source,
      deadline,
    ).then(
      (admission) => (admission.ok ? 'admitted' : `refused ${admission.status}`),
      (error: unknown) => error,
    );

  it('reads up to maxBodyBytes, and admits the body once read', async () => {
    const deadline = new Deadline(1000);
    const { control, source } = controlled();
    const admission = admitStream(source, deadline);
    await Promise.resolve();
    expect(control.limit).toBe(1024);
    control.deliver?.(bytes('{}'));
    expect(await admission).toBe('admitted');
    deadline.dispose();
  });

  it('refuses a body over the limit (413) and rejects with what broke the read', async () => {
    const deadline = new Deadline(1000);
    const over = controlled();
    const tooLarge = admitStream(over.source, deadline);
    await Promise.resolve();
    over.control.deliver?.('too-large');
    expect(await tooLarge).toBe('refused 413');
    const broken = controlled();
    const reset = new Error('socket hang up');
    const failed = admitStream(broken.source, deadline);
    await Promise.resolve();
    broken.control.fail?.(reset);
    broken.control.deliver?.(bytes('{}')); // after the failure: nothing
    expect(await failed).toBe(reset);
    deadline.dispose();
  });

  it('rejects a body that misses the deadline, naming the wait, and never admits it when it comes later', async () => {
    vi.useFakeTimers();
    onTestFinished(leaveFakeClock);
    const deadline = new Deadline(100);
    const { control, source } = controlled();
    const read = vi.fn((body: unknown) => (void body, accepted));
    const admission = admit(rules(read), headers, source, deadline);
    const outcome = admission.then(
      () => 'admitted',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(99);
    expect(read).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(20);
    const error = await outcome;
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as Error).message).toMatch(/reading the body/);
    control.deliver?.(bytes('{}'));
    await vi.advanceTimersByTimeAsync(10);
    expect(read).not.toHaveBeenCalled();
    deadline.dispose();
  });
});
