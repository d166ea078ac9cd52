// Failures of the state store or the queue while they keep coming (src/webhooks/outage.ts): the
// first told at once; those within the next 10 s told together when that interval ends, as an
// OutageError that says how many and carries the latest as its cause; and so on while they come; a
// failure after a quiet interval told at once again. Fake clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FlashdutyError } from '../../../src/index.js';
import { OutageError } from '../../../src/webhooks/index.js';
import { OutageReport } from '../../../src/webhooks/outage.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('OutageReport', () => {
  it('tells the first failure as it is, then once per 10 s how many came since, with the latest', () => {
    const told: Array<[unknown, unknown]> = [];
    const report = new OutageReport('the state store', (error, subject) => told.push([error, subject]));
    const first = new Error('READONLY');
    report.failed(first, 'e-first');
    // A failure every 9 ms for 18 s.
    for (let i = 0; i < 2000; i++) {
      vi.advanceTimersByTime(9);
      report.failed(new Error(`OOM ${i}`), `e${i}`);
    }
    expect(told.map(([error]) => (error as Error).message)).toEqual([
      'READONLY',
      'the state store failed 1111 more times in the last 10 s (told once per 10 s); the latest: OOM 1110',
    ]);
    expect(told[0]).toEqual([first, 'e-first']);
    const [error, subject] = told[1] as [OutageError, string];
    expect(error).toBeInstanceOf(OutageError);
    expect(error).toBeInstanceOf(FlashdutyError);
    expect(error.failures).toBe(1111);
    expect(error.cause).toEqual(new Error('OOM 1110'));
    expect(subject).toBe('e1110');
    vi.advanceTimersByTime(2_000); // the second interval ends: the 889 failures of its 8 s
    expect((told[2]?.[0] as OutageError).failures).toBe(889);
    vi.advanceTimersByTime(60_000); // quiet: nothing more to tell
    expect(told).toHaveLength(3);
  });

  it('tells a failure after a quiet interval as it is, with nothing carried over', () => {
    const told: unknown[] = [];
    const report = new OutageReport('the queue', (error) => told.push(error));
    report.failed(new Error('down'));
    vi.advanceTimersByTime(60_000);
    const again = new Error('down again');
    report.failed(again);
    expect(told).toEqual([new Error('down'), again]);
  });
});
