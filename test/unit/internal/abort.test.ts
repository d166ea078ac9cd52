// One attempt's deadline and the caller's abort (src/internal/abort.ts), on the fake clock: a guarded
// step rejects when the caller aborts, and when timed, when the deadline passes, stopping the work
// behind it; a wait ends early on an abort.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleep, startAttempt } from '../../../src/internal/abort.js';
import { leaveFakeClock, rejection } from '../../helpers.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(leaveFakeClock);

describe('startAttempt', () => {
  it('counts down what is left, at least 1 ms', async () => {
    const attempt = startAttempt(1_000);
    await vi.advanceTimersByTimeAsync(400);
    expect(attempt.remaining()).toBe(600);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(attempt.remaining()).toBe(1);
  });

  it('rejects a timed step at the deadline and cancels it', async () => {
    const attempt = startAttempt(1_000);
    let cancelled = false;
    const guarded = rejection(attempt.guard(new Promise(() => {}), { timed: true, cancel: () => (cancelled = true) }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(((await guarded) as Error).message).toBe('timeout');
    expect([attempt.timedOut(), cancelled]).toEqual([true, true]);
  });

  it('rejects a step with the caller’s abort reason, an Error that keeps any reason', async () => {
    const controller = new AbortController();
    const guarded = rejection(startAttempt(1_000, controller.signal).guard(new Promise(() => {})));
    controller.abort('stop');
    const error = (await guarded) as Error;
    expect([error.message, error.cause]).toEqual(['aborted', 'stop']);
  });

  it('leaves an unguarded step as it is, and settles a guarded one with its outcome', async () => {
    const step = Promise.resolve(1);
    expect(startAttempt(1_000).guard(step)).toBe(step);
    expect(await startAttempt(1_000, new AbortController().signal).guard(Promise.resolve(2), { timed: true })).toBe(2);
  });
});

describe('sleep', () => {
  it('waits its time, or rejects at once on an abort', async () => {
    const done = vi.fn();
    void sleep(500, undefined, () => new Error('x')).then(done);
    await vi.advanceTimersByTimeAsync(499);
    expect(done).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toHaveBeenCalled();
    const controller = new AbortController();
    const waiting = rejection(sleep(10_000, controller.signal, () => new Error('aborted')));
    controller.abort();
    expect(((await waiting) as Error).message).toBe('aborted');
  });
});
