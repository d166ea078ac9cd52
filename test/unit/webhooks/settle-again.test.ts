// A claim's settlement tried again (src/webhooks/settle-again.ts): after each wait (50 ms, doubling
// to 6.4 s) until it resolves, every failure told; the last failure thrown once the waits, about 30 s
// in all, run out; in the background, timers that keep no process alive. Fake timers: what is
// checked is when each try happens, not the machine's speed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settleAgain } from '../../../src/webhooks/settle-again.js';

/** The waits before each try, in ms, as the module documents them. */
const WAITS = [50, 100, 200, 400, 800, 1600, 3200, 6400, 6400, 6400, 6400];
const TOTAL = WAITS.reduce((sum, ms) => sum + ms, 0);

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  // A spy on the fake setTimeout goes first: restored after useRealTimers(), it would put the fake back.
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const settle = async (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/** A settle() failing `failures` times, noting when each try came. */
function flaky(failures: number) {
  const tries: number[] = [];
  const run = () => {
    tries.push(Date.now());
    if (tries.length <= failures) throw new Error(`store down ${tries.length}`);
  };
  return { run, tries };
}

describe('settleAgain', () => {
  it('tries only after the first wait, and resolves with the first success', async () => {
    const { run, tries } = flaky(0);
    const failed = vi.fn();
    let done = false;
    const settled = settleAgain(run, failed, false).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(49);
    expect(tries).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await settled;
    expect([tries, done]).toEqual([[50], true]);
    expect(failed).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0); // nothing left waiting
  });

  it('tries again after each wait until settle resolves, telling each failure', async () => {
    const { run, tries } = flaky(3);
    const failed = vi.fn();
    const settled = settle(settleAgain(run, failed, false));
    await vi.advanceTimersByTimeAsync(50 + 100 + 200 + 400);
    expect(await settled).toEqual({ value: undefined });
    expect(tries).toEqual([50, 150, 350, 750]);
    expect(failed.mock.calls).toEqual([
      [new Error('store down 1')],
      [new Error('store down 2')],
      [new Error('store down 3')],
    ]);
  });

  it('waits for an async settle, and a rejection counts as a failure', async () => {
    let calls = 0;
    const failed = vi.fn();
    const run = async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 10)); // the store's round trip
      if (calls === 1) throw new Error('refused');
    };
    const settled = settle(settleAgain(run, failed, false));
    await vi.advanceTimersByTimeAsync(60);
    expect([calls, failed.mock.calls]).toEqual([1, [[new Error('refused')]]]);
    await vi.advanceTimersByTimeAsync(110);
    expect(await settled).toEqual({ value: undefined });
    expect(calls).toBe(2);
  });

  it('rejects with the last failure when the waits run out, about 30 s in all', async () => {
    const { run, tries } = flaky(Number.POSITIVE_INFINITY);
    const failed = vi.fn();
    let outcome: { value: unknown } | { error: unknown } | undefined;
    void settle(settleAgain(run, failed, false)).then((result) => (outcome = result));
    await vi.advanceTimersByTimeAsync(TOTAL - 1);
    expect(outcome).toBeUndefined();
    expect(tries).toHaveLength(WAITS.length - 1);
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toEqual({ error: new Error(`store down ${WAITS.length}`) });
    expect(TOTAL).toBe(31_950);
    // Each try after its wait: the times are the running sums of the waits.
    let at = 0;
    expect(tries).toEqual(WAITS.map((ms) => (at += ms)));
    expect(failed).toHaveBeenCalledTimes(WAITS.length);
    expect(failed).toHaveBeenLastCalledWith(new Error(`store down ${WAITS.length}`));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(tries).toHaveLength(WAITS.length); // and tries no more
    expect(vi.getTimerCount()).toBe(0);
  });

  it('in the background, waits on timers that keep no process alive; otherwise on ordinary ones', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const refs = () => timers.mock.results.map((result) => (result.value as NodeJS.Timeout).hasRef());

    const background = flaky(2);
    const quiet = settleAgain(background.run, () => {}, true);
    await vi.advanceTimersByTimeAsync(350);
    await quiet;
    expect(background.tries).toHaveLength(3);
    expect(refs()).toEqual([false, false, false]);

    timers.mockClear();
    const foreground = flaky(1);
    const answered = settleAgain(foreground.run, () => {}, false);
    await vi.advanceTimersByTimeAsync(150);
    await answered;
    expect(refs()).toEqual([true, true]);
  });
});
