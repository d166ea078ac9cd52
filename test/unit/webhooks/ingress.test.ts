// Ingress: a payload reader whose code loads on first use (why a payload is invalid, a custom
// body's keys) is waited for within the delivery's deadline like every other wait (fake clock: what
// is checked is the order of events, not the machine's speed); the body's bounds as JSON (nesting,
// UTF-8, where malformed text stops), the same for text and for a value a framework parsed.
import fc from 'fast-check';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { BodySource, HeadersLike } from '../../../src/webhooks/body.js';
import { Deadline, DeadlineExceededError } from '../../../src/webhooks/deadline.js';
import { type Admission, admit as admitTo, type IngressRules, MAX_JSON_DEPTH } from '../../../src/webhooks/ingress.js';
import { type ReadResult } from '../../../src/webhooks/kinds.js';
import { leaveFakeClock } from '../../helpers.js';

/** Whether the last admit() below handed its answer over within its own call. */
let answeredAtOnce = false;
/** The admission as a promise, rejecting with what broke the reading (which admit() hands to `failed`). */
const admit = (
  rules: IngressRules,
  headers: HeadersLike | undefined,
  source: BodySource,
  deadline: Deadline,
): Promise<Admission> => {
  let answered = false;
  const admission = new Promise<Admission>((resolve, reject) =>
    admitTo(
      rules,
      headers,
      source,
      deadline,
      (admitted) => {
        answered = true;
        resolve(admitted);
      },
      (error) => {
        answered = true;
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    ),
  );
  answeredAtOnce = answered;
  return admission;
};

const rules = (read: IngressRules['read']): IngressRules => ({ secret: undefined, maxBodyBytes: 1024, read });
const accepted: ReadResult = {
  ok: true,
  event: { event_id: 'e1', event_type: 'i_new', event_time: 1 } as never,
  keys: { eventId: 'e1', eventType: 'i_new', eventTime: 1, scope: undefined },
};

describe('admit, with a reader that is still loading', () => {
  it('waits for it within the deadline, and rejects naming the wait once the deadline passed', async () => {
    vi.useFakeTimers();
    onTestFinished(leaveFakeClock);
    const deadline = new Deadline(100);
    const admitting = admit(
      rules(() => new Promise<ReadResult>(() => {})),
      undefined,
      { form: 'parsed', value: {} },
      deadline,
    );
    expect(answeredAtOnce).toBe(false);
    const outcome = admitting.then(
      () => 'admitted',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(99);
    await vi.advanceTimersByTimeAsync(20);
    const error = await outcome;
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as Error).message).toMatch(/loading the payload reader/);
    deadline.dispose();
  });

  it('admits once it has loaded, from raw bytes as from a parsed body', async () => {
    const deadline = new Deadline(1000);
    const loading = () => Promise.resolve(accepted);
    const headers = { 'content-type': 'application/json' };
    await expect(admit(rules(loading), headers, { form: 'raw', value: '{}' }, deadline)).resolves.toMatchObject({
      ok: true,
      keys: { eventId: 'e1' },
    });
    await expect(admit(rules(loading), undefined, { form: 'parsed', value: {} }, deadline)).resolves.toMatchObject({
      ok: true,
    });
    deadline.dispose();
  });
});

describe('admit: the body as JSON', () => {
  const headers = { 'content-type': 'application/json' };
  const admitRaw = (value: string | Uint8Array) =>
    Promise.resolve(
      admit(
        rules(() => accepted),
        headers,
        { form: 'raw', value },
        new Deadline(1000),
      ),
    );
  const admitParsed = (value: unknown) =>
    Promise.resolve(
      admit(
        rules(() => accepted),
        undefined,
        { form: 'parsed', value },
        new Deadline(1000),
      ),
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
    const control: { deliver?: (body: Uint8Array | 'too-large') => void; fail?: (error: unknown) => void } = {};
    const source: BodySource = {
      form: 'stream',
      read: (_limit, done, failed) => {
        control.deliver = done;
        control.fail = failed;
      },
    };
    return { control, source };
  };
  /** 'answered' once admitted or refused, or what `failed` was given; `seen` says which, in order. */
  const admitStream = (source: BodySource, deadline: Deadline, seen: string[]) =>
    new Promise<unknown>((resolve) =>
      admitTo(
        rules(() => accepted),
        headers,
        source,
        deadline,
        (admission) => {
          seen.push(admission.ok ? 'admitted' : `refused ${admission.status}`);
          resolve('answered');
        },
        (error) => {
          seen.push('failed');
          resolve(error);
        },
      ),
    );

  it("hands the admission over in the body's last event (no promise between), and answers with it", async () => {
    const deadline = new Deadline(1000);
    const { control, source } = controlled();
    const seen: string[] = [];
    const answer = admitStream(source, deadline, seen);
    control.deliver?.(bytes('{}'));
    seen.push('after the body');
    expect(seen).toEqual(['admitted', 'after the body']);
    expect(await answer).toBe('answered');
    deadline.dispose();
  });

  it('refuses a body over the limit (413) and hands a broken read to `failed`', async () => {
    const deadline = new Deadline(1000);
    const seen: string[] = [];
    const over = controlled();
    const tooLarge = admitStream(over.source, deadline, seen);
    over.control.deliver?.('too-large');
    expect(await tooLarge).toBe('answered');
    const broken = controlled();
    const reset = new Error('socket hang up');
    const failed = admitStream(broken.source, deadline, seen);
    broken.control.fail?.(reset);
    broken.control.deliver?.(bytes('{}')); // after the failure: ignored
    expect(await failed).toBe(reset);
    expect(seen).toEqual(['refused 413', 'failed']);
    deadline.dispose();
  });

  it('answers a body that misses the deadline with `failed`, and never admits it when it comes later', async () => {
    vi.useFakeTimers();
    onTestFinished(leaveFakeClock);
    const deadline = new Deadline(100);
    const { control, source } = controlled();
    const seen: string[] = [];
    const answer = admitStream(source, deadline, seen);
    await vi.advanceTimersByTimeAsync(110);
    const error = await answer;
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as Error).message).toMatch(/reading the body/);
    control.deliver?.(bytes('{}'));
    expect(seen).toEqual(['failed']);
    deadline.dispose();
  });
});
