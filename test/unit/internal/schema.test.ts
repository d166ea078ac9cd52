// The checker of request bodies (src/internal/schema.ts): the first problem with its field's path,
// the way the server names it; unknown fields pass; enums can be left to the server; references,
// all/any/one of, null where allowed, a form's file.
import { describe, expect, it } from 'vitest';
import { checkSchema, type Schema } from '../../../src/internal/schema.js';

const defs: Record<string, Schema> = {
  Id: { type: 'string', pattern: '^[0-9a-f]{4}$' },
  Body: {
    type: 'object',
    required: ['ids'],
    properties: {
      ids: { type: 'array', items: { $ref: 'Id' }, minItems: 1, maxItems: 3 },
      level: { type: 'string', enum: ['low', 'high'] },
      count: { type: 'integer', minimum: 1, maximum: 9 },
      ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      name: { type: 'string', minLength: 1, maxLength: 3 },
      note: { type: 'string', nullable: true },
      file: { type: 'binary' },
      either: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
      fixed: { const: 'v1' },
    },
  },
};
const body: Schema = { $ref: 'Body' };
const problem = (value: unknown, rules = {}) => {
  const found = checkSchema(value, body, defs, rules);
  return found && `${found.path}: ${found.message}`;
};

describe('checkSchema', () => {
  it('passes a body that fits, unknown fields and null where allowed included', () => {
    expect(
      problem({ ids: ['00af'], note: null, extra: { any: 1 }, file: new Blob([]), either: 'x', fixed: 'v1' }),
    ).toBeUndefined();
  });

  it.each<[unknown, string]>([
    [{}, 'ids: is required'],
    [{ ids: [] }, 'ids: expected at least 1 items'],
    [{ ids: ['00af', 'zz'] }, 'ids[1]: does not match ^[0-9a-f]{4}$'],
    [{ ids: ['00af'], level: 'mid' }, 'level: expected one of "low", "high", got "mid"'],
    [{ ids: ['00af'], count: 1.5 }, 'count: expected integer, got number'],
    [{ ids: ['00af'], count: 10 }, 'count: must be at most 9'],
    [{ ids: ['00af'], ratio: 1 }, 'ratio: must be less than 1'],
    [{ ids: ['00af'], name: '' }, 'name: must be at least 1 character'],
    [{ ids: ['00af'], file: 'text' }, 'file: expected binary, got string'],
    [{ ids: ['00af'], either: true }, 'either: expected integer, got boolean'],
    [{ ids: ['00af'], fixed: 'v2' }, 'fixed: expected "v1"'],
    [[], ': expected object, got array'],
  ])('names the first problem of %j', (value, message) => {
    expect(problem(value)).toBe(message);
  });

  it('leaves enums to the server when asked', () => {
    expect(problem({ ids: ['00af'], level: 'mid' }, { enums: false })).toBeUndefined();
  });
});
