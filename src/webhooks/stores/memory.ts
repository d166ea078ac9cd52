// One process's memory. Processed ids live in a Map of id → expiry, in insertion order, which is
// both the index and the eviction queue: every operation is O(1), the size never passes
// `maxEntries`, and an entry is one number (no object per id, so a full store churns little garbage).
// Claims being processed are kept apart: there are only as many as deliveries in flight.

import { type Claim, claimToken, type StateStore } from './store.js';

/** Options of {@link MemoryStateStore}. */
export interface MemoryStateStoreOptions {
  /** Event ids remembered at most (and, separately, incidents' watermarks). Default 100 000. */
  maxEntries?: number;
  /** How long a processed id is remembered, in ms. Default 24 h. */
  ttlMs?: number;
}

/** Dedup and staleness state in this process's memory: bounded by `maxEntries`, O(1) per operation. */
export class MemoryStateStore implements StateStore {
  readonly maxEntries: number;
  readonly ttlMs: number;
  /** Processed ids → expiry (Unix ms), oldest first. */
  readonly #done = new Map<string, number>();
  /** Ids being processed → their claim. */
  readonly #pending = new Map<string, { token: string; expiresAt: number }>();
  /** Incident id → latest accepted event_time; and its expiry. */
  readonly #watermarks = new Map<string, { time: number; expiresAt: number }>();

  constructor(options: MemoryStateStoreOptions = {}) {
    this.maxEntries = positive(options.maxEntries ?? 100_000, 'maxEntries');
    this.ttlMs = positive(options.ttlMs ?? 86_400_000, 'ttlMs');
  }

  /** Event ids held now (pending and done). */
  get size(): number {
    return this.#done.size + this.#pending.size;
  }

  async claim(eventId: string, leaseMs: number): Promise<Claim> {
    const now = Date.now();
    const doneUntil = this.#done.get(eventId);
    if (doneUntil !== undefined) {
      if (doneUntil > now) return { status: 'done' };
      this.#done.delete(eventId);
    }
    const pending = this.#pending.get(eventId);
    if (pending && pending.expiresAt > now) return { status: 'pending' };
    const token = claimToken();
    this.#pending.set(eventId, { token, expiresAt: now + leaseMs });
    if (this.#pending.size > this.maxEntries) this.#evictPending(now);
    return { status: 'claimed', token };
  }

  async complete(eventId: string, token: string): Promise<void> {
    const pending = this.#pending.get(eventId);
    if (pending && pending.token !== token) return; // the lease lapsed and someone else holds it now
    this.#pending.delete(eventId);
    const now = Date.now();
    this.#done.delete(eventId);
    this.#done.set(eventId, now + this.ttlMs);
    evict(this.#done, this.maxEntries, now, (expiresAt) => expiresAt);
  }

  async release(eventId: string, token: string): Promise<void> {
    if (this.#pending.get(eventId)?.token === token) this.#pending.delete(eventId);
  }

  async advance(incidentId: string, eventTime: number): Promise<boolean> {
    const now = Date.now();
    const current = this.#watermarks.get(incidentId);
    const live = current !== undefined && current.expiresAt > now;
    if (live && current.time > eventTime) return false;
    this.#watermarks.delete(incidentId);
    this.#watermarks.set(incidentId, { time: live ? Math.max(current.time, eventTime) : eventTime, expiresAt: now + this.ttlMs });
    evict(this.#watermarks, this.maxEntries, now, (w) => w.expiresAt);
    return true;
  }

  /** More claims than entries means leases were abandoned: drop the lapsed ones, then the oldest. */
  #evictPending(now: number): void {
    for (const [id, claim] of this.#pending) if (claim.expiresAt <= now) this.#pending.delete(id);
    evict(this.#pending, this.maxEntries, now, (c) => c.expiresAt);
  }
}

/** Drops from the front (oldest): expired entries, and any beyond `max`. */
function evict<V>(map: Map<string, V>, max: number, now: number, expiry: (value: V) => number): void {
  for (const [key, value] of map) {
    if (map.size <= max && expiry(value) > now) return;
    map.delete(key);
  }
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name}: expected a whole number ≥ 1, got ${value}`);
  return value;
}
