// lintCustomBody's rules, one by one: each key the receiver needs (event_id, event_time, an
// incident or alert id) missing is one problem, placed unreadably another; a variable no default
// payload has (empty paths, steps below a scalar, names of the prototype) is sent as written; an
// object or a list mixed with text is sent as JSON text (custom fields are open); value mapping on
// event_id or event_time, or on event_type or an id onto a value that also arrives unmapped, or two
// values onto one as delivered, hides a key; odd templates (not objects, JSON text of scalars,
// arrays) give problems, never a throw; problems are plain { path, message } in a fixed order.
// custom-body.test.ts covers the vendor example's two problems and a mixed template's.
import { describe, expect, it } from 'vitest';
import { lintCustomBody } from '../../../src/webhooks/custom-body-lint.js';
import type { ValueMapping } from '../../../src/webhooks/index.js';
import documented from '../../fixtures/incident-webhook.custom-body-template.example.json' with { type: 'json' };
import alertExample from '../../fixtures/alert-webhook.example.json' with { type: 'json' };
import customActionExample from '../../fixtures/custom-action.example.json' with { type: 'json' };
import incidentExample from '../../fixtures/incident-webhook.example.json' with { type: 'json' };

const NO_EVENT_ID = {
  path: '',
  message: 'no {{event_id}}: retries cannot be deduplicated (the receiver needs dedup: false)',
};
const NO_EVENT_TIME = { path: '', message: 'no {{event_time}}: no staleness check' };
const NO_ID = { path: '', message: 'no {{incident.incident_id}} or {{alert.alert_id}}: no staleness check' };
/** A template with every key the receiver needs, each alone in its string. */
const keys = { id: '{{event_id}}', at: '{{event_time}}', ref: '{{incident.incident_id}}' };
const problemsOf = (template: unknown, valueMapping?: ValueMapping) => lintCustomBody(template, valueMapping).problems;

describe('the keys the receiver needs', () => {
  it('reports each one missing, in the order event_id, event_time, id', () => {
    expect(problemsOf({})).toEqual([NO_EVENT_ID, NO_EVENT_TIME, NO_ID]);
    expect(problemsOf({ at: '{{event_time}}', ref: '{{incident.incident_id}}' })).toEqual([NO_EVENT_ID]);
    expect(problemsOf({ id: '{{event_id}}', ref: '{{alert.alert_id}}' })).toEqual([NO_EVENT_TIME]);
    expect(problemsOf({ id: '{{event_id}}', at: '{{event_time}}' })).toEqual([NO_ID]);
    expect(problemsOf({ title: '{{incident.title}}', kind: '{{event_type}}' })).toEqual([
      NO_EVENT_ID,
      NO_EVENT_TIME,
      NO_ID,
    ]);
  });

  it('counts a key placed in text, or in an array, as placed', () => {
    expect(
      problemsOf({ id: 'fd-{{event_id}}', at: ['at {{ event_time }} ms'], ref: 'alert/{{alert.alert_id}}' }),
    ).toEqual([]);
    // A custom action may carry its id inside incident: that is the dedup key then.
    expect(problemsOf({ id: '{{incident.event_id}}', at: '{{event_time}}', ref: '{{alert.alert_id}}' })).toEqual([]);
  });

  it('has nothing to say of the documented template once it has the keys it lacks', () => {
    expect(problemsOf(documented)).toEqual([NO_EVENT_ID, NO_EVENT_TIME]);
    expect(problemsOf({ ...documented, event_id: '{{event_id}}', event_time: '{{event_time}}' })).toEqual([]);
    expect(
      problemsOf({ ...documented, content: { ...documented.content, ref: 'ev {{event_id}} at {{event_time}}' } }),
    ).toEqual([
      {
        path: 'content.ref',
        message: '{{event_id}} shares its string with other variables: give it a string of its own',
      },
      {
        path: 'content.ref',
        message: '{{event_time}} shares its string with other variables: give it a string of its own',
      },
    ]);
  });

  it('reports a key placed only where it cannot be read, not as missing', () => {
    expect(
      problemsOf({ t: '{{event_id}}/{{event_type}}', at: '{{event_time}}', ref: '{{incident.incident_id}}' }),
    ).toEqual([
      { path: 't', message: '{{event_id}} shares its string with other variables: give it a string of its own' },
      { path: 't', message: '{{event_type}} shares its string with other variables: give it a string of its own' },
    ]);
    // Readable once placed alone as well.
    expect(problemsOf({ ...keys, t: '{{event_id}}/{{event_type}}' })).toEqual([
      { path: 't', message: '{{event_type}} shares its string with other variables: give it a string of its own' },
    ]);
  });
});

