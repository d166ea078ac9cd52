// Custom bodies: the reader finds the keys where a template placed them (alone, in text, through
// value mapping) in bodies rendered by the same renderCustomBody the mock's sender uses, refuses
// templates it cannot read, names the place at fault in a bad delivery; lintCustomBody reports
// what a template will do wrong.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import { FlashdutyError } from '../../../src/index.js';
import {
  CustomBodyError,
  customBodyReader,
  lintCustomBody,
  renderCustomBody,
  TemplateSyntaxError,
  WebhookReceiver,
} from '../../../src/webhooks/index.js';
import alertExample from '../../fixtures/alert-webhook.example.json' with { type: 'json' };
import vendorTemplate from '../../fixtures/incident-webhook.custom-body-template.example.json' with { type: 'json' };

const keyed = {
  id: '{{event_id}}',
  at: '{{event_time}}',
  kind: '{{event_type}}',
  incident: { ref: '{{incident.incident_id}}', title: '{{incident.title}}' },
  labels: '{{incident.labels}}',
};

describe('customBodyReader', () => {
  it('reads the keys where the template placed them, and hands over the body as it came', () => {
    const read = customBodyReader({ template: keyed });
    const event = buildWebhookEvent('i_ack');
    const body = renderCustomBody(keyed, event);
    const result = read(body);
    expect(result).toEqual({
      ok: true,
      event: {
        event_id: event.event_id,
        event_time: event.event_time,
        event_type: 'i_ack',
        incident_id: event.incident.incident_id,
        body,
      },
      keys: {
        eventId: event.event_id,
        eventType: 'i_ack',
        eventTime: event.event_time,
        scope: `incident:${event.incident.incident_id}`,
      },
    });
    expect(result.ok && result.event.body).toBe(body);
  });

  it('reads the event id from {{event_id}} or {{incident.event_id}}, whichever the delivery filled', () => {
    const template = {
      id: '{{event_id}}',
      id2: '{{incident.event_id}}',
      at: '{{event_time}}',
      type: '{{event_type}}',
      inc: '{{incident.incident_id}}',
    };
    expect(lintCustomBody(template)).toEqual({ problems: [] });
    const read = customBodyReader({ template });
    const action = buildWebhookEvent('i_custom') as Record<string, unknown> & { incident: Record<string, unknown> };
    const atTop = action;
    const inside = { ...action, event_id: undefined, incident: { ...action.incident, event_id: action.event_id } };
    for (const payload of [atTop, inside]) {
      const result = read(renderCustomBody(template, payload));
      expect(result).toMatchObject({ ok: true, keys: { eventId: action.event_id, eventType: 'i_custom' } });
    }
    // Neither filled: refused, naming the first place.
    const none = { ...action, event_id: undefined };
    expect(read(renderCustomBody(template, none))).toMatchObject({ ok: false, problem: { path: 'id' } });
  });

  it('reads keys placed in text with fixed text around them, and in arrays', () => {
    const template = JSON.stringify({
      ref: 'fd-{{ event_id }}!',
      when: ['x', 'at {{event_time}} ms'],
      what: 'type {{event_type}}',
      alert: 'alert/{{alert.alert_id}}',
    });
    const body = renderCustomBody(template, alertExample);
    const result = customBodyReader({ template })(body);
    expect(result.ok && result.keys).toEqual({
      eventId: alertExample.event_id,
      eventType: 'a_merge',
      eventTime: alertExample.event_time,
      scope: 'alert:645c3affd2b92d989a0bd824',
    });
  });

  it('undoes value mapping on event_type and ids', () => {
    const valueMapping = {
      event_type: { i_new: 'trigger', i_rslv: 'resolve' },
      'incident.incident_id': { abc: 'ABC' },
    };
    const read = customBodyReader({ template: keyed, valueMapping });
    for (const type of ['i_new', 'i_rslv', 'i_ack'] as const) {
      const event = buildWebhookEvent(type, { incident: { incident_id: 'abc' } });
      const body = renderCustomBody(keyed, event, valueMapping) as { kind: string };
      expect(body.kind).toBe(valueMapping.event_type[type as 'i_new'] ?? type);
      const result = read(body);
      expect(result.ok && result.keys).toMatchObject({ eventType: type, scope: 'incident:abc' });
    }
  });

  it('gives back the keys of any event through any template that places them readably (property)', () => {
    const place = fc.constantFrom(
      (v: string) => v,
      (v: string) => `<${v}>`,
      (v: string) => `id: ${v}`,
    );
    fc.assert(
      fc.property(
        fc.record({ id: place, time: place, type: place, ref: place }),
        fc.constantFrom('i_new', 'i_ack', 'i_custom', 'i_future'),
        fc.integer({ min: 100_000_000_000, max: 2 ** 45 }),
        (placeOf, type, time) => {
          const template = {
            a: { b: [placeOf.id('{{event_id}}')] },
            t: placeOf.time('{{event_time}}'),
            k: placeOf.type('{{event_type}}'),
            r: placeOf.ref('{{incident.incident_id}}'),
          };
          const event = buildWebhookEvent(type, { event_time: time });
          const result = customBodyReader({ template })(JSON.parse(JSON.stringify(renderCustomBody(template, event))));
          expect(result.ok && result.keys).toEqual({
            eventId: event.event_id,
            eventType: type,
            eventTime: time,
            // A custom action is a command, never judged against its incident's newer events.
            scope: type === 'i_custom' ? undefined : `incident:${event.incident.incident_id}`,
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses the vendor example template (no {{event_id}}) unless dedup: false, with a FlashdutyError that says why', () => {
    expect(() => customBodyReader({ template: vendorTemplate })).toThrow(CustomBodyError);
    expect(() => customBodyReader({ template: vendorTemplate })).toThrow(/no \{\{event_id\}\}.*dedup: false/);
    expect(new CustomBodyError('x')).toBeInstanceOf(FlashdutyError);
    const read = customBodyReader({ template: vendorTemplate, dedup: false });
    const event = buildWebhookEvent('i_new');
    const first = read(renderCustomBody(vendorTemplate, event));
    const second = read(renderCustomBody(vendorTemplate, event));
    expect(first.ok && first.event).toMatchObject({ event_type: 'i_new' });
    expect(first.ok && second.ok && first.keys.eventId !== second.keys.eventId).toBe(true); // each delivery its own
    expect(first.ok && first.keys.scope).toBeUndefined(); // no {{event_time}}: no staleness
  });

  it.each([
    ['value mapping on event_id', { template: keyed, valueMapping: { event_id: { a: 'b' } } }, /must not map event_id/],
    [
      'value mapping on event_time',
      { template: keyed, valueMapping: { event_time: { 1: 2 } } },
      /must not map event_time/,
    ],
    [
      'a mapping of event_type that cannot be undone',
      { template: keyed, valueMapping: { event_type: { i_new: 'open', i_reopen: 'open' } } },
      /i_new and i_reopen both map to "open"/,
    ],
    [
      'event_id only in text with other variables',
      { template: { t: '{{event_id}}/{{event_type}}' } },
      /shares its string/,
    ],
    [
      'a mapping of event_type onto a type that also arrives as itself (a real i_new would read as i_ack)',
      { template: keyed, valueMapping: { event_type: { i_ack: 'i_new' } } },
      /i_ack maps to i_new, which also arrives as itself/,
    ],
    [
      'a mapping of an incident id onto another id (B’s events would read as A’s)',
      {
        template: keyed,
        valueMapping: { 'incident.incident_id': { '645db17c9759374196929314': '64b1352e376e32c85c56e25b' } },
      },
      /maps to 64b1352e376e32c85c56e25b, which also arrives as itself/,
    ],
    ['no template', { template: undefined }, /needs the template/],
    [
      'a value mapping that is not tables',
      { template: keyed, valueMapping: { event_type: 'x' } },
      /valueMapping must be/,
    ],
  ])('refuses %s at construction', (_name, options, message) => {
    expect(() => customBodyReader(options as never)).toThrow(CustomBodyError);
    expect(() => customBodyReader(options as never)).toThrow(message);
  });

  it('refuses the same mappings through the receiver, and lintCustomBody reports them', () => {
    const valueMapping = { event_type: { i_ack: 'i_new' } };
    expect(() => new WebhookReceiver({ customBody: { template: keyed, valueMapping } })).toThrow(CustomBodyError);
    expect(lintCustomBody(keyed, valueMapping).problems).toContainEqual({
      path: 'kind',
      message: 'valueMapping for event_type cannot be undone (i_ack maps to i_new, which also arrives as itself)',
    });
    // A mapping onto a value no event has is undone, as before.
    expect(
      () => new WebhookReceiver({ customBody: { template: keyed, valueMapping: { event_type: { i_ack: 'acked' } } } }),
    ).not.toThrow();
  });

  it('refuses JSON text that does not parse with TemplateSyntaxError', () => {
    expect(() => customBodyReader({ template: '{"id": "{{event_id}}"' })).toThrow(TemplateSyntaxError);
  });

  const MS = 1_700_000_000_000;
  it.each([
    ['the place missing', { at: MS, kind: 'i_new', incident: {} }, 'id', /missing/],
    ['a parent of the place missing', { id: 'e', at: MS, kind: 'i_new' }, 'incident', /missing/],
    ['event_id unfilled', { id: '{{event_id}}', at: MS, kind: 'i_new', incident: { ref: 'x' } }, 'id', /came unfilled/],
    [
      'event_time not an integer',
      { id: 'e', at: '1', kind: 'i_new', incident: { ref: 'x' } },
      'at',
      /Unix milliseconds, got a string/,
    ],
    [
      'event_time in seconds',
      { id: 'e', at: 1_700_000_000, kind: 'i_new', incident: { ref: 'x' } },
      'at',
      /Unix milliseconds/,
    ],
    [
      'an event_id not well-formed Unicode',
      { id: 'e\uD800', at: MS, kind: 'i_new', incident: { ref: 'x' } },
      'id',
      /at most 256/,
    ],
    [
      'an id over 256 characters',
      { id: 'x'.repeat(300), at: MS, kind: 'i_new', incident: { ref: 'x' } },
      'id',
      /at most 256/,
    ],
    ['not the template at all', [1, 2], 'id', /missing/],
  ])('names the place at fault in a delivery with %s', (_name, body, path, message) => {
    const result = customBodyReader({ template: keyed })(body);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem.path).toBe(path);
    expect(result.problem.message).toMatch(message);
  });

  it('takes {{incident.event_id}} as the dedup key (custom actions that carry their id inside incident)', () => {
    const template = { id: '{{incident.event_id}}', t: '{{event_time}}', ref: '{{incident.incident_id}}' };
    expect(lintCustomBody(template)).toEqual({ problems: [] });
    const event = buildWebhookEvent('i_custom', { incident: { event_id: 'inside-1' } });
    expect(customBodyReader({ template })(renderCustomBody(template, event))).toMatchObject({
      ok: true,
      keys: { eventId: 'inside-1' },
    });
  });

  it('reads text placements strictly: the fixed text must be there', () => {
    const read = customBodyReader({ template: { ref: 'fd-{{event_id}}' } });
    expect(read({ ref: 'xx-123' })).toMatchObject({
      ok: false,
      problem: { path: 'ref', message: /"fd-\{\{event_id\}\}"/ },
    });
    expect(read({ ref: 'fd-123' })).toMatchObject({ ok: true, keys: { eventId: '123', scope: undefined } });
  });

  it('takes an id the payload did not fill (an alert through an incident template) as no staleness', () => {
    const template = { ...keyed, alert: '{{alert.alert_id}}' };
    const result = customBodyReader({ template })(renderCustomBody(template, alertExample));
    expect(result.ok && result.keys.scope).toBe('alert:645c3affd2b92d989a0bd824');
    expect(result.ok && result.event.incident_id).toBeUndefined();
  });
});

describe('lintCustomBody', () => {
  it('finds what the vendor example template lacks', () => {
    expect(lintCustomBody(vendorTemplate).problems).toEqual([
      { path: '', message: expect.stringMatching(/no \{\{event_id\}\}/) },
      { path: '', message: expect.stringMatching(/no \{\{event_time\}\}/) },
    ]);
  });

  it('has nothing to say of a template that places every key readably', () => {
    expect(lintCustomBody(keyed)).toEqual({ problems: [] });
    expect(
      lintCustomBody({
        id: '{{event_id}}',
        t: 'at {{event_time}}',
        a: '{{alert.alert_id}}',
        l: '{{alert.labels.region}}',
        p: '{{person.email}}',
      }),
    ).toEqual({ problems: [] });
    expect(
      lintCustomBody({
        ...keyed,
        f: '{{incident.fields.anything.below}}',
        r: '{{incident.responders.0.email}}',
        d: '{{event_detail.integration_name}}',
      }),
    ).toEqual({ problems: [] });
  });

  it('reports paths no payload has, objects stringified into text, unreadable keys and hiding value mapping', () => {
    const { problems } = lintCustomBody(
      JSON.stringify({
        ...keyed,
        x: '{{incident.nope}}',
        y: ['{{incident.responders.first.email}}'],
        z: 'labels: {{ incident.labels }}',
        w: 'r {{incident.responders}}',
        ok: 'x {{incident.labels.service}}',
      }),
      { event_id: { a: 'b' } },
    );
    expect(problems).toEqual([
      { path: 'x', message: expect.stringMatching(/^\{\{incident\.nope\}\}: no payload has incident\.nope/) },
      { path: 'y.0', message: expect.stringMatching(/no payload has incident\.responders\.first\.email/) },
      {
        path: 'z',
        message: expect.stringMatching(
          /^\{\{ incident\.labels \}\} is an object: mixed with text it is sent as JSON text/,
        ),
      },
      { path: 'w', message: expect.stringMatching(/is a list/) },
      { path: 'id', message: expect.stringMatching(/must not map event_id/) },
    ]);
  });

  it('reports a template that is not JSON as a problem instead of throwing', () => {
    expect(lintCustomBody('{')).toEqual({ problems: [{ path: '', message: expect.stringMatching(/not valid JSON/) }] });
  });
});
