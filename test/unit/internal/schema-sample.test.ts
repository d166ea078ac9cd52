// The smallest value a schema allows (src/internal/schema-sample.ts): required fields only, the
// first enum value, the least number and length, the id patterns' shortest fit; it passes the checker.
import { describe, expect, it } from 'vitest';
import { checkSchema, type Schema } from '../../../src/internal/schema.js';
import { sample } from '../../../src/internal/schema-sample.js';

const defs: Record<string, Schema> = {
  Base: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[0-9a-fA-F]{24}$' } } },
};
const schema: Schema = {
  allOf: [
    { $ref: 'Base' },
    {
      type: 'object',
      required: ['level', 'count', 'tags', 'name', 'on'],
      properties: {
        level: { type: 'string', enum: ['low', 'high'] },
        count: { type: 'integer', exclusiveMinimum: 2 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
        name: { type: 'string', minLength: 2 },
        on: { type: 'boolean' },
        optional: { type: 'string' },
      },
    },
  ],
};

describe('sample', () => {
  it('makes the smallest body the schema allows, which the checker accepts', () => {
    const value = sample(schema, defs);
    expect(value).toEqual({ id: '0'.repeat(24), level: 'low', count: 3, tags: [''], name: 'xx', on: false });
    expect(checkSchema(value, schema, defs)).toBeUndefined();
  });

  it('makes a file for a form’s file field, and null for what it cannot tell', () => {
    expect(sample({ type: 'binary' }, {})).toBeInstanceOf(File);
    expect(sample({ $ref: 'Missing' }, {})).toBeNull();
  });
});