describe('variables no payload has', () => {
  it('knows every field of the documented payloads (incident, alert, custom action)', () => {
    const leaves = (value: unknown, path: string[] = []): string[] =>
      value !== null && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, item]) => leaves(item, [...path, key]))
        : [path.join('.')];
    for (const example of [incidentExample, alertExample, customActionExample]) {
      const template = Object.fromEntries(leaves(example).map((path, i) => [`v${i}`, `{{${path}}}`]));
      const unknown = problemsOf({ ...keys, ...template }).filter((p) => p.message.includes('no payload has'));
      expect(unknown).toEqual([]);
    }
  });

  it.each([
    ['{{}}', 'an empty path'],
    ['{{ }}', 'an empty path'],
    ['{{incident..title}}', 'incident..title'],
    ['{{incident.labels.}}', 'incident.labels.'], // a label has a name
    ['{{incident.fields..x}}', 'incident.fields..x'], // below custom fields, still no empty step
    ['{{incident.title.first}}', 'incident.title.first'], // below a scalar
    ['{{incident.labels.a.b}}', 'incident.labels.a.b'], // a label is a scalar
    ['{{incident.responders.first}}', 'incident.responders.first'], // a list takes indexes
    ['{{constructor}}', 'constructor'],
    ['{{__proto__}}', '__proto__'],
    ['{{incident.toString}}', 'incident.toString'],
    ['{{event_detail.nope}}', 'event_detail.nope'],
    ['{{alert.alerts.0.alert_id}}', 'alert.alerts.0.alert_id'], // alerts are an incident's
    ['{{Event_Id}}', 'Event_Id'], // paths are case-sensitive
  ])('%s: sent as written', (token, what) => {
    expect(problemsOf({ ...keys, x: token })).toEqual([
      { path: 'x', message: `${token}: no payload has ${what}, so it is sent as written` },
    ]);
  });

  it.each([
    'incident.alerts.0.labels.service',
    'incident.alerts.12.incident.incident_id',
    'incident.assigned_to.person_ids.3',
    'incident.assigned_to.escalate_rule_name',
    'incident.links.0.endpoint',
    'incident.images.0.src',
    'incident.creator.email',
    'incident.responders.0.acknowledged_at',
    'incident.labels.constructor', // a label may have any name
    'incident.fields.any.depth.below',
    'alert.images.0.href',
    'alert.incident.title',
    'alert.labels.region',
    'event_detail.integration_id',
    'person.person_name',
  ])('{{%s}}: in some payload', (path) => {
    expect(problemsOf({ ...keys, x: `{{${path}}}`, y: `text {{${path}}}` })).toEqual([]);
  });

  it('reports each variable of a string, by its token as written; keys of the template are no variables', () => {
    expect(problemsOf({ ...keys, x: 'a {{ nope }} b {{incident.title}} c {{nah}}', '{{also.nope}}': 'x' })).toEqual([
      { path: 'x', message: '{{ nope }}: no payload has nope, so it is sent as written' },
      { path: 'x', message: '{{nah}}: no payload has nah, so it is sent as written' },
    ]);
  });
});

