// The per-delivery deadline: waits settle by their value or by the deadline, whichever is first;
// one timer shared by every delivery, only while something waits; a disposed deadline fires
// nothing. Fake timers:
// what is checked is the order of events, not the machine's speed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadline, DeadlineExceededError } from '../../../src/webhooks/deadline.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Lets the shared sweep find nothing left and stop, as every test here must end: its state is the
 * module's, and a sweep left due would make the next test's deadlines wait for a timer that the next
 * fake clock does not have.
 */
const stopSweeping = () => vi.advanceTimersByTimeAsync(20);
const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(resolve, ms, value));
const settle = async (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

describe('Deadline', () => {
  it('returns a plain value as it is, with no timer', () => {
    const deadline = new Deadline(1500);
    expect(deadline.race(42, 'x')).toBe(42);
    expect(vi.getTimerCount()).toBe(0);
    deadline.dispose();
  });

  it('gives the value when it comes first, and the error naming the wait when the deadline does', async () => {
    const deadline = new Deadline(1500);
    const fast = settle(deadline.race(later(100, 'fast'), 'the store') as Promise<string>);
    await vi.advanceTimersByTimeAsync(100);
    expect(await fast).toEqual({ value: 'fast' });
    const slow = settle(deadline.race(later(5000, 'slow'), 'the queue') as Promise<string>);
    await vi.advanceTimersByTimeAsync(1400);
    const outcome = await slow;
    expect('error' in outcome && outcome.error).toBeInstanceOf(DeadlineExceededError);
    expect(String((outcome as { error: Error }).error.message)).toBe(
      'the queue did not finish within the ack deadline (1500 ms)',
    );
    expect(deadline.remaining).toBe(0);
    deadline.dispose();
  });

  it('passes a rejection through, and swallows one that comes after the deadline', async () => {
    const deadline = new Deadline(200);
    const failing = settle(deadline.race<never>(Promise.reject(new Error('boom')), 'x'));
    expect(await failing).toEqual({ error: new Error('boom') });
    const late = new Promise<never>((_, reject) => setTimeout(reject, 1000, new Error('late')));
    const raced = settle(deadline.race<never>(late, 'y'));
    await vi.advanceTimersByTimeAsync(1000); // the late rejection lands with no one listening: no unhandled rejection
    expect(((await raced) as { error: Error }).error).toBeInstanceOf(DeadlineExceededError);
    deadline.dispose();
  });

  it('fires at its time, not before; one shared timer while something waits, stopping once nothing does', async () => {
    const deadline = new Deadline(1500);
    expect(vi.getTimerCount()).toBe(0);
    const wait = settle(deadline.race(new Promise(() => {}), 'x') as Promise<unknown>);
    expect(vi.getTimerCount()).toBe(1);
    void settle(deadline.race(new Promise(() => {}), 'y') as Promise<unknown>);
    const other = new Deadline(1495); // passes between two looks: found at the next, 5 ms late
    const otherWait = settle(other.race(new Promise(() => {}), 'z') as Promise<unknown>);
    expect(vi.getTimerCount()).toBe(1); // one timer, however many waits and deliveries
    let settledAt = 0;
    let otherAt = 0;
    void wait.then(() => (settledAt = Date.now()));
    void otherWait.then(() => (otherAt = Date.now()));
    await vi.advanceTimersByTimeAsync(1490);
    expect([settledAt, otherAt]).toEqual([0, 0]);
    await vi.advanceTimersByTimeAsync(9);
    expect([settledAt, otherAt]).toEqual([0, 0]);
    await vi.advanceTimersByTimeAsync(1);
    expect([settledAt, otherAt]).toEqual([1_001_500, 1_001_500]);
    expect(vi.getTimerCount()).toBe(0); // nothing left to watch: no timer set again

    const answered = new Deadline(1500);
    void answered.race(new Promise(() => {}), 'x');
    answered.dispose();
    expect(vi.getTimerCount()).toBe(1); // not cleared: it looks once more, finds nothing, stops
    await vi.advanceTimersByTimeAsync(10);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sets the shared timer again when the one due never came (dropped by the runtime)', async () => {
    const first = new Deadline(100);
    const wait = settle(first.race(new Promise(() => {}), 'x') as Promise<unknown>);
    vi.clearAllTimers(); // as a runtime that dropped it
    await vi.advanceTimersByTimeAsync(25);
    const second = new Deadline(1000);
    void second.race(new Promise(() => {}), 'y'); // the sweep was due 15 ms ago: a new one is set
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(85); // the new timer looks at 35, 45, … 105 ms: 5 ms late at most
    expect(((await wait) as { error: Error }).error).toBeInstanceOf(DeadlineExceededError);
    second.dispose();
  });

  it('settledBy: the value, or the given stand-in at the deadline while the work goes on', async () => {
    const deadline = new Deadline(500);
    const quick = deadline.settledBy(later(10, 'done'), 'late');
    await vi.advanceTimersByTimeAsync(10);
    expect(await quick).toBe('done');
    const work = later(2000, 'finished');
    const slow = deadline.settledBy(work, 'late');
    await vi.advanceTimersByTimeAsync(490);
    expect(await slow).toBe('late');
    await vi.advanceTimersByTimeAsync(1510);
    expect(await work).toBe('finished');
  });

  it('tighten() brings a watched deadline forward; dispose() stops it from firing', async () => {
    const deadline = new Deadline(1500);
    const wait = settle(deadline.race(new Promise(() => {}), 'x') as Promise<unknown>);
    deadline.tighten(900);
    deadline.tighten(1200); // never later
    expect(deadline.ms).toBe(900);
    await vi.advanceTimersByTimeAsync(900);
    expect(((await wait) as { error: Error }).error.message).toContain('(900 ms)');

    const disposed = new Deadline(100);
    let fired = false;
    void (disposed.race(new Promise(() => {}), 'x') as Promise<unknown>).then(undefined, () => (fired = true));
    disposed.dispose();
    await vi.advanceTimersByTimeAsync(1000);
    expect(fired).toBe(false);
  });

  it('a wait started after the deadline passed fails at once', async () => {
    const deadline = new Deadline(100);
    void settle(deadline.race(new Promise(() => {}), 'x') as Promise<unknown>);
    await vi.advanceTimersByTimeAsync(100);
    const after = await settle(deadline.race(new Promise(() => {}), 'the body') as Promise<unknown>);
    expect((after as { error: Error }).error).toBeInstanceOf(DeadlineExceededError);
    expect(await deadline.settledBy(new Promise(() => {}), undefined)).toBeUndefined();
  });
});

describe('Deadline.within: work that reports through a callback', () => {
  it("runs what follows in the callback's own call, once", async () => {
    const deadline = new Deadline(1000);
    let report: ((bytes: string) => void) | undefined;
    const steps: string[] = [];
    deadline.within(
      'reading the body',
      (settle) => {
        report = (bytes) => settle(() => steps.push(`handled ${bytes}`));
      },
      (error) => steps.push(`failed: ${String(error)}`),
    );
    report?.('{}');
    steps.push('after the report');
    report?.('again'); // a second report is ignored
    expect(steps).toEqual(['handled {}', 'after the report']); // no promise between
    await vi.advanceTimersByTimeAsync(1010); // nor does the deadline answer once the work did
    expect(steps).toEqual(['handled {}', 'after the report']);
    deadline.dispose();
    await stopSweeping();
  });

  it('runs atDeadline(error) at the deadline, and never starts work reported after it', async () => {
    const deadline = new Deadline(100);
    let report: (() => void) | undefined;
    let started = false;
    const errors: unknown[] = [];
    deadline.within(
      'reading the body',
      (settle) => (report = () => settle(() => (started = true))),
      (error) => errors.push(error),
    );
    await vi.advanceTimersByTimeAsync(90);
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(20);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(DeadlineExceededError);
    expect((errors[0] as Error).message).toBe('reading the body did not finish within the ack deadline (100 ms)');
    report?.();
    expect(started).toBe(false);
    expect(errors).toHaveLength(1);
    await stopSweeping();
  });

  it('runs atDeadline(error) when the work cannot start, and nothing it reports afterwards', async () => {
    const deadline = new Deadline(1000);
    const boom = new Error('stream locked');
    const steps: unknown[] = [];
    let report: (() => void) | undefined;
    deadline.within(
      'x',
      (settle) => {
        report = () => settle(() => steps.push('late work'));
        throw boom;
      },
      (error) => steps.push(error),
    );
    report?.();
    expect(steps).toEqual([boom]);
    deadline.dispose();
    await stopSweeping();
  });
});

describe('Deadline: the watched list', () => {
  it('drops disposed deadlines at the next sweep, and stops once none is left', async () => {
    const many = Array.from({ length: 50 }, () => new Deadline(1000));
    for (const deadline of many) void deadline.race(new Promise(() => {}), 'x');
    expect(vi.getTimerCount()).toBe(1);
    for (const deadline of many) deadline.dispose();
    await vi.advanceTimersByTimeAsync(10); // a sweep finds nothing waiting: no timer set again
    expect(vi.getTimerCount()).toBe(0);
  });

  it('watches a deadline that an expiry started, and expires it at its own time', async () => {
    const first = new Deadline(100);
    const second = new Deadline(300);
    let secondFailedAt = 0;
    const watchSecond = () =>
      void (second.race(new Promise(() => {}), 'y') as Promise<unknown>).then(
        undefined,
        () => (secondFailedAt = Date.now()),
      );
    // first's expiry (inside the sweep) starts a wait on second: it must not be lost by the sweep.
    first.within('x', () => {}, watchSecond);
    const kept = Array.from({ length: 5 }, () => new Deadline(1000)); // others around it in the list
    for (const deadline of kept) void deadline.race(new Promise(() => {}), 'z');
    await vi.advanceTimersByTimeAsync(200);
    expect(secondFailedAt).toBe(0);
    await vi.advanceTimersByTimeAsync(110);
    expect(secondFailedAt).toBeGreaterThanOrEqual(1_000_300);
    expect(secondFailedAt).toBeLessThanOrEqual(1_000_310);
    for (const deadline of kept) deadline.dispose();
    await stopSweeping();
  });

  it('keeps what an expiry gets watched when the sweep runs from a wait (the timer overdue), and the deadlines after it', async () => {
    const never = new Promise(() => {});
    const first = new Deadline(5);
    const watchedByExpiry = new Deadline(1000);
    first.within(
      'x',
      () => {},
      () => void (watchedByExpiry.race(never, 'y') as Promise<unknown>).catch(() => {}),
    );
    const after = new Deadline(50);
    let afterFailedAt = 0;
    void (after.race(never, 'z') as Promise<unknown>).catch(() => (afterFailedAt = Date.now()));
    vi.setSystemTime(Date.now() + 30); // a busy loop: the clock moved, the shared timer did not fire
    const last = new Deadline(1000);
    void (last.race(never, 'w') as Promise<unknown>).catch(() => {}); // sweeps here: `first` expires
    await vi.advanceTimersByTimeAsync(40);
    expect(afterFailedAt).toBeGreaterThanOrEqual(1_000_050);
    expect(afterFailedAt).toBeLessThanOrEqual(1_000_060);
    for (const deadline of [watchedByExpiry, last]) deadline.dispose();
    await stopSweeping();
  });
});

describe('Deadline under fake timers that leave `performance` real', () => {
  it('passes when the faked clock and timers reach it', async () => {
    vi.useRealTimers();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const deadline = new Deadline(1500);
    const wait = settle(deadline.race(new Promise(() => {}), 'x') as Promise<unknown>);
    await vi.advanceTimersByTimeAsync(1510);
    expect(((await wait) as { error: Error }).error).toBeInstanceOf(DeadlineExceededError);
  });
});

describe('Deadline under a loop too busy to run timers', () => {
  it('still passes: the deliveries that keep coming sweep what the overdue timer has not', async () => {
    vi.useRealTimers();
    // Each turn 25 ms of synchronous work, then another delivery starts waiting: the shared timer,
    // due every 10 ms, is overdue at every new wait (before, each new wait put it off again, and a
    // 100 ms deadline had not passed after 3 s).
    const busy = (ms: number) => {
      for (const end = performance.now() + ms; performance.now() < end;);
    };
    const started = performance.now();
    const deadline = new Deadline(100);
    const failed = (deadline.race(new Promise(() => {}), 'x') as Promise<unknown>).then(
      () => undefined,
      () => performance.now() - started,
    );
    const others: Deadline[] = [];
    let stop = false;
    const turn = () => {
      if (stop) return;
      busy(25);
      const other = new Deadline(60_000);
      void settle(other.race(new Promise(() => {}), 'y') as Promise<unknown>);
      others.push(other);
      setImmediate(turn);
    };
    setImmediate(turn);
    const passedAfter = await Promise.race([
      failed,
      new Promise<'never'>((resolve) => setTimeout(resolve, 3000, 'never')),
    ]);
    stop = true;
    await new Promise((resolve) => setImmediate(resolve)); // the last turn sees `stop`
    for (const other of others) other.dispose();
    expect(passedAfter).not.toBe('never');
    expect(passedAfter).toBeGreaterThanOrEqual(100);
  });
});

describe('Deadline where a request takes its timers with it (Cloudflare Workers)', () => {
  // A timer of its own per deadline: one shared timer could be cancelled with the request that set it.
  const load = async () => {
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    vi.resetModules();
    return import('../../../src/webhooks/deadline.js');
  };
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('gives each waiting deadline its own timer, fired at its time and cleared by dispose()', async () => {
    const { Deadline: OwnTimer, DeadlineExceededError: Exceeded } = await load();
    const first = new OwnTimer(100);
    const second = new OwnTimer(200);
    const wait = settle(first.race(new Promise(() => {}), 'x') as Promise<unknown>);
    void settle(first.race(new Promise(() => {}), 'y') as Promise<unknown>); // a second wait: still one timer
    void second.race(new Promise(() => {}), 'z');
    expect(vi.getTimerCount()).toBe(2);
    await vi.advanceTimersByTimeAsync(99);
    second.dispose();
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1); // on time: not a sweep's 10 ms late
    expect(((await wait) as { error: Error }).error).toBeInstanceOf(Exceeded);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tighten() sets its timer again, earlier', async () => {
    const { Deadline: OwnTimer } = await load();
    const deadline = new OwnTimer(1500);
    let failedAt = 0;
    void (deadline.race(new Promise(() => {}), 'x') as Promise<unknown>).then(undefined, () => (failedAt = Date.now()));
    deadline.tighten(900);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(900);
    expect(failedAt).toBe(1_000_900);
  });
});
