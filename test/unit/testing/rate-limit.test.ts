// The service's limits as the mock counts them: arrivals in a rolling second and a rolling minute,
// per bucket; a refused call takes no room (it is not counted).
import { describe, expect, it } from 'vitest';
import { ArrivalCounter } from '../../../src/testing/rate-limit.js';

describe('ArrivalCounter', () => {
  it('admits at most perSecond arrivals in any rolling second', () => {
    const counter = new ArrivalCounter({ perSecond: 2, perMinute: 100 });
    expect([0, 10, 20].map((t) => counter.admit('a', t))).toEqual([true, true, false]);
    expect(counter.admit('a', 999)).toBe(false); // still within a second of t = 0
    expect(counter.admit('a', 1_000)).toBe(true); // t = 0 has left the window
    expect(counter.admit('a', 1_005)).toBe(false);
  });

  it('admits at most perMinute arrivals in any rolling minute', () => {
    const counter = new ArrivalCounter({ perSecond: 100, perMinute: 3 });
    expect([0, 1_000, 2_000, 3_000].map((t) => counter.admit('a', t))).toEqual([true, true, true, false]);
    expect(counter.admit('a', 59_999)).toBe(false);
    expect(counter.admit('a', 60_000)).toBe(true);
  });

  it('counts each bucket apart', () => {
    const counter = new ArrivalCounter({ perSecond: 1, perMinute: 10 });
    expect(counter.admit('account:1', 0)).toBe(true);
    expect(counter.admit('key:agents', 0)).toBe(true);
    expect(counter.admit('account:1', 1)).toBe(false);
  });
});
