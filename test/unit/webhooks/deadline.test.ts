// The per-delivery deadline (src/webhooks/deadline.ts): waits settle by their value or by the
// deadline, whichever is first; one timer shared by every delivery, only while something waits; a
// disposed deadline fires nothing; a loop that runs the timer late has the deadlines due before the
// next sweep expired early rather than late. Fake timers: what is checked is the order of events,
// not the machine's speed.
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
  it('gives the value when it comes first, and the error naming the wait when the deadline does', async () => {
    const deadline = new Deadline(1500);
    const fast = settle(deadline.race(later(100, 'fast'), 'the store'));
    await vi.advanceTimersByTimeAsync(100);
    expect(await fast).toEqual({ value: 'fast' });
    const slow = settle(deadline.race(later(5000, 'slow'), 'the queue'));
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

  it('fires by its time, at most one sweep before it on an idle loop; one shared timer while something waits, stopping once nothing does', async () => {
    const deadline = new Deadline(1500);
    expect(vi.getTimerCount()).toBe(0);
    void settle(deadline.race(Promise.resolve('done'), 'x')); // a wait that ended: the next takes its place
    expect(vi.getTimerCount()).toBe(1);
    await Promise.resolve();
    const wait = settle(deadline.race(new Promise(() => {}), 'y'));
    const other = new Deadline(1497); // passes between two looks: expired at the one before it, 2 ms early
    const otherWait = settle(other.race(new Promise(() => {}), 'z'));
    expect(vi.getTimerCount()).toBe(1); // one timer, however many waits and deliveries
    let settledAt = 0;
    let otherAt = 0;
    void wait.then(() => (settledAt = Date.now()));
    void otherWait.then(() => (otherAt = Date.now()));
    await vi.advanceTimersByTimeAsync(1490);
    expect([settledAt, otherAt]).toEqual([0, 0]);
    await vi.advanceTimersByTimeAsync(4);
    expect([settledAt, otherAt]).toEqual([0, 0]);
    await vi.advanceTimersByTimeAsync(1); // the last look before 1500: the answer leaves in time
    expect([settledAt, otherAt]).toEqual([1_001_495, 1_001_495]);
    await vi.advanceTimersByTimeAsync(5);
    expect(vi.getTimerCount()).toBe(0); // nothing left to watch: the next look sets no timer again

    const answered = new Deadline(1500);
    void answered.race(new Promise(() => {}), 'x');
    answered.dispose();
    expect(vi.getTimerCount()).toBe(1); // not cleared: it looks once more, finds nothing, stops
    await vi.advanceTimersByTimeAsync(10);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sets the shared timer again when the one due never came (dropped by the runtime)', async () => {
    const first = new Deadline(100);
    const wait = settle(first.race(new Promise(() => {}), 'x'));
    vi.clearAllTimers(); // as a runtime that dropped it
    await vi.advanceTimersByTimeAsync(25);
    const second = new Deadline(1000);
    void second.race(new Promise(() => {}), 'y'); // the sweep was due 15 ms ago: a new one is set
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(85); // the new timer looks at 35, 45, … 105 ms: 5 ms late at most
    expect(((await wait) as { error: Error }).error).toBeInstanceOf(DeadlineExceededError);
    second.dispose();
  });

  it('byDeadline: the value, or the given stand-in at the deadline while the work goes on', async () => {
    const deadline = new Deadline(500);
    const quick = deadline.byDeadline(later(10, 'done'), 'late');
    await vi.advanceTimersByTimeAsync(10);
    expect(await quick).toBe('done');
    const work = later(2000, 'finished');
    const slow = deadline.byDeadline(work, 'late');
    await vi.advanceTimersByTimeAsync(490);
    expect(await slow).toBe('late');
    await vi.advanceTimersByTimeAsync(1510);
    expect(await work).toBe('finished');
  });

  it('tighten() brings a watched deadline forward; dispose() stops it from firing', async () => {
    const deadline = new Deadline(1500);
    const wait = settle(deadline.race(new Promise(() => {}), 'x'));
    deadline.tighten(900);
    deadline.tighten(1200); // never later
    expect(deadline.ms).toBe(900);
    await vi.advanceTimersByTimeAsync(900);
    expect(((await wait) as { error: Error }).error.message).toContain('(900 ms)');

    const disposed = new Deadline(100);
    let fired = false;
    void disposed.race(new Promise(() => {}), 'x').then(undefined, () => (fired = true));
    disposed.dispose();
    await vi.advanceTimersByTimeAsync(1000);
    expect(fired).toBe(false);
  });

  it('a wait started after the deadline passed fails at once', async () => {
    const deadline = new Deadline(100);
    void settle(deadline.race(new Promise(() => {}), 'x'));
    await vi.advanceTimersByTimeAsync(100);
    const after = await settle(deadline.race(new Promise(() => {}), 'the body'));
    expect((after as { error: Error }).error).toBeInstanceOf(DeadlineExceededError);
    expect(await deadline.byDeadline(new Promise(() => {}), undefined)).toBeUndefined();
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

  it('watches a deadline that an expiry started, and expires it by its own time', async () => {
    const first = new Deadline(100);
    const second = new Deadline(300);
    let secondFailedAt = 0;
    const watchSecond = () =>
      void second.race(new Promise(() => {}), 'y').then(undefined, () => (secondFailedAt = Date.now()));
    // first's expiry (inside the sweep) starts a wait on second: it must not be lost by the sweep.
    first.race(new Promise(() => {}), 'x').catch(watchSecond);
    const kept = Array.from({ length: 5 }, () => new Deadline(1000)); // others around it in the list
    for (const deadline of kept) void deadline.race(new Promise(() => {}), 'z');
    await vi.advanceTimersByTimeAsync(200);
    expect(secondFailedAt).toBe(0);
    await vi.advanceTimersByTimeAsync(110);
    expect(secondFailedAt).toBeGreaterThanOrEqual(1_000_295);
    expect(secondFailedAt).toBeLessThanOrEqual(1_000_300);
    for (const deadline of kept) deadline.dispose();
    await stopSweeping();
  });

  it('keeps what an expiry gets watched when the sweep runs from a wait (the timer overdue), and the deadlines after it', async () => {
    const never = new Promise(() => {});
    const first = new Deadline(5);
    const watchedByExpiry = new Deadline(1000);
    first.race(never, 'x').catch(() => void watchedByExpiry.race(never, 'y').catch(() => {}));
    const after = new Deadline(200);
    let afterFailedAt = 0;
    void after.race(never, 'z').catch(() => (afterFailedAt = Date.now()));
    vi.setSystemTime(Date.now() + 30); // a busy loop: the clock moved, the shared timer did not fire
    const last = new Deadline(1000);
    void last.race(never, 'w').catch(() => {}); // sweeps here: `first` expires
    await vi.advanceTimersByTimeAsync(160);
    expect(afterFailedAt).toBe(0);
    await vi.advanceTimersByTimeAsync(20);
    // At its time, give or take what the loop's lateness (20 ms, halved at every sweep since) left.
    expect(afterFailedAt).toBeGreaterThanOrEqual(1_000_195);
    expect(afterFailedAt).toBeLessThanOrEqual(1_000_210);
    for (const deadline of [watchedByExpiry, last]) deadline.dispose();
    await stopSweeping();
  });
});

describe('Deadline under a loop that runs the shared timer late', () => {
  it('expires what is due before the next sweep is likely to come: early rather than late', async () => {
    const deadline = new Deadline(200);
    let failedAt = 0;
    void deadline.race(new Promise(() => {}), 'x').catch(() => (failedAt = Date.now()));
    await vi.advanceTimersByTimeAsync(150); // sweeps on time: nothing expired early
    expect(failedAt).toBe(0);
    vi.setSystemTime(Date.now() + 30); // a busy loop: the clock moved 30 ms, the timer did not fire
    await vi.advanceTimersByTimeAsync(5); // the sweep runs 30 ms late: due at 155, run at 185
    expect(failedAt).toBe(1_000_185); // 15 ms before its time, not after it at the next late sweep
  });

  it('forgets the lateness as sweeps come on time again: no earlier than on an idle loop', async () => {
    const busy = new Deadline(100);
    void busy.race(new Promise(() => {}), 'x').catch(() => {});
    vi.setSystemTime(Date.now() + 30);
    await vi.advanceTimersByTimeAsync(10);
    const later = new Deadline(300);
    let failedAt = 0;
    void later.race(new Promise(() => {}), 'y').catch(() => (failedAt = Date.now()));
    await vi.advanceTimersByTimeAsync(290);
    expect(failedAt).toBe(0);
    await vi.advanceTimersByTimeAsync(5);
    expect(failedAt).toBe(1_000_335); // started at 40: due at 340, expired at the last look before it
    busy.dispose();
    await stopSweeping();
  });
});

describe('Deadline: a stall, and timers replaced', () => {
  // Real time: a machine busy enough to hold this process off for 200 ms right after the stall
  // passes the deadline for real; the retries are for that.
  it(
    'a stall on an idle loop: what finished during it is heard before the deadline is given up on',
    { retry: 2 },
    async () => {
      vi.useRealTimers();
      const busy = (ms: number) => {
        for (const end = Date.now() + ms; Date.now() < end;);
      };
      const start = Date.now();
      const deadline = new Deadline(2_000);
      // The loop stalled from about 1.56 s to 1.8 s (within what is taken for a busy loop's
      // lateness) by a callback of the check phase, as a handler called from I/O would (a stall in a
      // timer's callback holds Node's clock for the rest of its timers phase: deadline.ts), and the
      // work done during the stall: the first sweep after it may expire the deadline early, but
      // only after the timers already due, the work's among them. The stall ends at 1.8 s however
      // late it began (a loaded machine can run its timer late).
      let finish!: (value: string) => void;
      const work = new Promise<string>((resolve) => (finish = resolve));
      setTimeout(
        () =>
          setImmediate(() => {
            setTimeout(finish, 50, 'done'); // due after the sweep due now, and before the stall ends
            busy(start + 1_800 - Date.now());
          }),
        1_560,
      );
      expect(await deadline.byDeadline(work, 'given up')).toBe('done');
      deadline.dispose();
    },
  );

  it('a sweep set by fake timers that were replaced by real ones: the next wait sets one of its own', async () => {
    vi.useRealTimers();
    vi.useFakeTimers(); // a fake clock at the real time, as a test's usually is
    const before = new Deadline(1_000);
    void before.race(new Promise(() => {}), 'x').catch(() => {});
    before.dispose(); // a sweep is due on the fake clock, about now
    vi.useRealTimers(); // and its timer is gone with the fake clock
    const deadline = new Deadline(50);
    const outcome = await Promise.race([
      deadline.byDeadline(new Promise(() => {}), 'passed'),
      new Promise((resolve) => setTimeout(resolve, 2_000, 'never passed')),
    ]);
    expect(outcome).toBe('passed');
  });
});

describe('Deadline under fake timers that leave `performance` real', () => {
  it('passes when the faked clock and timers reach it', async () => {
    vi.useRealTimers();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const deadline = new Deadline(1500);
    const wait = settle(deadline.race(new Promise(() => {}), 'x'));
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
    const failed = deadline.race(new Promise(() => {}), 'x').then(
      () => undefined,
      () => performance.now() - started,
    );
    const others: Deadline[] = [];
    let stop = false;
    const turn = () => {
      if (stop) return;
      busy(25);
      const other = new Deadline(60_000);
      void settle(other.race(new Promise(() => {}), 'y'));
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
    // Early by at most how late the loop ran its sweeps (a turn of 25 ms), never more.
    expect(passedAfter).toBeGreaterThanOrEqual(100 - 30);
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
    void settle(first.race(Promise.resolve('done'), 'y')); // a wait that ended, and the next: one timer
    const wait = settle(first.race(new Promise(() => {}), 'x'));
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
    void deadline.race(new Promise(() => {}), 'x').then(undefined, () => (failedAt = Date.now()));
    deadline.tighten(900);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(900);
    expect(failedAt).toBe(1_000_900);
  });
});
