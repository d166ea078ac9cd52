// The numeric options of the receiver and its stores (src/internal/options.ts): a whole number ≥ 1,
// else a ConfigError naming the option.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/index.js';
import { positiveWhole } from '../../../src/internal/options.js';

describe('positiveWhole', () => {
  it('takes a whole number ≥ 1 and refuses the rest, naming the option', () => {
    expect(positiveWhole(3, 'maxEntries')).toBe(3);
    for (const value of [0, -1, 1.5, Number.NaN]) {
      expect(() => positiveWhole(value, 'maxEntries')).toThrow(ConfigError);
    }
    expect(() => positiveWhole(0, 'ttlMs')).toThrow('ttlMs: expected a whole number ≥ 1, got 0');
  });
});
