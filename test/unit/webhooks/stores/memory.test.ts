// MemoryStateStore: the StateStore rules (test/support/state-store-contract.ts), synchronous answers,
// and its bounds in entries and bytes.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { MemoryStateStore } from '../../../../src/webhooks/index.js';
import { describeStateStore } from '../../../support/state-store-contract.js';
import { leaveFakeClock } from '../../../helpers.js';

/** Claims `eventId` now for `leaseMs`, as a delivery does (no staleness scope). */
const claimOf = (store: MemoryStateStore, eventId: string, leaseMs: number) =>
  store.claim({ eventId, leaseMs, eventTime: Date.now(), now: Date.now() });

function fakeClock(): void {
  vi.useFakeTimers();
  onTestFinished(leaveFakeClock);
}

describeStateStore('MemoryStateStore', () => new MemoryStateStore());

describe('MemoryStateStore', () => {
  const request = (eventId: string, now = Date.now()) => ({ eventId, leaseMs: 1_000, eventTime: now, now });

  it('answers synchronously: no promise per step', () => {
    const store = new MemoryStateStore();
    const claim = store.claim({ ...request('sync'), scope: 'incident:1' });
    expect(claim).toMatchObject({ status: 'claimed' });
    expect(store.advance('incident:2', 1, Date.now())).toBe(true);
  });

  it('keeps the newest half of its ids when full, and forgets the oldest half at once', () => {
    const store = new MemoryStateStore({ maxEntries: 10 });
    for (let i = 0; i < 10; i++) {
      const claim = store.claim(request(`id-${i}`));
      if (claim.status === 'claimed') store.complete(`id-${i}`, claim.token);
    }
    expect(store.size).toBeLessThanOrEqual(10);
    expect(store.claim(request('id-9'))).toEqual({ status: 'done' });
    expect(store.claim(request('id-0')).status).toBe('claimed');
  });

  it('counts bytes: long ids fill a generation before its entry count does', () => {
    const store = new MemoryStateStore({ maxEntries: 1_000_000, maxBytes: 64 * 1024 });
    for (let i = 0; i < 2_000; i++) store.claim(request(`${i}`.padEnd(256, 'x')));
    expect(store.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it('refuses options it cannot keep', () => {
    expect(() => new MemoryStateStore({ maxEntries: 1 })).toThrow(/maxEntries/);
    expect(() => new MemoryStateStore({ ttlMs: 0 })).toThrow(/ttlMs/);
  });
});

describe('MemoryStateStore', () => {
  it('stays within maxEntries under an endless stream of new ids', async () => {
    const store = new MemoryStateStore({ maxEntries: 1000 });
    for (let i = 0; i < 50_000; i++) {
      const claim = claimOf(store, `id-${i}`, 60_000);
      if (claim.status === 'claimed') store.complete(`id-${i}`, claim.token);
    }
    expect(store.size).toBeLessThanOrEqual(1000);
    expect(store.size).toBeGreaterThanOrEqual(500);
    for (let i = 49_500; i < 50_000; i++) expect(claimOf(store, `id-${i}`, 60_000).status).toBe('done'); // the newest half
    expect(claimOf(store, 'id-49999', 60_000).status).toBe('done');
    expect(claimOf(store, 'id-0', 60_000).status).toBe('claimed'); // long evicted
  });

  it('bounds claims that are never completed (handlers that hang)', () => {
    const store = new MemoryStateStore({ maxEntries: 100 });
    for (let i = 0; i < 5_000; i++) expect(claimOf(store, `hung-${i}`, 60_000).status).toBe('claimed');
    expect(store.size).toBeLessThanOrEqual(100);
    expect(claimOf(store, 'hung-4999', 60_000).status).toBe('pending'); // the newest stay claimed
  });

  it('forgets ids after ttlMs, and lets a lapsed claim be taken over', async () => {
    fakeClock();
    const store = new MemoryStateStore({ ttlMs: 30 });
    const claim = claimOf(store, 'a', 20);
    expect(claimOf(store, 'a', 20).status).toBe('pending');
    vi.advanceTimersByTime(30);
    const next = claimOf(store, 'a', 1000);
    expect(next.status).toBe('claimed');
    if (claim.status === 'claimed') store.release('a', claim.token); // a stale holder cannot release it
    expect(claimOf(store, 'a', 1000).status).toBe('pending');
  });
});

describe('MemoryStateStore watermarks', () => {
  it('forget incidents after ttlMs', async () => {
    fakeClock();
    const store = new MemoryStateStore({ ttlMs: 30 });
    expect(store.advance('inc', 2_000, Date.now())).toBe(true);
    expect(store.advance('inc', 1_000, Date.now())).toBe(false);
    vi.advanceTimersByTime(40);
    expect(store.advance('inc', 1_000, Date.now())).toBe(true);
  });

  it('evict the least recently moved incidents first', () => {
    const store = new MemoryStateStore({ maxEntries: 4 });
    for (const incident of ['a', 'b', 'c']) store.advance(incident, 100, Date.now());
    store.advance('a', 200, Date.now()); // a moved again: b is now the least recent
    store.advance('d', 100, Date.now());
    expect(store.advance('a', 150, Date.now())).toBe(false); // still remembered
    expect(store.advance('c', 50, Date.now())).toBe(false);
    expect(store.advance('b', 50, Date.now())).toBe(true); // forgotten
  });

  it('keep memory flat while a few incidents move forever', () => {
    const gc = collector();
    const store = new MemoryStateStore({ maxEntries: 1000 });
    store.advance('quiet', 1, Date.now()); // never moves again, so it stays at the front of the queue
    for (let i = 0; i < 10_000; i++) store.advance('busy', i, Date.now()); // warm up
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 10_000; i < 1_000_000; i++) store.advance('busy', i, Date.now());
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(2 * 1024 * 1024);
    expect(store.advance('busy', 999_999, Date.now())).toBe(true);
    expect(store.advance('quiet', 0, Date.now())).toBe(false);
  });
});

/** A full garbage collection, without starting node with --expose-gc. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
