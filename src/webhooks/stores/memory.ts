// One process's memory. Processed ids live in a Map of id → expiry beside a FIFO queue of the
// same ids, oldest first: every operation is O(1), the size never passes `maxEntries`, and an
// entry is one number. (Evicting by iterating the Map from its front would not be O(1): V8 leaves
// deleted slots at the front until the table is rebuilt, and iteration walks over every one.)
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
  /** Processed ids → expiry (Unix ms). */
  readonly #done: ExpiringMap<true>;
  /** Ids being processed → their claim. */
  readonly #pending = new Map<string, { token: string; expiresAt: number }>();
  /** Incident id → latest accepted event_time. */
  readonly #watermarks: ExpiringMap<number>;

  constructor(options: MemoryStateStoreOptions = {}) {
    this.maxEntries = positive(options.maxEntries ?? 100_000, 'maxEntries');
    this.ttlMs = positive(options.ttlMs ?? 86_400_000, 'ttlMs');
    this.#done = new ExpiringMap(this.maxEntries, this.ttlMs, false);
    this.#watermarks = new ExpiringMap(this.maxEntries, this.ttlMs, true);
  }

  /** Event ids held now (pending and done). */
  get size(): number {
    return this.#done.size + this.#pending.size;
  }


  async claim(eventId: string, leaseMs: number): Promise<Claim> {
    const now = Date.now();
    if (this.#done.has(eventId, now)) return { status: 'done' };
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
    this.#done.set(eventId, true, Date.now());
  }

  async release(eventId: string, token: string): Promise<void> {
    if (this.#pending.get(eventId)?.token === token) this.#pending.delete(eventId);
  }

  async advance(incidentId: string, eventTime: number): Promise<boolean> {
    const now = Date.now();
    const current = this.#watermarks.get(incidentId, now);
    if (current !== undefined && current > eventTime) return false;
    this.#watermarks.set(incidentId, current === undefined ? eventTime : Math.max(current, eventTime), now);
    return true;
  }

  /** More claims than entries means leases were abandoned: drop the lapsed ones (rare, so a full pass is fine). */
  #evictPending(now: number): void {
    for (const [id, claim] of this.#pending) if (claim.expiresAt <= now) this.#pending.delete(id);
    for (const id of this.#pending.keys()) {
      if (this.#pending.size <= this.maxEntries) break;
      this.#pending.delete(id);
    }
  }
}

/**
 * Keys that expire after `ttlMs`, the oldest going first beyond `max`, each with an optional value.
 * Expiries are plain numbers and the eviction queue is two parallel arrays: no object per key.
 */
class ExpiringMap<V> {
  readonly #expiries = new Map<string, number>();
  readonly #values = new Map<string, V>();
  /** Keys and the expiry they were set with, in the order they were set; stale ones are skipped. */
  #keys: string[] = [];
  #times: number[] = [];
  #head = 0;

  constructor(
    readonly max: number,
    readonly ttlMs: number,
    readonly keepsValues: boolean,
  ) {}

  get size(): number {
    return this.#expiries.size;
  }

  has(key: string, now: number): boolean {
    const expiresAt = this.#expiries.get(key);
    if (expiresAt === undefined) return false;
    if (expiresAt > now) return true;
    this.#delete(key);
    return false;
  }

  get(key: string, now: number): V | undefined {
    return this.has(key, now) ? this.#values.get(key) : undefined;
  }

  set(key: string, value: V, now: number): void {
    const expiresAt = now + this.ttlMs;
    this.#expiries.set(key, expiresAt);
    if (this.keepsValues) this.#values.set(key, value);
    this.#keys.push(key);
    this.#times.push(expiresAt);
    // Evict from the oldest: what expired, and what is beyond `max`.
    while (this.#head < this.#keys.length) {
      const oldest = this.#keys[this.#head] as string;
      const queued = this.#times[this.#head] as number;
      const live = this.#expiries.get(oldest);
      if (live !== undefined && live !== queued) {
        this.#head++; // set again since: a newer queue entry speaks for it
        continue;
      }
      if (live !== undefined && this.#expiries.size <= this.max && queued > now) break;
      if (live !== undefined) this.#delete(oldest);
      this.#head++;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#keys.length) {
      this.#keys = this.#keys.slice(this.#head);
      this.#times = this.#times.slice(this.#head);
      this.#head = 0;
    }
  }

  #delete(key: string): void {
    this.#expiries.delete(key);
    if (this.keepsValues) this.#values.delete(key);
  }
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name}: expected a whole number ≥ 1, got ${value}`);
  return value;
}
