// The checker of request bodies (src/internal/schema.ts): the first problem with its field's path,
// the way the server names it; unknown fields pass, or (closed, the named methods) are refused where
// the schema lists its properties; enums can be left to the server; references, all/any/one of, null
// where allowed, a form's file.
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

  it('lets null into an enum whose type lists null, and nothing else outside the enum', () => {
    const locale: Schema = { type: ['string', 'null'], enum: ['zh-CN', 'en-US'] };
    expect(checkSchema(null, locale, {})).toBeUndefined();
    expect(checkSchema('en-US', locale, {})).toBeUndefined();
    expect(checkSchema('fr-FR', locale, {})).toMatchObject({ message: expect.stringContaining('expected one of') });
  });

  it('leaves enums to the server when asked', () => {
    expect(problem({ ids: ['00af'], level: 'mid' }, { enums: false })).toBeUndefined();
  });

  describe('closed: a key the schema does not list', () => {
    const closedDefs: Record<string, Schema> = {
      ...defs,
      Filter: { type: 'object', properties: { start_time: { type: 'integer' }, team_ids: { type: 'array' } } },
      Page: { allOf: [{ $ref: 'Filter' }, { type: 'object', properties: { p: { type: 'integer' } } }] },
      Rule: {
        type: 'object',
        properties: {
          kind: { type: 'string' },
          settings: {
            type: 'object',
            oneOf: [
              { type: 'object', properties: { title: { type: 'string' } } },
              { type: 'object', properties: { severity: { type: 'string' } } },
            ],
          },
          labels: { type: 'object', additionalProperties: true },
          free: { type: 'object' },
          either: { oneOf: [{ type: 'string' }, { type: 'object' }] },
          rows: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        },
      },
      Open: { type: 'object', properties: { page_id: { type: 'integer' } }, additionalProperties: true },
      WithPath: { type: 'object', properties: { trigger_id: { type: 'string' } }, allOf: [{ $ref: 'Filter' }] },
    };
    const closed = (value: unknown, name: string) => {
      const found = checkSchema(value, { $ref: name }, closedDefs, { closed: true });
      return found && `${found.path}: ${found.message}`;
    };

    it('is refused with the listed key it was likely meant as', () => {
      expect(closed({ ids: ['00af'], levle: 'low' }, 'Body')).toBe(
        'levle: not a field of this request (did you mean level?)',
      );
      expect(closed({ ids: ['00af'], zzzzzz: 1 }, 'Body')).toBe('zzzzzz: not a field of this request');
    });

    it('is refused at any depth where the schema lists properties: objects in objects and in arrays', () => {
      expect(closed({ settings: { titel: 'x' } }, 'Rule')).toBe(
        'settings.titel: not a field of this request (did you mean title?)',
      );
      expect(closed({ rows: [{ name: 'a' }, { nmae: 'b' }] }, 'Rule')).toBe(
        'rows[1].nmae: not a field of this request (did you mean name?)',
      );
    });

    it("takes every key of an object's allOf parts and alternatives, together", () => {
      expect(closed({ start_time: 1, team_ids: [], p: 2 }, 'Page')).toBeUndefined();
      expect(closed({ start_time: 1, trigger_id: 'a' }, 'WithPath')).toBeUndefined();
      expect(closed({ settings: { title: 'x' } }, 'Rule')).toBeUndefined();
      expect(closed({ settings: { severity: 'x' } }, 'Rule')).toBeUndefined();
      expect(closed({ start_time: 1, pp: 2 }, 'Page')).toBe('pp: not a field of this request (did you mean p?)');
    });

    it('leaves open an object that lists no properties or says it takes more', () => {
      expect(closed({ labels: { any: 'x' }, free: { any: 1 }, either: { any: 1 }, kind: 'k' }, 'Rule')).toBeUndefined();
      expect(closed({ page_id: 1, name: 'status' }, 'Open')).toBeUndefined();
    });

    it('ignores a key whose value is undefined (it is never sent)', () => {
      expect(closed({ ids: ['00af'], levle: undefined }, 'Body')).toBeUndefined();
    });

    it('is off unless asked', () => {
      expect(checkSchema({ ids: ['00af'], levle: 'low' }, body, defs)).toBeUndefined();
    });
  });
});
