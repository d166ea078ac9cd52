// runSteps: the driver behind the receiver's synchronous fast path.
import { describe, expect, it } from 'vitest';
import { runSteps } from '../src/internal/steps.js';

describe('runSteps', () => {
  it('runs to the end synchronously while every yielded value is plain', () => {
    function* steps(): Generator<unknown, number, unknown> {
      const a = (yield 1) as number;
      const b = (yield 2) as number;
      return a + b;
    }
    expect(runSteps(steps())).toBe(3); // a number, not a promise
  });

  it('goes asynchronous from the first promise on, and back to plain values after', async () => {
    const seen: unknown[] = [];
    function* steps(): Generator<unknown, string, unknown> {
      seen.push(yield 'now');
      seen.push(yield Promise.resolve('later'));
      seen.push(yield 'plain again');
      return 'done';
    }
    const result = runSteps(steps());
    expect(result).toBeInstanceOf(Promise);
    expect(seen).toEqual(['now']);
    await expect(result).resolves.toBe('done');
    expect(seen).toEqual(['now', 'later', 'plain again']);
  });

  it('throws a rejection back in at its yield, where try/catch sees it', async () => {
    function* steps(): Generator<unknown, string, unknown> {
      try {
        yield Promise.reject(new Error('store down'));
        return 'not reached';
      } catch (error) {
        return `caught: ${(error as Error).message}`;
      }
    }
    await expect(runSteps(steps())).resolves.toBe('caught: store down');
  });

  it('rejects with what the generator does not catch, and throws what it throws synchronously', async () => {
    function* late(): Generator<unknown, never, unknown> {
      yield Promise.reject(new Error('late'));
      throw new Error('not reached');
    }
    await expect(runSteps(late())).rejects.toThrow('late');
    function* early(): Generator<unknown, never, unknown> {
      throw new Error('early');
    }
    expect(() => runSteps(early())).toThrow('early');
  });
});
