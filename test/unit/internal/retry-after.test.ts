// Retry-After read strictly (src/internal/retry-after.ts): seconds (decimals too) or an IMF-fixdate;
// anything else is no value, so the ordinary backoff applies.
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/internal/retry-after.js';

const at = (value: string, now = Date.UTC(2026, 0, 1)) => parseRetryAfter(new Headers({ 'Retry-After': value }), now);

describe('parseRetryAfter', () => {
  it('reads seconds and dates', () => {
    expect([at('7'), at('1.5'), at(' 0 ')]).toEqual([7000, 1500, 0]);
    expect(at('Thu, 01 Jan 2026 00:00:30 GMT')).toBe(30_000);
    expect(at('Wed, 31 Dec 2025 23:59:00 GMT')).toBe(0); // past: at once
  });

  it.each(['-1', '1, 2', 'soon', '2026-01-01T00:00:30Z', 'Xyz, 01 Foo 2026 00:00:30 GMT', ''])(
    'ignores %j',
    (value) => {
      expect(at(value)).toBeUndefined();
    },
  );

  it('is none without the header', () => {
    expect(parseRetryAfter(new Headers())).toBeUndefined();
  });
});
