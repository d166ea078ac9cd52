// Which request fields get a Date and which values a comma-separated filter allows
// (scripts/generate/fields.ts), read from the OpenAPI by one rule each, with the tables of what it
// does not say; and what the generator made of the merged description with them.
import { describe, expect, it } from 'vitest';
import { type FieldSchema, fieldAt, listFields, timeFields } from '../../../../scripts/generate/fields.js';
import { RULES } from '../../../../src/generated/operation-rules.js';

const schemas: Record<string, FieldSchema> = {
  Window: {
    type: 'object',
    properties: {
      start: { type: 'integer', description: 'Window start, Unix seconds.' },
      end: { type: 'integer', description: 'Window end.' }, // its partner says it
    },
  },
};
const resolve = (schema: FieldSchema | undefined) =>
  schema?.$ref ? schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;

describe('Unix-time fields', () => {
  it('at any depth, by their description or their partner’s, in their unit; durations are not times', () => {
    const fields: Record<string, FieldSchema> = {
      start_time: { type: 'integer', description: 'Start of the range, Unix epoch milliseconds.' },
      timeout: { type: 'integer', description: 'Timeout in seconds.' },
      duration: { type: 'integer', description: 'Total duration, a Unix timestamp difference.' },
      window: { $ref: '#/components/schemas/Window' },
      layers: { type: 'array', items: { $ref: '#/components/schemas/Window' } },
      note: { type: 'string', description: 'A Unix timestamp as text.' },
    };
    expect(timeFields(resolve, '/x/list', fields)).toEqual({
      start_time: 'ms',
      'window.start': 's',
      'window.end': 's',
      'layers[].start': 's',
      'layers[].end': 's',
    });
    expect(fieldAt(resolve, fields, 'layers[].end')).toBe(schemas.Window?.properties?.end);
  });

  it('the table adds what no description says, and refuses an entry the rule finds or a field that is gone', () => {
    const fields = {
      created_at_start_seconds: { type: 'integer', description: 'lower bound in seconds' },
      created_at_end_seconds: { type: 'integer', description: 'upper bound in seconds' },
    };
    expect(timeFields(resolve, '/incident/post-mortem/list', fields)).toEqual({
      created_at_start_seconds: 's',
      created_at_end_seconds: 's',
    });
    expect(() => timeFields(resolve, '/incident/post-mortem/list', {})).toThrow(/which it does not have/);
    const described = { ...fields, created_at_start_seconds: { type: 'integer', description: 'Unix seconds' } };
    expect(() => timeFields(resolve, '/incident/post-mortem/list', described)).toThrow(/finds already/);
  });

  it('in the generated rules: schedules.list takes a Date for start as for end, nested fields too', () => {
    expect(RULES['/schedule/list']?.times).toEqual({ end: 's', start: 's' });
    expect(RULES['/channel/silence/rule/create']?.times).toEqual({
      'time_filter.start_time': 's',
      'time_filter.end_time': 's',
    });
    expect(RULES['/rum/data/query']?.times).toEqual({ start_time: 'ms', end_time: 'ms' });
  });
});

describe('comma-separated filters', () => {
  it('their values from "Allowed values:", else the table, else any', () => {
    const text = (description: string): FieldSchema => ({ type: 'string', description });
    expect(
      listFields('/x/list', {
        level: text('Comma-separated levels. Allowed values: `Critical`, `Warning`, `Info`.'),
        ids: text('Comma-separated ids.'),
        note: text('A note, not a list.'),
      }),
    ).toEqual({ level: ['Critical', 'Warning', 'Info'], ids: [] });
    expect(
      listFields('/incident/list', {
        progress: text('Comma-separated progress states (e.g. `Triggered,Processing`).'),
        incident_severity: text('Comma-separated severities.'),
      }),
    ).toEqual({ progress: ['Triggered', 'Processing', 'Closed'], incident_severity: ['Critical', 'Warning', 'Info'] });
  });

  it('the table refuses a field that is no list, or one whose description now lists its values', () => {
    expect(() => listFields('/incident/list', {})).toThrow(/no comma-separated field/);
    const listed = { type: 'string', description: 'Comma-separated. Allowed values: `Triggered`.' };
    expect(() => listFields('/incident/list', { progress: listed, incident_severity: listed })).toThrow(
      /lists its values now/,
    );
  });
});
