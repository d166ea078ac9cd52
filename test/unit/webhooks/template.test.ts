import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderCustomBody, TemplateSyntaxError } from '../../../src/webhooks/index.js';
import example from '../../fixtures/incident-webhook.example.json' with { type: 'json' };
import template from '../../fixtures/incident-webhook.custom-body-template.example.json' with { type: 'json' };

describe('renderCustomBody', () => {
  it('renders the documented template against the documented payload', () => {
    expect(renderCustomBody(template, example)).toEqual({
      msg_type: 'incident',
      event: 'i_new',
      content: {
        id: '64b1352e376e32c85c56e25b',
        name: 'ysy028',
        severity: 'Critical',
        status: 'Triggered',
        channel: 'Reduce Noise',
        url: 'http://10.206.0.17:8567/incident/detail/64b1352e376e32c85c56e25b',
        labels: { check: 'cpu idle low' }, // one variable alone keeps the object
        responders: example.incident.responders, // and the array
      },
    });
    expect(renderCustomBody(JSON.stringify(template), example)).toEqual(renderCustomBody(template, example));
  });

  it('keeps types for a lone variable, stringifies in text, leaves unknown paths as written', () => {
    const rendered = renderCustomBody(
      {
        time: '{{event_time}}',
        acked: '{{ incident.ack_time }}',
        text: 'Incident {{incident.num}} at {{event_time}}: {{incident.labels}} / {{incident.responders.0.person_name}}',
        nothing: '{{incident.nope}}',
        mixed: 'x {{ incident.nope.deeper }} y',
        nullish: 'null is {{incident.maybe}}',
        index: '{{incident.responders.0.person_id}}',
        outOfRange: '{{incident.responders.5.person_id}}',
        list: ['{{event_type}}', 3, true, null],
        '{{event_type}}': 'keys are not templates',
      },
      { ...example, incident: { ...example.incident, maybe: null } },
    );
    expect(rendered).toEqual({
      time: 1689335086948,
      acked: 0,
      text: 'Incident 56E25B at 1689335086948: {"check":"cpu idle low"} / TouTie',
      nothing: '{{incident.nope}}',
      mixed: 'x {{ incident.nope.deeper }} y',
      nullish: 'null is null',
      index: 1552048792504,
      outOfRange: '{{incident.responders.5.person_id}}',
      list: ['i_new', 3, true, null],
      '{{event_type}}': 'keys are not templates',
    });
  });

  it('applies value mapping to resolved values, alone or in text, per path', () => {
    const mapping = {
      'incident.incident_severity': { Critical: 'P1', Warning: 'P2' },
      'incident.ack_time': { '0': 'not acknowledged' },
      event_type: { i_new: { kind: 'created' } },
    };
    const rendered = renderCustomBody(
      {
        sev: '{{incident.incident_severity}}',
        line: 'sev={{ incident.incident_severity }}',
        ack: '{{incident.ack_time}}',
        kind: '{{event_type}}',
        status: '{{incident.incident_status}}',
      },
      example,
      mapping,
    );
    expect(rendered).toEqual({
      sev: 'P1',
      line: 'sev=P1',
      ack: 'not acknowledged',
      kind: { kind: 'created' },
      status: 'Critical',
    });
  });

  it('refuses a template that is not JSON text, with a typed error', () => {
    expect(() => renderCustomBody('{"a": {{incident.title}}}', example)).toThrow(TemplateSyntaxError);
  });

  it('keeps a template key named __proto__ as a key', () => {
    const rendered = renderCustomBody('{"__proto__": {"title": "{{incident.title}}"}}', example) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(rendered)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(rendered, '__proto__')?.value).toEqual({ title: 'ysy028' });
  });

  it('never resolves inherited properties', () => {
    expect(renderCustomBody('"{{constructor}}"', example)).toBe('{{constructor}}');
    expect(renderCustomBody('"{{incident.title.length}}"', example)).toBe('{{incident.title.length}}');
  });
});

// Property tests: any payload, and templates built from its real paths and random text.
const jsonLeaf = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const payloadArb = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 6 }).filter((k) => !k.includes('.') && !k.includes('{') && !k.includes('}')),
  fc.oneof(
    jsonLeaf,
    fc.array(jsonLeaf, { maxLength: 3 }),
    fc.dictionary(
      fc.string({ minLength: 1, maxLength: 4 }).filter((k) => !/[.{}]/.test(k)),
      jsonLeaf,
      { maxKeys: 3 },
    ),
  ),
  { minKeys: 1, maxKeys: 6 },
);

function leafPaths(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (Array.isArray(value))
    return value
      .flatMap((v, i) => leafPaths(v, prefix ? `${prefix}.${i}` : String(i)))
      .concat(prefix ? [[prefix, value]] : []);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .flatMap(([k, v]) => leafPaths(v, prefix ? `${prefix}.${k}` : k))
      .concat(prefix ? [[prefix, value]] : []);
  }
  return [[prefix, value]];
}

describe('renderCustomBody properties', () => {
  it('a lone variable renders to the value at its path, of the same type', () => {
    fc.assert(
      fc.property(payloadArb, fc.nat(), (payload, n) => {
        const paths = leafPaths(payload);
        const [path, value] = paths[n % paths.length] as [string, unknown];
        // Keys that are only white space cannot be told apart from padding inside the braces.
        fc.pre(path.split('.').every((segment) => segment.trim() === segment && segment !== ''));
        expect(renderCustomBody({ v: `{{${path}}}` }, payload)).toEqual({ v: value });
      }),
      { numRuns: 300 },
    );
  });

  it('text with variables equals the text with each value stringified in place', () => {
    fc.assert(
      fc.property(
        payloadArb,
        fc.array(
          fc.tuple(
            fc.string().filter((s) => !s.includes('{') && !s.includes('}')),
            fc.nat(),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        (payload, parts) => {
          const paths = leafPaths(payload).filter(([p]) => p.split('.').every((s) => s.trim() === s && s !== ''));
          fc.pre(paths.length > 0);
          let template = 'start:';
          let expected = 'start:';
          for (const [text, n] of parts) {
            const [path, value] = paths[n % paths.length] as [string, unknown];
            template += `${text}{{${path}}}`;
            expected +=
              text +
              (typeof value === 'string'
                ? value
                : value === null || typeof value === 'object'
                  ? JSON.stringify(value)
                  : `${value as number | boolean}`);
          }
          expect(renderCustomBody([template], payload)).toEqual([expected]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a template without variables comes back unchanged, and unknown paths stay as written', () => {
    fc.assert(
      fc.property(fc.jsonValue(), payloadArb, (template, payload) => {
        const plain = JSON.parse(JSON.stringify(template).replace(/\{\{/g, '{ {')) as unknown;
        // (wrapped: a template given as a string is JSON text, not a string value)
        expect(renderCustomBody([plain], payload)).toEqual([plain]);
        expect(renderCustomBody(['{{no.such.path.here}}'], payload)).toEqual(['{{no.such.path.here}}']);
      }),
      { numRuns: 200 },
    );
  });
});
