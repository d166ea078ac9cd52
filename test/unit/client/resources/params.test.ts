// A method's params as its wire body (src/client/resources/params.ts), by the operation's rules: a
// Date for a Unix-time field at any depth, in its unit, a number plausibly in the other unit refused;
// an array or a comma-separated string for a list field, its values among those allowed; a window
// that ends after it starts; a list's required limit; path parameters into the path, encoded; a form
// for an upload; one idempotency key per call. The caller's params are never changed.
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../../src/index.js';
import { hasDotSegment, toForm, toPath, toWire, withIdempotencyKey } from '../../../../src/client/resources/params.js';
import type { OperationRule } from '../../../../src/client/resources/rules.js';

const SECONDS = 1_790_000_000;
const rule: OperationRule = {
  times: { start_time: 's', end_time: 's', 'time_filter.at': 'ms', 'layers[].start': 's' },
  lists: { progress: ['Triggered', 'Closed'], labels: [] },
};

/** The RequestValidationError `call` throws: its field and message. */
function refusal(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    if (error instanceof RequestValidationError) return error.message;
    throw error;
  }
  throw new Error('expected a RequestValidationError');
}

describe('toWire', () => {
  it('takes the defined fields, unknown ones too, and nothing for no params', () => {
    expect(toWire({ a: 1, b: undefined, c: null }, undefined)).toEqual({ a: 1, c: null });
    expect(toWire(undefined, rule)).toEqual({});
    expect(refusal(() => toWire([1], rule))).toBe(
      'params: expected an object (the operation’s request body), got an array',
    );
  });

  it('turns Dates into the field’s unit at any depth, and leaves the params as they were', () => {
    const date = new Date(SECONDS * 1000 + 999);
    const params = {
      start_time: date,
      end_time: SECONDS + 5,
      time_filter: { at: date },
      layers: [{ start: date }, {}],
    };
    expect(toWire(params, rule)).toEqual({
      start_time: SECONDS,
      end_time: SECONDS + 5,
      time_filter: { at: SECONDS * 1000 + 999 },
      layers: [{ start: SECONDS }, {}],
    });
    expect(params.start_time).toBe(date);
    expect(params.layers[0]?.start).toBe(date);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an invalid Date', { start_time: new Date(Number.NaN) }, 'start_time: is an invalid Date'],
    [
      'milliseconds for seconds',
      { start_time: SECONDS * 1000 },
      `start_time: ${SECONDS * 1000} looks like milliseconds; pass Unix seconds or a Date`,
    ],
    [
      'seconds for milliseconds',
      { time_filter: { at: SECONDS } },
      `time_filter.at: ${SECONDS} looks like Unix seconds; pass Unix milliseconds or a Date`,
    ],
    ['a fraction', { layers: [{}, { start: 1.5 }] }, 'layers[1].start: expected a Date or whole Unix seconds, got 1.5'],
    ['a string', { start_time: '1790000000' }, 'start_time: expected a Date or whole Unix seconds, got "1790000000"'],
    [
      'a window that ends first',
      { start_time: SECONDS, end_time: SECONDS },
      'end_time: must be greater than start_time',
    ],
  ])('refuses %s, naming the field', (_, params, message) => {
    expect(refusal(() => toWire(params, rule))).toBe(message);
  });

  it('joins a list field given as an array or a string, each value checked where the contract lists them', () => {
    expect(toWire({ progress: ['Triggered', ' Closed'], labels: 'a,b' }, rule)).toEqual({
      progress: 'Triggered,Closed',
      labels: 'a,b',
    });
    expect(toWire({ progress: [] }, rule)).toEqual({});
    expect(refusal(() => toWire({ progress: ['Triggerd'] }, rule))).toMatch(
      /^progress\[0\]: expected one of .*did you mean "Triggered"/,
    );
    expect(refusal(() => toWire({ progress: 'Triggered,Open' }, rule))).toMatch(/^progress: expected one of/);
    expect(refusal(() => toWire({ labels: ['a,b'] }, rule))).toBe(
      'labels[0]: expected non-empty values without commas',
    );
    expect(refusal(() => toWire({ labels: [7] }, rule))).toBe('labels[0]: expected a string, got 7');
    expect(refusal(() => toWire({ labels: 7 }, rule))).toBe('labels: expected a string or an array of strings, got 7');
  });

  it('sends a list’s default limit where the OpenAPI requires one and the params give none', () => {
    const paging: OperationRule = { paging: { items: 'items', limit: 20, limitRequired: true } };
    expect(toWire({}, paging)).toEqual({ limit: 20 });
    expect(toWire({ limit: 5 }, paging)).toEqual({ limit: 5 });
  });
});

describe('toPath', () => {
  it('puts path parameters into the path, encoded, and takes them out of the body', () => {
    expect(toPath('/triggers/{trigger_id}/fire', { trigger_id: 'a/b c', text: 'x' }, ['trigger_id'])).toEqual({
      path: 'triggers/a%2Fb%20c/fire',
      body: { text: 'x' },
    });
    expect(toPath('/incident/ack', { a: 1 }, [])).toEqual({ path: 'incident/ack', body: { a: 1 } });
  });

  it('refuses a dot segment, which would name another path, and text it cannot encode', () => {
    expect(refusal(() => toPath('/t/{id}/fire', { id: '..' }, ['id']))).toBe(
      'id: must not be or hold a "." or ".." segment: it would name another path',
    );
    expect(refusal(() => toPath('/t/{id}/fire', { id: '\uD83D' }, ['id']))).toBe(
      'id: is not well-formed Unicode (it holds a lone UTF-16 surrogate): it cannot be sent in a URL',
    );
    expect(toPath('/t/{id}/fire', { id: '😀...' }, ['id']).path).toBe('t/%F0%9F%98%80.../fire');
  });
});

describe('hasDotSegment', () => {
  it.each([
    '.',
    '..',
    '/../admin',
    '/./x',
    'a/..',
    '/%2e%2e/x',
    '/%2E./x',
    '/.%2e/x',
    '/..%2fx',
    '/..%5cx',
    '..\\x',
    '/%252e%252e/x',
  ])('finds one in %j', (text) => expect(hasDotSegment(text)).toBe(true));

  it.each(['/incident/list', '...', '/v1.2/x', '/.well-known/x', '/a..b', '100%', '/%2ex', '%zz'])(
    'finds none in %j',
    (text) => expect(hasDotSegment(text)).toBe(false),
  );
});

describe('toForm', () => {
  it('sends a Blob as a file, an array as parts, an object as JSON and the rest as text, null left out', async () => {
    const file = new File(['archive'], 'map.zip');
    const form = toForm({ file, team_id: 0, flag: true, tags: ['a', 'b'], meta: { k: 1 }, gone: null });
    expect(form.get('file')).toBeInstanceOf(File);
    expect((form.get('file') as File).name).toBe('map.zip');
    expect([form.get('team_id'), form.get('flag'), form.getAll('tags'), form.get('meta'), form.has('gone')]).toEqual([
      '0',
      'true',
      ['a', 'b'],
      '{"k":1}',
      false,
    ]);
  });
});

describe('withIdempotencyKey', () => {
  it('fills in one key where the operation defines one and the caller gave none', () => {
    const keyed = withIdempotencyKey({ a: 1 }, true) as { idempotency_key?: string };
    expect(keyed.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(withIdempotencyKey({ idempotency_key: 'mine' }, true)).toEqual({ idempotency_key: 'mine' });
    expect(withIdempotencyKey({ a: 1 }, false)).toEqual({ a: 1 });
  });
});
