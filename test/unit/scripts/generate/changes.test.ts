// How openapi/CHANGES.md judges a change for existing callers (scripts/generate/changes.ts): a
// request may gain optional fields, lose requirements and accept more; an answer may gain fields and
// promise more; everything else is marked as something callers may notice. `$ref`s are followed,
// documentation is not a change.
import { describe, expect, it } from 'vitest';
import { schemaChanges } from '../../../../scripts/generate/changes.js';
import type { Document } from '../../../../scripts/generate/methods.js';

/** A document whose one shared schema is `Thing`. */
const doc = (thing: unknown): Document => ({ paths: {}, components: { schemas: { Thing: thing } } });
const THING = { $ref: '#/components/schemas/Thing' };

/** The changes from `before` to `after` (each the shared schema Thing), as `✓ at: what` lines. */
function judged(before: unknown, after: unknown, side: 'request' | 'answer'): string[] {
  return schemaChanges(doc(before), doc(after), THING, THING, side).map(
    (change) => `${change.compatible ? '✓' : '✗'} ${change.at}: ${change.what}`,
  );
}

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});

describe('the report of what changed judges each change', () => {
  it('in a request: new optional fields, fewer requirements and wider types are compatible', () => {
    const before = object({ id: { type: 'string' }, n: { type: 'integer' } }, ['id']);
    const after = object({ id: { type: ['string', 'null'] }, n: { type: 'integer' }, extra: { type: 'boolean' } });
    expect(judged(before, after, 'request')).toEqual([
      '✓ id: no longer required',
      '✓ id: type string → string | null (accepts more)',
      '✓ extra: new',
    ]);
  });

  it('in a request: a new requirement, a gone field, an enum, a tighter bound are not', () => {
    const before = object({ id: { type: 'string' }, old: { type: 'string' }, n: { type: 'integer', maximum: 10 } });
    const after = object(
      { id: { type: 'string', enum: ['a', 'b'] }, n: { type: 'integer', maximum: 5 }, must: { type: 'string' } },
      ['id', 'must'],
    );
    expect(judged(before, after, 'request')).toEqual([
      '✗ id: now required',
      '✗ id: now limited to "a", "b"',
      '✗ old: gone',
      '✗ n: maximum 10 → 5',
      '✗ must: new, required',
    ]);
  });

  it('in an answer, the mirror: a new field is compatible; one gone or that may be null is not', () => {
    const before = object({ a: { type: 'string' }, b: { type: 'string' } }, ['a', 'b']);
    const after = object({ a: { type: ['string', 'null'] }, c: { type: 'string' } }, ['a']);
    expect(judged(before, after, 'answer')).toEqual([
      '✗ a: type string → string | null (may hold more)',
      '✗ b: gone',
      '✓ c: new',
    ]);
  });

  it('follows items and $refs, and leaves documentation out', () => {
    const before = { type: 'array', items: object({ x: { type: 'string', description: 'old words' } }) };
    const after = { type: 'array', items: object({ x: { type: 'string', description: 'new words' }, y: {} }) };
    expect(judged(before, after, 'answer')).toEqual(['✓ [].y: new']);
    expect(judged(before, before, 'request')).toEqual([]);
  });
});
