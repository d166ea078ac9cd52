// `validate: 'deep'` (src/schemas/deep.ts): every answer's envelope, and the pages of the lists that
// have a schema of their pages (the incident list), down to an item's field, with its path; the
// pages of other lists pass; a problem says what was expected.
import { describe, expect, it } from 'vitest';
import { checkEnvelopeDeep, checkPageDeep } from '../../../src/schemas/deep.js';
import { createMockService } from '../../../src/testing/index.js';

const service = createMockService({ seed: 3, incidents: 2, now: Date.UTC(2026, 10, 1) });
const incident = structuredClone(service.world.incidents[0]) as unknown as Record<string, unknown>;

describe('checkPageDeep', () => {
  it('passes an incident page as the schema has it, and names the field of an item that is not', () => {
    expect(checkPageDeep('/incident/list', { items: [incident], total: 1, has_next_page: false })).toBeUndefined();
    const { title: _dropped, ...untitled } = incident;
    expect(checkPageDeep('/incident/list', { items: [incident, untitled], total: 2, has_next_page: false })).toEqual({
      path: 'data.items.1.title',
      message: 'expected string',
    });
  });

  it('passes the pages of a list without a schema of its pages', () => {
    expect(checkPageDeep('/member/list', { items: [7] })).toBeUndefined();
  });
});

describe('checkEnvelopeDeep', () => {
  it('checks the envelope’s own fields, data left to the operation', () => {
    expect(checkEnvelopeDeep({ request_id: 'r', data: [1], error: { code: 'OK' } })).toBeUndefined();
    expect(checkEnvelopeDeep({ request_id: 'r', error: { message: 'no code' } })?.path).toBe('error.code');
  });
});
