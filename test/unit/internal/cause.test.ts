// Foreign errors as causes (src/internal/cause.ts): a scrubbed copy, never the original (which may
// hold the Request and its URL), keeping only the fields that say what failed, a few causes deep.
import { describe, expect, it } from 'vitest';
import { sanitizeCause } from '../../../src/internal/cause.js';
import { createRedactor } from '../../../src/internal/redact.js';

const scrub = createRedactor('secret-key');

describe('sanitizeCause', () => {
  it('copies name, message, stack and codes, scrubbed, and the causes under it', () => {
    const inner = Object.assign(new Error('connect to ?app_key=secret-key refused'), {
      code: 'ECONNREFUSED',
      request: {},
    });
    const outer = new TypeError('fetch failed for secret-key', { cause: inner });
    const copy = sanitizeCause(outer, scrub);
    expect(copy).not.toBe(outer);
    expect(copy).toMatchObject({ name: 'TypeError', message: 'fetch failed for ***' });
    expect(copy?.cause).toMatchObject({ message: 'connect to ?app_key=*** refused', code: 'ECONNREFUSED' });
    expect(copy?.cause).not.toHaveProperty('request');
    expect(JSON.stringify({ ...copy, stack: copy?.stack })).not.toContain('secret-key');
  });

  it('turns a thrown value that is no Error into text, and stops a few causes deep', () => {
    expect(sanitizeCause({ reason: 'secret-key' }, scrub)).toEqual({ name: 'Error', message: '{"reason":"***"}' });
    let deep: Error = new Error('bottom');
    for (let i = 0; i < 10; i++) deep = new Error(`level ${i}`, { cause: deep });
    let depth = 0;
    for (let e = sanitizeCause(deep, scrub); e; e = e.cause) depth++;
    expect(depth).toBe(5);
    expect(sanitizeCause(undefined, scrub)).toBeUndefined();
  });
});
