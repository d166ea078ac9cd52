// The rules every StateStore keeps (src/webhooks/stores/store.ts), as one suite run against each
// store: MemoryStateStore on its own (test/unit/webhooks/stores/memory.test.ts) and RedisStateStore
// on a real redis-server, standalone with both client libraries and on a Cluster with and without a
// hash-tagged prefix. A lease lapses by the `now` each claim passes, so a lapsed lease is a later
// `now`, not a sleep.
import { describe, expect, it } from 'vitest';
import type { Claim, ClaimRequest, StateStore } from '../../src/webhooks/index.js';

/** The receivers' clock in these tests: the wall clock when the suite starts (a TTL runs by the store's own). */
const NOW = Date.now();
const LEASE_MS = 10_000;

let serial = 0;
/** A name not used before in this process: each test's own ids and scopes. */
const unique = (what: string) => `${what}-${++serial}-${Math.random().toString(36).slice(2, 8)}`;

/** Claims `eventId` at `now` (+ `at` ms), as the receiver does. */
function claimOf(store: StateStore, request: Partial<ClaimRequest> & { eventId: string }): Promise<Claim> {
  return Promise.resolve(store.claim({ leaseMs: LEASE_MS, eventTime: NOW - 60_000, now: NOW, ...request }));
}

/** The suite, for the store `make()` gives (one store per describe; keys never repeat across tests). */
export function describeStateStore(name: string, make: () => StateStore): void {
  describe(`${name}: the StateStore rules`, () => {
    const store = make();
    const claim = (request: Partial<ClaimRequest> & { eventId: string }) => claimOf(store, request);

    it('claims once: pending for others, done after completion; only the holder releases', async () => {
      const eventId = unique('once');
      const first = await claim({ eventId });
      expect(first).toMatchObject({ status: 'claimed', superseded: false });
      if (first.status !== 'claimed') return;
      expect(await claim({ eventId })).toEqual({ status: 'pending' });
      await store.release(eventId, 'not-the-token');
      expect(await claim({ eventId })).toEqual({ status: 'pending' });
      await store.release(eventId, first.token);
      const second = await claim({ eventId });
      expect(second.status).toBe('claimed');
      if (second.status === 'claimed') await store.complete(eventId, second.token);
      expect(await claim({ eventId })).toEqual({ status: 'done' });
    });

    it('gives one claim to 50 concurrent callers', async () => {
      const eventId = unique('race');
      const claims = await Promise.all(Array.from({ length: 50 }, () => claim({ eventId })));
      expect(claims.filter((c) => c.status === 'claimed')).toHaveLength(1);
      expect(claims.filter((c) => c.status === 'pending')).toHaveLength(49);
    });

    it('lets a lapsed lease be taken over; the old holder can no longer complete it', async () => {
      const eventId = unique('lapsed');
      const old = await claim({ eventId, leaseMs: 50 });
      expect(await claim({ eventId, now: NOW + 49 })).toEqual({ status: 'pending' });
      const taken = await claim({ eventId, now: NOW + 50 });
      expect(taken.status).toBe('claimed');
      if (old.status === 'claimed') await store.complete(eventId, old.token);
      expect(await claim({ eventId, now: NOW + 60 })).toEqual({ status: 'pending' });
    });

    it("takes a pending claim again with the holder's own token (a job's next attempt)", async () => {
      const eventId = unique('token');
      expect(await claim({ eventId, token: 'job-1' })).toMatchObject({ status: 'claimed', token: 'job-1' });
      expect(await claim({ eventId, token: 'job-2' })).toEqual({ status: 'pending' });
      expect(await claim({ eventId, token: 'job-1' })).toMatchObject({ status: 'claimed', token: 'job-1' });
    });

    it('claims fresh what the claimant says was judged fresh before, even with its verdict gone (a job retried after the TTL)', async () => {
      const scope = `incident:${unique('inc')}`;
      expect(await claim({ eventId: unique('newer'), scope, eventTime: NOW - 1_000 })).toMatchObject({
        status: 'claimed',
      });
      // An id this store no longer holds (its TTL passed), older than the watermark: judged anew, stale...
      expect(await claim({ eventId: unique('forgotten'), scope, eventTime: NOW - 2_000 })).toEqual({ status: 'stale' });
      // ...unless an earlier claim judged it fresh: claimed, told a newer event was accepted meanwhile.
      const retried = unique('retried');
      const claimed = await claim({ eventId: retried, scope, eventTime: NOW - 2_000, token: 'job', judgedFresh: true });
      expect(claimed).toEqual({ status: 'claimed', token: 'job', superseded: true });
      // Its release keeps it fresh, as any claim judged fresh.
      await store.release(retried, 'job');
      expect(await claim({ eventId: retried, scope, eventTime: NOW - 2_000, token: 'job' })).toMatchObject({
        status: 'claimed',
      });
    });

    it('judges an event older than its scope’s watermark stale once, and records it so: its retries are stale too', async () => {
      const scope = `incident:${unique('inc')}`;
      const newer = unique('newer');
      const older = unique('older');
      expect(await claim({ eventId: newer, scope, eventTime: NOW - 1_000 })).toMatchObject({ status: 'claimed' });
      expect(await claim({ eventId: older, scope, eventTime: NOW - 2_000 })).toEqual({ status: 'stale' });
      expect(await claim({ eventId: older, scope, eventTime: NOW - 2_000, token: 'job' })).toEqual({ status: 'stale' });
      // Equal times are not stale.
      expect(await claim({ eventId: unique('equal'), scope, eventTime: NOW - 1_000 })).toMatchObject({
        status: 'claimed',
        superseded: false,
      });
      // A pending or done event moves no watermark: an older one is still judged against the first.
      expect(await claim({ eventId: newer, scope, eventTime: NOW })).toEqual({ status: 'pending' });
      expect(await claim({ eventId: unique('between'), scope, eventTime: NOW - 500 })).toMatchObject({
        status: 'claimed',
      });
    });

    it('keeps a fresh verdict through a release: claimed again, told a newer event came meanwhile', async () => {
      const scope = `incident:${unique('inc')}`;
      const first = unique('i_new');
      const claimed = await claim({ eventId: first, scope, eventTime: NOW - 2_000 });
      if (claimed.status !== 'claimed') throw new Error(`expected a claim, got ${claimed.status}`);
      await store.release(first, claimed.token); // its handlers failed
      const ack = await claim({ eventId: unique('i_ack'), scope, eventTime: NOW - 1_700 });
      expect(ack).toMatchObject({ status: 'claimed', superseded: false });
      // The retry (a replay, a BullMQ attempt): fresh as first judged, and superseded.
      expect(await claim({ eventId: first, scope, eventTime: NOW - 2_000 })).toMatchObject({
        status: 'claimed',
        superseded: true,
      });
    });

    it('keeps a fresh verdict through a lapsed lease and through its own token', async () => {
      const scope = `incident:${unique('inc')}`;
      const crashed = unique('crashed');
      await claim({ eventId: crashed, scope, eventTime: NOW - 2_000, leaseMs: 100 });
      await claim({ eventId: unique('later'), scope, eventTime: NOW - 1_000 });
      expect(await claim({ eventId: crashed, scope, eventTime: NOW - 2_000, now: NOW + 100 })).toMatchObject({
        status: 'claimed',
        superseded: true,
      });
      const job = unique('job');
      await claim({ eventId: job, scope, eventTime: NOW - 900, token: job });
      await claim({ eventId: unique('later'), scope, eventTime: NOW - 800 });
      expect(await claim({ eventId: job, scope, eventTime: NOW - 900, token: job })).toMatchObject({
        status: 'claimed',
        superseded: true,
      });
      // Not superseded when nothing newer came.
      const alone = unique('alone');
      const first = await claim({ eventId: alone, scope: `incident:${unique('inc')}`, eventTime: NOW });
      if (first.status !== 'claimed') throw new Error('expected a claim');
      await store.release(alone, first.token);
      expect(await claim({ eventId: alone, scope: `incident:${unique('x')}`, eventTime: NOW })).toMatchObject({
        status: 'claimed',
        superseded: false,
      });
    });

    it('moves a watermark no further than the present: an event dated ahead cannot make the present stale', async () => {
      const scope = `incident:${unique('inc')}`;
      const ahead = await claim({ eventId: unique('ahead'), scope, eventTime: NOW + 290_000 });
      expect(ahead.status).toBe('claimed');
      // Ten seconds later, an event of that moment is fresh.
      expect(
        await claim({ eventId: unique('present'), scope, eventTime: NOW + 10_000, now: NOW + 10_000 }),
      ).toMatchObject({
        status: 'claimed',
      });
      // Still stale: an event from before the watermark (the present when it moved).
      expect(await claim({ eventId: unique('past'), scope, eventTime: NOW - 1, now: NOW + 10_000 })).toEqual({
        status: 'stale',
      });
    });

    it('advance (no dedup): older is stale, equal is not, and never past the present', async () => {
      const scope = `incident:${unique('inc')}`;
      expect(await store.advance(scope, 2_000, NOW)).toBe(true);
      expect(await store.advance(scope, 1_000, NOW)).toBe(false);
      expect(await store.advance(scope, 2_000, NOW)).toBe(true);
      expect(await store.advance(scope, NOW - 123, NOW)).toBe(true);
      expect(await store.advance(scope, NOW - 124, NOW)).toBe(false);
      const future = `incident:${unique('inc')}`;
      expect(await store.advance(future, NOW + 60_000, NOW)).toBe(true);
      expect(await store.advance(future, NOW + 1, NOW + 1)).toBe(true);
      expect(await store.advance(future, NOW - 1, NOW + 1)).toBe(false);
    });
  });
}
