// The seeded generator: the same seed gives the same numbers (so the same mock), in their ranges.
import { describe, expect, it } from 'vitest';
import { Random } from '../../../../src/testing/model/random.js';

describe('Random', () => {
  it('repeats itself for a seed, and differs for another', () => {
    const draw = (seed: number) => {
      const random = new Random(seed);
      return [random.next(), random.int(1, 6), random.hex(8), random.pick(['a', 'b', 'c']), random.chance(0.5)];
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('keeps to its ranges', () => {
    const random = new Random(0); // 0 is a seed too
    for (let i = 0; i < 500; i++) {
      const n = random.next();
      expect(n >= 0 && n < 1).toBe(true);
      const d = random.int(3, 5);
      expect([3, 4, 5]).toContain(d);
    }
    expect(random.hex(24)).toMatch(/^[0-9a-f]{24}$/);
    expect(random.chance(0)).toBe(false);
    expect(random.chance(1)).toBe(true);
  });
});