describe('objects and lists in text', () => {
  it.each([
    ['person', 'an object'],
    ['incident.creator', 'an object'],
    ['incident.responders.0', 'an object'],
    ['incident.assigned_to', 'an object'],
    ['alert.labels', 'an object'],
    ['incident.alerts', 'a list'],
    ['incident.responder_ids', 'a list'],
    ['incident.assigned_to.person_ids', 'a list'],
    ['alert.images', 'a list'],
  ])('{{%s}} in text is %s sent as JSON text; alone it keeps its type', (path, what) => {
    expect(problemsOf({ ...keys, x: `see {{${path}}}` })).toEqual([
      { path: 'x', message: `{{${path}}} is ${what}: mixed with text it is sent as JSON text` },
    ]);
    expect(problemsOf({ ...keys, x: `{{${path}}}` })).toEqual([]);
  });

  it('says nothing of custom fields in text, whose type it cannot know', () => {
    expect(problemsOf({ ...keys, x: 'f: {{incident.fields}}', y: 'g: {{incident.fields.ticket}}' })).toEqual([]);
  });
});

describe('value mapping that hides a key', () => {
  const template = {
    id: '{{event_id}}',
    at: '{{event_time}}',
    kind: '{{event_type}}',
    inc: { ref: '{{incident.incident_id}}' },
    al: '{{alert.alert_id}}',
  };

  it('reports a value mapping of the wrong shape as the receiver refuses it, and lints the template all the same', () => {
    const wrongShape = { path: '', message: 'valueMapping must be { [path]: { [sourceValue]: targetValue } }' };
    for (const mapping of [null, 'x', { event_type: 'x' }, { event_type: null }])
      expect(problemsOf(template, mapping as unknown as ValueMapping)).toEqual([wrongShape]);
    expect(problemsOf({ kind: '{{event_type}}' }, null as unknown as ValueMapping)).toEqual([
      wrongShape,
      NO_EVENT_ID,
      NO_EVENT_TIME,
      NO_ID,
    ]);
  });

  it('refuses any table on event_id or event_time, where they are placed', () => {
    expect(problemsOf(template, { event_time: { 1: 2 } })).toEqual([
      { path: 'at', message: 'valueMapping must not map event_time: the receiver reads it as delivered' },
    ]);
    expect(problemsOf({ ...template, id: 'fd-{{event_id}}' }, { event_id: { a: 'b' } })).toEqual([
      { path: 'id', message: 'valueMapping must not map event_id: the receiver reads it as delivered' },
    ]);
    // An empty table maps nothing.
    expect(problemsOf(template, { event_id: {}, event_time: {} })).toEqual([]);
  });

  it('refuses event_type mapped onto a type of the service (incident or alert), takes any other value', () => {
    expect(problemsOf(template, { event_type: { i_new: 'a_new' } })).toEqual([
      {
        path: 'kind',
        message: 'valueMapping for event_type cannot be undone (i_new maps to a_new, which also arrives as itself)',
      },
    ]);
    expect(problemsOf(template, { event_type: { i_new: 'opened', i_rslv: 'closed', a_new: 'i_future' } })).toEqual([]);
    expect(problemsOf(template, { event_type: { i_new: 'i_new', i_ack: 'i_ack' } })).toEqual([]); // onto itself
  });

  it('refuses an id mapped onto a 24-hex-digit id, in either case, and takes one onto another shape', () => {
    expect(problemsOf(template, { 'incident.incident_id': { x: '645DB17C9759374196929314' } })).toEqual([
      {
        path: 'inc.ref',
        message:
          'valueMapping for incident.incident_id cannot be undone (x maps to 645DB17C9759374196929314, which also arrives as itself)',
      },
    ]);
    expect(problemsOf(template, { 'alert.alert_id': { x: '645c3affd2b92d989a0bd824' } })).toEqual([
      {
        path: 'al',
        message:
          'valueMapping for alert.alert_id cannot be undone (x maps to 645c3affd2b92d989a0bd824, which also arrives as itself)',
      },
    ]);
    expect(
      problemsOf(template, {
        'incident.incident_id': { '645db17c9759374196929314': 'inc-1', y: '645db17c975937419692931' }, // 23 digits
        'alert.alert_id': { z: '645c3affd2b92d989a0bd824x' },
      }),
    ).toEqual([]);
  });

  it('refuses two values mapped onto one as delivered: alone a number is not its text, in text it is', () => {
    expect(problemsOf(template, { event_type: { i_new: 'open', i_reopen: 'open' } })).toEqual([
      { path: 'kind', message: 'valueMapping for event_type cannot be undone (i_new and i_reopen both map to "open")' },
    ]);
    expect(problemsOf(template, { event_type: { i_new: 1, i_ack: '1' } })).toEqual([]);
    expect(problemsOf({ ...template, kind: 'type {{event_type}}' }, { event_type: { i_new: 1, i_ack: '1' } })).toEqual([
      { path: 'kind', message: 'valueMapping for event_type cannot be undone (i_new and i_ack both map to 1)' },
    ]);
  });

  it('says nothing of tables on other paths, or on keys the template does not place', () => {
    expect(
      problemsOf(keys, {
        'incident.incident_severity': { Critical: 'P1', Warning: 'P1' },
        event_type: { i_ack: 'i_new' },
        'alert.alert_id': { x: '645c3affd2b92d989a0bd824' },
      }),
    ).toEqual([]);
    expect(problemsOf({ at: '{{event_time}}', ref: '{{incident.incident_id}}' }, { event_id: { a: 'b' } })).toEqual([
      NO_EVENT_ID,
    ]);
  });
});

