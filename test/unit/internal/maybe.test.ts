// Steps that may be synchronous or not (src/internal/maybe.ts): a value already there is used at
// once, a promise waited for; a step's failure, thrown or rejected, takes its failure path.
import { describe, expect, it } from 'vitest';
import { andThen, attempt, isThenable } from '../../../src/internal/maybe.js';

describe('maybe', () => {
  it('goes on at once with a value, after a promise with its value', async () => {
    expect(andThen(2, (n) => n + 1)).toBe(3);
    expect(await andThen(Promise.resolve(2), (n) => n + 1)).toBe(3);
    expect([isThenable({ then: () => {} }), isThenable(null), isThenable(() => {})]).toEqual([true, false, false]);
  });

  it('takes the failure path for a step that throws or rejects', async () => {
    const failed = (error: unknown) => `failed: ${(error as Error).message}`;
    expect(
      attempt(
        () => {
          throw new Error('sync');
        },
        () => 'ok',
        failed,
      ),
    ).toBe('failed: sync');
    expect(
      await attempt(
        () => Promise.reject(new Error('async')),
        () => 'ok',
        failed,
      ),
    ).toBe('failed: async');
    expect(
      attempt(
        () => 1,
        (n) => `twice: ${n * 2}`,
        failed,
      ),
    ).toBe('twice: 2');
  });
});
