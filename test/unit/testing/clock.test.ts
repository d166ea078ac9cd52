// The mock's clock: real time until pinned; pinned, it moves only when told; a time that is no time refused.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/index.js';
import { MockClock } from '../../../src/testing/clock.js';

describe('MockClock', () => {
  it('follows real time until pinned', () => {
    const clock = new MockClock();
    expect(clock.pinned).toBe(false);
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(1_000);
  });

  it('starts pinned at a Date or Unix ms, and moves only by set and advance', () => {
    const clock = new MockClock(new Date(1_000));
    expect(clock.pinned).toBe(true);
    expect(clock.now()).toBe(1_000);
    clock.advance(500);
    expect(clock.now()).toBe(1_500);
    clock.set(10_000);
    expect(clock.now()).toBe(10_000);
    expect(new MockClock(42).now()).toBe(42);
  });

  it('advancing a clock on real time pins it a moment ahead; useRealTime lets it follow again', () => {
    const clock = new MockClock();
    const before = Date.now();
    clock.advance(60_000);
    expect(clock.pinned).toBe(true);
    expect(clock.now()).toBeGreaterThanOrEqual(before + 60_000);
    clock.useRealTime();
    expect(clock.pinned).toBe(false);
  });

  it('refuses a time that is not a finite number', () => {
    expect(() => new MockClock(Number.NaN)).toThrow(ConfigError);
    expect(() => new MockClock(new Date('nope'))).toThrow('clock: not a valid time: Invalid Date');
    expect(() => new MockClock(0).set(Infinity)).toThrow(ConfigError);
  });
});
