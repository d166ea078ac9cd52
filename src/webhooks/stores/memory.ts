// One process's memory: a Map in insertion order is both the index and the eviction queue, so
// every operation is O(1) and the size never passes `maxEntries`, however many ids stream by.

import { type Claim, claimToken, type StateStore } from './store.js';

/** Options of {@link MemoryStateStore}. */
export interface MemoryStateStoreOptions {
  /** Event ids remembered at most (and, separately, incidents' watermarks). Default 100 000. */
  maxEntries?: number;
  /** How long a processed id is remembered, in ms. Default 24 h. */
  ttlMs?: number;
}

interface Entry {
  /** The claim's token while pending; `undefined` once done. */
  token: string | undefined;
  expiresAt: number;
}

/** Dedup and staleness state in this process's memory: bounded by `maxEntries`, O(1) per operation. */
export class MemoryStateStore implements StateStore {
  readonly maxEntries: number;
  readonly ttlMs: number;
  readonly #events = new Map<string, Entry>();
  readonly #watermarks = new Map<string, { time: number; expiresAt: number }>();

  constructor(options: MemoryStateStoreOptions = {}) {
    this.maxEntries = positive(options.maxEntries ?? 100_000, 'maxEntries');
    this.ttlMs = positive(options.ttlMs ?? 86_400_000, 'ttlMs');
  }

  /** Event ids held now (pending and done). */
  get size(): number {
    return this.#events.size;
  }

  async claim(eventId: string, leaseMs: number): Promise<Claim> {
    const now = Date.now();
    const entry = this.#events.get(eventId);
    if (entry && entry.expiresAt > now) return entry.token === undefined ? { status: 'done' } : { status: 'pending' };
    const token = claimToken();
    this.#put(this.#events, eventId, { token, expiresAt: now + leaseMs });
    return { status: 'claimed', token };
  }

  async complete(eventId: string, token: string): Promise<void> {
    const entry = this.#events.get(eventId);
    if (entry && entry.token !== token) return; // the lease lapsed and someone else holds it now
    this.#put(this.#events, eventId, { token: undefined, expiresAt: Date.now() + this.ttlMs });
  }

  async release(eventId: string, token: string): Promise<void> {
    if (this.#events.get(eventId)?.token === token) this.#events.delete(eventId);
  }

  async advance(incidentId: string, eventTime: number): Promise<boolean> {
    const now = Date.now();
    const current = this.#watermarks.get(incidentId);
    if (current && current.expiresAt > now && current.time > eventTime) return false;
    const time = current && current.expiresAt > now ? Math.max(current.time, eventTime) : eventTime;
    this.#put(this.#watermarks, incidentId, { time, expiresAt: now + this.ttlMs });
    return true;
  }

  /** Re-inserts at the end (newest) and evicts from the front: expired entries first, then the oldest. */
  #put<V extends { expiresAt: number }>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
    const now = Date.now();
    for (const [oldKey, old] of map) {
      if (map.size <= this.maxEntries && old.expiresAt > now) break;
      map.delete(oldKey);
    }
  }
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name}: expected a whole number ≥ 1, got ${value}`);
  return value;
}
