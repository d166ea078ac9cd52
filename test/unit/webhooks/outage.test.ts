// Failures of the state store or the queue while they keep coming (src/webhooks/outage.ts): the
// first told at once, the next ones counted and told once per 10 s as an OutageError that says how
// many it stands for and carries the latest failure; a quiet spell starts over. Fake clock.
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
  it('tells the first failure as it is, then one per 10 s standing for those it hid', () => {
    const told: Array<[unknown, unknown]> = [];
    const report = new OutageReport('the state store', (error, subject) => told.push([error, subject]));
    const first = new Error('READONLY');
    report.failed(first, 'e1');
    for (let i = 0; i < 2000; i++) {
      vi.advanceTimersByTime(9);
      report.failed(new Error(`OOM ${i}`), `e${i}`);
    }
    // A failure every 9 ms for 18 s: told at 0 and at 10 s, the second standing for the 1 111 between.
    expect(told.length).toBe(2);
    expect(told[0]).toEqual([first, 'e1']);
    const [error, subject] = told[1] as [OutageError, string];
    expect(error).toBeInstanceOf(OutageError);
    expect(error).toBeInstanceOf(FlashdutyError);
    expect(error.hidden).toBe(1111);
    expect(error.message).toBe('the state store failed 1112 times in 10 s (told once per 10 s): OOM 1111');
    expect(error.cause).toBeInstanceOf(Error);
    expect(subject).toBe('e1111');
  });

  it('tells a failure after a quiet spell as it is, with nothing hidden', () => {
    const told: unknown[] = [];
    const report = new OutageReport('the queue', (error) => told.push(error));
    report.failed(new Error('down'));
    vi.advanceTimersByTime(60_000);
    const again = new Error('down again');
    report.failed(again);
    expect(told).toEqual([new Error('down'), again]);
  });
});
