// The resource families the mock keeps, read from an OpenAPI by scripts/generate/mock-families.ts: a
// base path with a create (or upsert) and a list (or info), unless a model of its own keeps it; its
// id from the create's answer (named after the base's last word, else `id`), or the field an upsert
// is keyed by; its scope, the ids both its create and its delete require; its item's schema, its name
// field, where a list's items are, its times in their example's unit, who wrote it. A family the
// vendor adds to the OpenAPI is one more row, with no code of ours; and the table committed is the
// one the vendored files give.
import { describe, expect, it } from 'vitest';
import type { Document } from '../../../../scripts/generate/methods.js';
import { mockFamilies } from '../../../../scripts/generate/mock-families.js';
import { FAMILIES } from '../../../../src/testing/generated/families.js';

/** An operation whose request has `request`'s fields (`*` marks required) and whose answer is `answer`. */
function op(request: string, answer: unknown, example?: unknown) {
  const fields = request.split(',').filter(Boolean);
  return {
    post: {
      requestBody: {
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: fields.filter((f) => f.endsWith('*')).map((f) => f.slice(0, -1)),
              properties: Object.fromEntries(fields.map((f) => [f.replace('*', ''), { type: 'string' }])),
            },
          },
        },
      },
      responses: {
        '200': {
          content: {
            'application/json': {
              schema: { allOf: [{ type: 'object', properties: { data: answer } }] },
              ...(example !== undefined ? { example: { data: example } } : {}),
            },
          },
        },
      },
    },
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const document = {
  paths: {
    '/pager/rule/create': op('pager_id*,rule_name*', ref('RuleCreated'), { rule_id: 'r.0123456789', rule_name: 'x' }),
    '/pager/rule/list': op('pager_id*', {
      type: 'object',
      properties: { items: { type: 'array', items: ref('Rule') } },
    }),
    '/pager/rule/delete': op('pager_id*,rule_id*', { type: 'object' }),
    '/pager/create': op(
      'pager_name*',
      { type: 'object', properties: { pager_id: { type: 'integer' } } },
      { pager_id: 42 },
    ),
    '/pager/info': op('pager_id*', ref('Pager')),
    '/hook/upsert': op('integration_id*,url', { type: 'object' }),
    '/hook/info': op('integration_id*', {
      type: 'object',
      properties: { integration_id: { type: 'integer' }, url: { type: 'string' } },
    }),
    '/incident/create': op('title*', { type: 'object', properties: { incident_id: { type: 'string' } } }),
    '/incident/info': op('incident_id*', { type: 'object', properties: { incident_id: { type: 'string' } } }),
    '/note/create': op('text*', { type: 'object', properties: { note_id: { type: 'string' } } }),
  },
  components: {
    schemas: {
      RuleCreated: { type: 'object', properties: { rule_id: { type: 'string' }, rule_name: { type: 'string' } } },
      Rule: {
        type: 'object',
        required: ['rule_id'],
        properties: {
          rule_id: { type: 'string' },
          pager_id: { type: 'integer' },
          rule_name: { type: 'string' },
          created_at: { type: 'integer' },
          updated_by: { type: 'integer' },
        },
      },
      Pager: { type: 'object', properties: { pager_id: { type: 'integer' }, name: { type: 'string' } } },
    },
  },
} as unknown as Document;

describe('mockFamilies', () => {
  const families = mockFamilies(
    document,
    (schema) => schema,
    (path) => (path.endsWith('/list') ? 'items' : undefined),
  );

  it('finds each family, its id, scope, name, items, times and writers, and its item’s schema', () => {
    expect(Object.keys(families).sort()).toEqual(['/hook', '/pager', '/pager/rule']);
    expect(families['/pager/rule']).toEqual({
      id: 'rule_id',
      example: 'r.0123456789',
      scope: ['pager_id'],
      name: 'rule_name',
      items: 'items',
      times: { created_at: 's' },
      by: { updated_by: 'updated' },
      item: ref('Rule'),
      operations: { create: '/pager/rule/create', list: '/pager/rule/list', delete: '/pager/rule/delete' },
    });
    expect(families['/pager']).toMatchObject({ id: 'pager_id', example: 42, name: 'name', item: ref('Pager') });
    // An upsert keyed by what its caller gives.
    expect(families['/hook']).toMatchObject({
      id: 'integration_id',
      operations: { upsert: '/hook/upsert', info: '/hook/info' },
    });
  });

  it('leaves out what a model of its own keeps, and a base with nothing to read back', () => {
    expect(families['/incident']).toBeUndefined();
    expect(families['/note']).toBeUndefined();
  });

  it('made the committed table from the vendored OpenAPI (npm run generate:check keeps it so)', () => {
    expect(FAMILIES['/channel/silence/rule']).toMatchObject({
      id: 'rule_id',
      scope: ['channel_id'],
      name: 'rule_name',
    });
    expect(FAMILIES['/monit/rule']?.operations.list).toBe('/monit/rule/list/basic');
    expect(FAMILIES['/route']).toMatchObject({ id: 'integration_id', operations: { upsert: '/route/upsert' } });
    expect(FAMILIES['/safari/automation/rule']).toMatchObject({ items: 'rules', times: { created_at: 'ms' } });
  });
});
