// Reading a custom-body delivery's keys (custom-body-keys.ts), through its own exports with slots
// made by the real checkCustomBody: the five KEY_VARIABLES and where() that names places; the event
// made by the caller's makeEvent and the delivery keys taken from it; keys read from own properties
// only, the first missing step named, problems in KEY_VARIABLES order; event_time in Unix
// milliseconds (a number when alone, 1 to 16 digits in text, MIN_EVENT_TIME_MS and up); event_type
// any non-empty string; ids by isId; an unfilled id is no id, any other unfilled key a problem;
// value mapping undone by JSON type when alone and by text in text, the rules judged after; and
// messages that name a value's kind without quoting it. custom-body.test.ts covers the reader as
// customBodyReader, through rendered bodies.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkCustomBody, type CustomBodyOptions } from '../../../src/webhooks/custom-body.js';
import { KEY_VARIABLES, readerOf, where } from '../../../src/webhooks/custom-body-keys.js';
import { ID_EXPECTED, MIN_EVENT_TIME_MS } from '../../../src/webhooks/payload.js';
import { CustomBodyEvent, type ValueMapping } from '../../../src/webhooks/index.js';

const MS = 1_700_000_000_000;
/** The reader of `template` as the receiver makes it. */
const readerFor = (template: unknown, options: Omit<CustomBodyOptions, 'template'> = {}) =>
  readerOf(checkCustomBody({ template, ...options }));

