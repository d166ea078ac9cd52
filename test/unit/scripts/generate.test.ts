// The request schemas generated from the vendored OpenAPI (the one description
// scripts/generate/merge.ts makes of its files), and the checker that reads them: every request
// example of the OpenAPI passes, except those its sources list as broken.
import { describe, expect, it } from 'vitest';
import { REQUEST_SCHEMAS, SCHEMA_DEFS } from '../../../src/generated/request-schemas.js';
import { checkSchema } from '../../../src/internal/schema.js';
import { PATHS, requestExample } from '../../openapi.js';

describe('request schemas', () => {
  it('cover every operation', () => {
    expect(Object.keys(REQUEST_SCHEMAS).sort()).toEqual([...PATHS].sort());
  });

  it('accept the OpenAPI request examples, but those known not to fit their schemas', () => {
    const refused: string[] = [];
    let checked = 0;
    for (const path of PATHS) {
      const example = requestExample(path);
      if (example === undefined) continue;
      checked++;
      if (checkSchema(example, REQUEST_SCHEMAS[path]!, SCHEMA_DEFS)) refused.push(path);
    }
    expect(checked).toBeGreaterThan(150);
    expect(refused.sort()).toEqual([
      '/alert/pipeline/upsert',
      // A body's example without the path parameter: the trigger id goes into the path, not the body.
      '/safari/automation/triggers/{trigger_id}/fire',
      '/safari/skill/upload', // the form's example leaves out its required file
      '/schedule/create',
      '/schedule/preview',
      '/status-page/create', // the newest file's example leaves out its required date_view
    ]);
  });

  it('list every key of the OpenAPI request examples (the named methods refuse a key their schema does not list)', () => {
    const refused: string[] = [];
    for (const path of PATHS) {
      const example = requestExample(path);
      if (example === undefined || checkSchema(example, REQUEST_SCHEMAS[path]!, SCHEMA_DEFS)) continue;
      const problem = checkSchema(example, REQUEST_SCHEMAS[path]!, SCHEMA_DEFS, { closed: true });
      if (problem) refused.push(`${path}: ${problem.path}`);
    }
    expect(refused).toEqual([]);
  });

  it('keep an object open where the OpenAPI says it takes more keys, and take back what an incident carries', () => {
    const closed = { closed: true };
    // additionalProperties: the status page's body takes what its example sends beside page_id.
    const update = REQUEST_SCHEMAS['/status-page/update']!;
    expect(checkSchema({ page_id: 1, name: 'Status' }, update, SCHEMA_DEFS, closed)).toBeUndefined();
    // An incident's assigned_to (the spec's AssignedTo, with what the server fills in) sent back.
    const assignedTo = { person_ids: [1], type: 'assign', escalate_rule_name: 'r', assigned_at: 1, id: 'a' };
    const create = REQUEST_SCHEMAS['/incident/create']!;
    const created = { incident_severity: 'Info', title: 'x', assigned_to: assignedTo };
    expect(checkSchema(created, create, SCHEMA_DEFS, closed)).toBeUndefined();
    const assign = REQUEST_SCHEMAS['/incident/assign']!;
    const assigned = { incident_ids: ['0123456789abcdef01234567'], assigned_to: assignedTo };
    expect(checkSchema(assigned, assign, SCHEMA_DEFS, closed)).toBeUndefined();
    expect(checkSchema({ ...created, assigned_to: { persons: [1] } }, create, SCHEMA_DEFS, closed)?.path).toBe(
      'assigned_to.persons',
    );
  });

  it('leave enum membership out on request, and only that', () => {
    const reset = REQUEST_SCHEMAS['/incident/reset']!;
    const id = '0123456789abcdef01234567';
    const fatal = { incident_id: id, incident_severity: 'Fatal' };
    expect(checkSchema(fatal, reset, SCHEMA_DEFS)?.path).toBe('incident_severity');
    expect(checkSchema(fatal, reset, SCHEMA_DEFS, { enums: false })).toBeUndefined();
    // Every other rule still holds without enums: type, pattern, length.
    expect(
      checkSchema({ incident_id: id, incident_severity: 3 }, reset, SCHEMA_DEFS, { enums: false })?.message,
    ).toMatch(/string/);
    expect(checkSchema({ incident_id: 'x' }, reset, SCHEMA_DEFS, { enums: false })?.path).toBe('incident_id');
    expect(checkSchema({ incident_id: id, title: 'ab' }, reset, SCHEMA_DEFS, { enums: false })?.path).toBe('title');
  });

  it('name the field at fault', () => {
    const ack = REQUEST_SCHEMAS['/incident/ack']!;
    expect(checkSchema({}, ack, SCHEMA_DEFS)).toEqual({ path: 'incident_ids', message: 'is required' });
    expect(checkSchema({ incident_ids: [] }, ack, SCHEMA_DEFS)?.path).toBe('incident_ids');
    expect(checkSchema({ incident_ids: ['0123456789abcdef01234567', 'nope'] }, ack, SCHEMA_DEFS)?.path).toBe(
      'incident_ids[1]',
    );
    expect(checkSchema({ incident_ids: ['0123456789abcdef01234567'], extra: 1 }, ack, SCHEMA_DEFS)).toBeUndefined();
    const snooze = REQUEST_SCHEMAS['/incident/snooze']!;
    expect(checkSchema({ incident_ids: ['0123456789abcdef01234567'], minutes: 0 }, snooze, SCHEMA_DEFS)?.path).toBe(
      'minutes',
    );
    expect(
      checkSchema({ incident_ids: ['0123456789abcdef01234567'], minutes: 1.5 }, snooze, SCHEMA_DEFS)?.message,
    ).toMatch(/integer/);
    const create = REQUEST_SCHEMAS['/incident/create']!;
    expect(checkSchema({ incident_severity: 'Fatal' }, create, SCHEMA_DEFS)?.path).toBe('incident_severity');
    const assign = REQUEST_SCHEMAS['/incident/assign']!;
    expect(
      checkSchema({ incident_id: '0123456789abcdef01234567', assigned_to: { person_ids: [] } }, assign, SCHEMA_DEFS)
        ?.path,
    ).toBe('assigned_to.person_ids');
    const changes = REQUEST_SCHEMAS['/status-page/change/list']!; // a GET: its query parameters
    expect(checkSchema({}, changes, SCHEMA_DEFS)?.path).toBe('page_id');
  });
});
