// Values made on first use (src/internal/lazy.ts): made once and kept; a promise that rejects is
// not kept, so the next call tries again; a loader's value at hand once it came.
import { describe, expect, it } from 'vitest';
import { lazy, loader } from '../../../src/internal/lazy.js';

describe('lazy', () => {
  it('makes its value once', () => {
    let made = 0;
    const value = lazy(() => ++made);
    expect([value(), value()]).toEqual([1, 1]);
  });

  it('tries again after a rejection', async () => {
    let tries = 0;
    const load = lazy(() => (++tries === 1 ? Promise.reject(new Error('chunk missing')) : Promise.resolve(tries)));
    await expect(load()).rejects.toThrow('chunk missing');
    expect(await load()).toBe(2);
    expect(await load()).toBe(2);
  });
});

describe('loader', () => {
  it('has its value at hand once loaded, without a promise', async () => {
    const load = loader(async () => 'module');
    expect(load.value).toBeUndefined();
    expect(await load()).toBe('module');
    expect(load.value).toBe('module');
  });
});