const keyed = {
  id: '{{event_id}}',
  at: '{{event_time}}',
  kind: '{{event_type}}',
  incident: { ref: '{{incident.incident_id}}' },
  alert: '{{alert.alert_id}}',
};
/** A body of `keyed`, filled. */
const filled = (change: Record<string, unknown> = {}) => ({
  id: 'e1',
  at: MS,
  kind: 'i_new',
  incident: { ref: 'inc-1' },
  alert: 'al-1',
  ...change,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('KEY_VARIABLES and where', () => {
  it('are the five variables the receiver reads keys from', () => {
    expect(KEY_VARIABLES).toEqual(['event_id', 'event_time', 'event_type', 'incident.incident_id', 'alert.alert_id']);
  });

  it('where() names a place with dots, and the whole body with the empty string', () => {
    expect(where(['incident', 'responders', '0', 'email'])).toBe('incident.responders.0.email');
    expect(where(['id'])).toBe('id');
    expect(where([])).toBe('');
  });

  it('reads nothing but those variables: the rest of the body may be anything', () => {
    const template = { id: '{{event_id}}', title: '{{incident.title}}', who: 'by {{person.email}}' };
    const slots = checkCustomBody({ template });
    expect(Object.keys(slots)).toEqual(['event_id']);
    expect(readerOf(slots)({ id: 'e1' })).toMatchObject({ ok: true, keys: { eventId: 'e1' } });
  });
});

describe('readerOf: the event and the delivery keys', () => {
  it('makes a CustomBodyEvent from the keys read and the body as it came, and its delivery keys from that event', () => {
    const body = filled({ incident: { ref: '{{incident.incident_id}}' } });
    const result = readerOf(checkCustomBody({ template: keyed }))(body);
    expect(result).toEqual({
      ok: true,
      event: new CustomBodyEvent(
        { event_id: 'e1', event_time: MS, event_type: 'i_new', incident_id: undefined, alert_id: 'al-1' },
        body,
      ),
      keys: { eventId: 'e1', eventType: 'i_new', eventTime: MS, scope: 'alert:al-1' },
    });
    expect(result.ok && result.event).toBeInstanceOf(CustomBodyEvent);
    expect(result.ok && result.event.body).toBe(body);
    expect(result.ok && 'incident_id' in result.event).toBe(false); // an id not filled is no property at all
  });

  it('judges staleness per incident when both ids came, per alert when only its id came', () => {
    const read = readerFor(keyed);
    expect(read(filled())).toMatchObject({ ok: true, keys: { scope: 'incident:inc-1' } });
    expect(read(filled({ incident: { ref: '{{incident.incident_id}}' } }))).toMatchObject({
      ok: true,
      keys: { scope: 'alert:al-1' },
    });
    expect(read(filled({ incident: { ref: '{{incident.incident_id}}' }, alert: '{{alert.alert_id}}' }))).toMatchObject({
      ok: true,
      keys: { scope: undefined },
    });
  });

  it('without {{event_time}}: the time it was read, and no staleness even with an id', () => {
    vi.useFakeTimers({ now: MS + 5 });
    const result = readerFor({ id: '{{event_id}}', ref: '{{incident.incident_id}}' })({ id: 'e1', ref: 'inc-1' });
    expect(result).toMatchObject({
      ok: true,
      event: { event_time: MS + 5, event_type: '', incident_id: 'inc-1' },
      keys: { eventTime: MS + 5, eventType: '', scope: undefined },
    });
  });

  it('with no slots at all (dedup: false, no keys placed): every body reads, each delivery its own', () => {
    vi.useFakeTimers({ now: MS });
    const slots = checkCustomBody({ template: { title: '{{incident.title}}' }, dedup: false });
    expect(slots).toEqual({});
    const read = readerOf(slots);
    const ids = new Set<string>();
    for (const body of [{}, null, 5, 'text', [1, 2], { title: 'x' }]) {
      const result = read(body);
      expect(result).toMatchObject({ ok: true, keys: { eventType: '', eventTime: MS, scope: undefined } });
      if (!result.ok) continue;
      expect(result.event.body).toBe(body);
      expect(result.keys.eventId).toMatch(
        /^no-dedup:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      ids.add(result.keys.eventId);
    }
    expect(ids.size).toBe(6);
  });
});

describe('readerOf: where the keys are read', () => {
  const deep = { a: { b: ['{{event_id}}'] } };

  it('names the first step missing on the way to a key, and where the template put it', () => {
    const read = readerFor(deep);
    const missingAt = (path: string) => ({
      ok: false,
      problem: { path, message: 'missing: the template puts {{event_id}} at a.b.0' },
    });
    expect(read({})).toEqual(missingAt('a'));
    expect(read({ a: {} })).toEqual(missingAt('a.b'));
    expect(read({ a: { b: [] } })).toEqual(missingAt('a.b.0'));
    expect(read({ a: 'text' })).toEqual(missingAt('a.b')); // a string has no fields
    expect(read({ a: null })).toEqual(missingAt('a.b'));
    expect(read(null)).toEqual(missingAt('a'));
    expect(read('a')).toEqual(missingAt('a'));
  });

  it('walks arrays by index and objects by key alike', () => {
    const read = readerFor(deep);
    expect(read({ a: { b: ['e1'] } })).toMatchObject({ ok: true, keys: { eventId: 'e1' } });
    expect(read({ a: { b: { 0: 'e2' } } })).toMatchObject({ ok: true, keys: { eventId: 'e2' } });
  });

  it('reads own properties only: nothing inherited, no name of the prototype', () => {
    const missing = { ok: false, problem: { path: 'toString', message: expect.stringMatching(/^missing/) } };
    const read = readerFor({ toString: '{{event_id}}' });
    expect(read({})).toEqual(missing);
    expect(read(Object.create({ toString: 'e1' }))).toEqual(missing);
    expect(read({ toString: 'e1' })).toMatchObject({ ok: true, keys: { eventId: 'e1' } });
  });

  it('reads a template that is one variable: the whole body is the key', () => {
    const read = readerFor(JSON.stringify('{{event_id}}'));
    expect(read('e1')).toMatchObject({ ok: true, keys: { eventId: 'e1' } });
    expect(read(null)).toEqual({
      ok: false,
      problem: { path: '', message: `expected {{event_id}}: ${ID_EXPECTED}, got null` },
    });
  });

  it('reports the first key it cannot read in the order of KEY_VARIABLES, not of the template', () => {
    const read = readerFor({
      r: '{{incident.incident_id}}',
      k: '{{event_type}}',
      t: '{{event_time}}',
      a: '{{alert.alert_id}}',
      i: '{{event_id}}',
    });
    const at = (body: unknown) => {
      const result = read(body);
      return result.ok ? 'ok' : result.problem.path;
    };
    expect(at({})).toBe('i');
    expect(at({ i: 'e1' })).toBe('t');
    expect(at({ i: 'e1', t: MS })).toBe('k');
    expect(at({ i: 'e1', t: MS, k: 'i_new' })).toBe('r');
    expect(at({ i: 'e1', t: MS, k: 'i_new', r: 'inc-1' })).toBe('a');
    expect(at({ i: 'e1', t: MS, k: 'i_new', r: 'inc-1', a: 'al-1' })).toBe('ok');
  });
});

describe('event_time', () => {
  const alone = readerFor({ id: '{{event_id}}', at: '{{event_time}}' });
  const inText = readerFor({ id: '{{event_id}}', at: 'at {{event_time}} ms' });
  const problemOf = (result: ReturnType<typeof alone>) => (result.ok ? undefined : result.problem);
  const expected = (got: string) => ({ path: 'at', message: `expected {{event_time}}: Unix milliseconds, got ${got}` });

  it('alone: an integer of milliseconds, MIN_EVENT_TIME_MS and up', () => {
    expect(alone({ id: 'e', at: MIN_EVENT_TIME_MS })).toMatchObject({
      ok: true,
      keys: { eventTime: MIN_EVENT_TIME_MS },
    });
    expect(alone({ id: 'e', at: Number.MAX_SAFE_INTEGER })).toMatchObject({ ok: true });
    expect(problemOf(alone({ id: 'e', at: MIN_EVENT_TIME_MS - 1 }))).toEqual(expected('an integer out of range'));
    expect(problemOf(alone({ id: 'e', at: Math.floor(Date.now() / 1000) }))).toEqual(
      expected('an integer out of range'),
    );
    expect(problemOf(alone({ id: 'e', at: -MS }))).toEqual(expected('an integer out of range'));
  });

  it('alone: refuses what is not a safe integer, naming only its kind', () => {
    expect(problemOf(alone({ id: 'e', at: MS + 0.5 }))).toEqual(expected('a number'));
    expect(problemOf(alone({ id: 'e', at: 2 ** 53 }))).toEqual(expected('a number'));
    expect(problemOf(alone({ id: 'e', at: String(MS) }))).toEqual(expected('a string of another form')); // alone, a number is a number
    expect(problemOf(alone({ id: 'e', at: '' }))).toEqual(expected('an empty string'));
    expect(problemOf(alone({ id: 'e', at: null }))).toEqual(expected('null'));
    expect(problemOf(alone({ id: 'e', at: [MS] }))).toEqual(expected('an array'));
    expect(problemOf(alone({ id: 'e', at: true }))).toEqual(expected('a boolean'));
  });

  it('in text: 1 to 16 decimal digits, as a number of milliseconds', () => {
    expect(inText({ id: 'e', at: `at ${MS} ms` })).toMatchObject({ ok: true, keys: { eventTime: MS } });
    expect(inText({ id: 'e', at: `at ${MIN_EVENT_TIME_MS} ms` })).toMatchObject({ ok: true });
    expect(inText({ id: 'e', at: `at ${Number.MAX_SAFE_INTEGER} ms` })).toMatchObject({
      ok: true,
      keys: { eventTime: Number.MAX_SAFE_INTEGER },
    });
    expect(inText({ id: 'e', at: 'at 0001700000000000 ms' })).toMatchObject({ ok: true, keys: { eventTime: MS } }); // 16 digits
    expect(inText({ id: 'e', at: 'at 00001700000000000 ms' })).toMatchObject({ ok: false }); // 17 digits
    for (const text of [
      String(MIN_EVENT_TIME_MS - 1),
      String(Math.floor(MS / 1000)),
      '9007199254740992', // 16 digits, not a safe integer
      '1.7e12',
      '+1700000000000',
      '-1700000000000',
      ' 1700000000000',
      '1700000000000.0',
      '0x18BCFE56800',
      '1_700_000_000_000',
    ])
      expect(problemOf(inText({ id: 'e', at: `at ${text} ms` })), text).toEqual(expected('a string of another form'));
    expect(problemOf(inText({ id: 'e', at: 'at  ms' }))).toEqual(expected('an empty string'));
  });

  it('unfilled, alone or in text, is a problem (the payload always has it)', () => {
    for (const [read, at] of [
      [alone, '{{event_time}}'],
      [inText, 'at {{event_time}} ms'],
    ] as const)
      expect(problemOf(read({ id: 'e', at }))).toEqual({ path: 'at', message: '{{event_time}} came unfilled' });
    const spaced = readerFor({ id: '{{event_id}}', at: 'at {{ event_time }}' });
    expect(problemOf(spaced({ id: 'e', at: 'at {{ event_time }}' }))).toEqual({
      path: 'at',
      message: '{{event_time}} came unfilled',
    });
  });
});

describe('event_type', () => {
  const read = readerFor({ id: '{{event_id}}', kind: '{{event_type}}', text: 'type: {{event_type}}' });

  it('is any non-empty string, types added later included', () => {
    for (const type of ['i_new', 'a_close', 'x_future', ' '])
      expect(read({ id: 'e', kind: type })).toMatchObject({ ok: true, keys: { eventType: type } });
  });

  it('is read from its first place alone, before one in text', () => {
    expect(read({ id: 'e', kind: 'i_ack', text: 'nothing like the template' })).toMatchObject({
      ok: true,
      keys: { eventType: 'i_ack' },
    });
  });

  it('refuses an empty or non-string value, and an unfilled one', () => {
    const problem = (kind: unknown) => {
      const result = read({ id: 'e', kind });
      return result.ok ? undefined : result.problem;
    };
    expect(problem('')).toEqual({
      path: 'kind',
      message: 'expected {{event_type}}: a non-empty string, got an empty string',
    });
    expect(problem(null)).toEqual({ path: 'kind', message: 'expected {{event_type}}: a non-empty string, got null' });
    expect(problem(['i_new'])).toEqual({
      path: 'kind',
      message: 'expected {{event_type}}: a non-empty string, got an array',
    });
    // Named by its kind, in words that fit: a number is not "out of range" where no number is taken.
    expect(problem(7)).toEqual({ path: 'kind', message: 'expected {{event_type}}: a non-empty string, got a number' });
    expect(problem({ type: 'i_new' })).toEqual({
      path: 'kind',
      message: 'expected {{event_type}}: a non-empty string, got an object',
    });
    expect(problem('{{event_type}}')).toEqual({ path: 'kind', message: '{{event_type}} came unfilled' });
    const inText = readerFor({ id: '{{event_id}}', text: 'type: {{event_type}}' });
    expect(inText({ id: 'e', text: 'type: ' })).toEqual({
      ok: false,
      problem: { path: 'text', message: 'expected {{event_type}}: a non-empty string, got an empty string' },
    });
  });
});

describe('ids', () => {
  const read = readerFor({
    id: 'fd-{{event_id}}',
    at: '{{event_time}}',
    ref: '{{incident.incident_id}}',
    alert: 'alert/{{alert.alert_id}}',
  });
  const body = (change: Record<string, unknown>) => ({
    id: 'fd-e1',
    at: MS,
    ref: 'inc-1',
    alert: 'alert/al-1',
    ...change,
  });
  const problemOf = (change: Record<string, unknown>) => {
    const result = read(body(change));
    return result.ok ? undefined : result.problem;
  };

  it('reads each id by the rules of isId, in text after the fixed text is taken off', () => {
    expect(read(body({}))).toMatchObject({
      ok: true,
      event: { event_id: 'e1', incident_id: 'inc-1', alert_id: 'al-1' },
      keys: { eventId: 'e1', scope: 'incident:inc-1' },
    });
    expect(problemOf({ id: `fd-${'x'.repeat(256)}` })).toBeUndefined(); // 256 after the prefix
    expect(problemOf({ id: 'fd-e\uD83D\uDE00', ref: 'i\uD83D\uDE00' })).toBeUndefined();
  });

  it.each([
    ['event_id', 'id', { id: 'fd-' }, 'an empty string'],
    ['event_id', 'id', { id: `fd-${'x'.repeat(257)}` }, 'a string of another form'],
    ['event_id', 'id', { id: 'fd-e\uD800' }, 'a string of another form'],
    ['event_id', 'id', { id: 'fd-\uDC00e' }, 'a string of another form'],
    ['event_id', 'id', { id: 'fd-e\uFFFD' }, 'a string of another form'],
    ['incident.incident_id', 'ref', { ref: '' }, 'an empty string'],
    ['incident.incident_id', 'ref', { ref: 'x'.repeat(257) }, 'a string of another form'],
    ['incident.incident_id', 'ref', { ref: '\uD800' }, 'a string of another form'],
    ['incident.incident_id', 'ref', { ref: null }, 'null'],
    ['incident.incident_id', 'ref', { ref: false }, 'a boolean'],
    ['alert.alert_id', 'alert', { alert: 'alert/' }, 'an empty string'],
    ['alert.alert_id', 'alert', { alert: 'alert/a\uDBFF' }, 'a string of another form'],
  ])('refuses {{%s}} at %s when %j: got %s', (key, path, change, got) => {
    expect(problemOf(change)).toEqual({ path, message: `expected {{${key}}}: ${ID_EXPECTED}, got ${got}` });
  });

  it('takes an id that came unfilled as no id (alone or in text); event_id unfilled is a problem', () => {
    const result = read(body({ ref: '{{incident.incident_id}}', alert: 'alert/{{alert.alert_id}}' }));
    expect(result).toMatchObject({ ok: true, keys: { eventId: 'e1', scope: undefined } });
    expect(result.ok && Object.keys(result.event)).not.toContain('alert_id');
    expect(problemOf({ id: 'fd-{{event_id}}' })).toEqual({ path: 'id', message: '{{event_id}} came unfilled' });
  });

  it('refuses an id whose fixed text is not there, quoting the template', () => {
    expect(problemOf({ alert: 'al-1' })).toEqual({
      path: 'alert',
      message: 'expected the template\'s text "alert/{{alert.alert_id}}" with {{alert.alert_id}} filled in',
    });
    expect(problemOf({ alert: 7 })).toMatchObject({ path: 'alert' }); // not even a string
  });
});

describe('value mapping undone', () => {
  const template = { id: '{{event_id}}', kind: '{{event_type}}', ref: '{{incident.incident_id}}' };
  const readWith = (valueMapping: ValueMapping) => readerFor(template, { valueMapping });

  it('alone: by the JSON value delivered, whatever its type (a number is not its text)', () => {
    const read = readWith({ event_type: { i_new: 1, i_ack: true, i_rslv: null, i_snooze: { s: 1 } } });
    for (const [delivered, type] of [
      [1, 'i_new'],
      [true, 'i_ack'],
      [null, 'i_rslv'],
      [{ s: 1 }, 'i_snooze'],
      ['1', '1'], // the string "1" is not what i_new maps to: it arrived as itself
      ['i_wake', 'i_wake'], // a value the table does not map arrives as itself
    ] as const)
      expect(read({ id: 'e', kind: delivered, ref: 'inc-1' })).toMatchObject({ ok: true, keys: { eventType: type } });
  });

  it('in text: by the text the mapped value was written as', () => {
    const read = readerFor(
      { id: '{{event_id}}', kind: 'type {{event_type}}' },
      { valueMapping: { event_type: { i_new: 1, i_ack: 'acked' } } },
    );
    expect(read({ id: 'e', kind: 'type 1' })).toMatchObject({ ok: true, keys: { eventType: 'i_new' } });
    expect(read({ id: 'e', kind: 'type acked' })).toMatchObject({ ok: true, keys: { eventType: 'i_ack' } });
  });

  it('undoes a mapped id, and refuses a delivered value it cannot undo that is no id', () => {
    const read = readWith({ 'incident.incident_id': { 'inc-1': 7, 'inc-2': 'INC-2' } });
    expect(read({ id: 'e', kind: 'i_new', ref: 7 })).toMatchObject({ ok: true, event: { incident_id: 'inc-1' } });
    expect(read({ id: 'e', kind: 'i_new', ref: 'INC-2' })).toMatchObject({ ok: true, event: { incident_id: 'inc-2' } });
    expect(read({ id: 'e', kind: 'i_new', ref: '7' })).toMatchObject({ ok: true, event: { incident_id: '7' } });
    const result = read({ id: 'e', kind: 'i_new', ref: 8 });
    expect(result).toMatchObject({
      ok: false,
      problem: { path: 'ref', message: expect.stringMatching(/^expected \{\{incident\.incident_id\}\}: .*, got /) },
    });
  });

  it('judges the value with mapping undone by the key’s rules', () => {
    const read = readWith({ event_type: { '': 'none' }, 'incident.incident_id': { '': 'no-id' } });
    expect(read({ id: 'e', kind: 'none', ref: 'inc-1' })).toEqual({
      ok: false,
      problem: { path: 'kind', message: 'expected {{event_type}}: a non-empty string, got an empty string' },
    });
    expect(read({ id: 'e', kind: 'i_new', ref: 'no-id' })).toEqual({
      ok: false,
      problem: { path: 'ref', message: `expected {{incident.incident_id}}: ${ID_EXPECTED}, got an empty string` },
    });
  });
});

describe('messages', () => {
  it('name the kind of a refused value and never quote it (the sender keeps answers in its history)', () => {
    const secret = 'sk-LIVE-51Hs9';
    const read = readerFor(keyed);
    for (const change of [
      { id: `${secret}\uD800` },
      { id: { token: secret } },
      { id: [secret] },
      { at: secret },
      { at: `${MS}` },
      { kind: { secret } },
      { incident: { ref: `${secret}\uFFFD` } },
      { alert: secret.repeat(30) },
    ]) {
      const result = read(filled(change));
      expect(result.ok, JSON.stringify(change)).toBe(false);
      if (result.ok) continue;
      expect(result.problem.message).not.toContain(secret);
      expect(result.problem.message).not.toContain(String(MS));
      expect(Object.keys(result.problem)).toEqual(['path', 'message']);
    }
  });
});