describe('odd templates', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 5],
    ['a boolean', true],
    ['an empty array', []],
    ['an array of scalars', [1, 'x', null]],
    ['JSON text of null', 'null'],
    ['JSON text of a number', '5'],
    ['JSON text of a string without variables', '"text"'],
    ['JSON text of an array', '[]'],
  ])('%s: the three missing keys, no throw', (_name, template) => {
    expect(lintCustomBody(template)).toEqual({ problems: [NO_EVENT_ID, NO_EVENT_TIME, NO_ID] });
  });

  it.each([
    ['an empty string', ''],
    ['text that is not JSON', 'event_id'],
    ['JSON text cut short', '{"id": "{{event_id}}"'],
  ])('%s: one problem for the whole template', (_name, template) => {
    expect(lintCustomBody(template)).toEqual({
      problems: [{ path: '', message: expect.stringMatching(/^The custom body template is not valid JSON: /) }],
    });
  });

  it('reads a template that is one variable, and arrays, by their places', () => {
    expect(problemsOf(JSON.stringify('{{event_id}}'))).toEqual([NO_EVENT_TIME, NO_ID]);
    expect(problemsOf(['{{event_id}}', ['{{event_time}}', { a: '{{alert.alert_id}}' }]])).toEqual([]);
    expect(problemsOf([['{{event_id}}', 'x {{person}}'], '{{event_time}}', '{{alert.alert_id}}'])).toEqual([
      { path: '0.1', message: '{{person}} is an object: mixed with text it is sent as JSON text' },
    ]);
  });

  it('reads JSON text as the value it holds', () => {
    for (const template of [keys, documented, { ...keys, x: 'see {{incident.alerts}}', y: '{{nope}}' }, [keys]])
      expect(lintCustomBody(JSON.stringify(template))).toEqual(lintCustomBody(template));
  });
});

describe('the problems', () => {
  it('come in order: each variable’s in document order, then the keys unreadable, then the keys missing', () => {
    expect(
      problemsOf(
        {
          kind: '{{event_type}}',
          z: '{{nope}}',
          id: '{{event_id}}',
          a: 'x {{person}}',
          t: '{{event_type}} {{incident.title}}',
        },
        { event_id: { a: 'b' } },
      ),
    ).toEqual([
      { path: 'z', message: '{{nope}}: no payload has nope, so it is sent as written' },
      { path: 'a', message: '{{person}} is an object: mixed with text it is sent as JSON text' },
      { path: 'id', message: 'valueMapping must not map event_id: the receiver reads it as delivered' },
      NO_EVENT_TIME,
      NO_ID,
    ]);
  });

  it('are plain { path, message }, without the key they concern', () => {
    const problems = problemsOf({ ...keys, t: '{{event_id}}/{{event_type}}', x: '{{nope}}' }, { event_time: { 1: 2 } });
    expect(problems).toHaveLength(3);
    for (const problem of problems) expect(Object.keys(problem)).toEqual(['path', 'message']);
  });
});
