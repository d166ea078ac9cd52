// One process's memory. Event ids and watermarks are each kept in two generations of at most
// maxEntries/2 keys and maxBytes/4 bytes: new keys go into the young one, and when it is full (or
// older than the TTL) it becomes the old one and the old one is dropped whole. Bytes are counted
// as well as keys because a key's size is the sender's choice (ids are capped at 256 characters by
// the receiver, but incident and alert ids are not). Nothing is deleted key by
// key: a V8 Map that deletes its oldest key on every insert costs several times more per delivery
// (deleted slots pile up until the table is rebuilt).
//
// An id's entry is its claim while it is processed, then the time until which it counts as done:
// one key per event, so a delivery costs three Map lookups and two stores, all but one of them on
// a key just touched. A claim never completed (a handler that hangs) goes with its generation. An
// event is judged fresh or stale once, when first claimed (store.ts): a pending claim is always of a
// fresh event (a stale one is recorded as stale at once), and a released one is marked as such, so a
// claim taken again (a retry after a failure, a lapsed lease) keeps the verdict.

import { positiveWhole } from '../../internal/options.js';
import { ConfigError } from '../../internal/flashduty-error.js';
import { type Claim, type ClaimRequest, claimToken, DONE, PENDING, STALE, type StateStore } from './store.js';

/** Options of {@link MemoryStateStore}. */
export interface MemoryStateStoreOptions {
  /**
   * Event ids held at most (and, separately, incidents' watermarks); the newest half is always
   * held, older ids are dropped half at a time. Default 100 000.
   */
  maxEntries?: number;
  /** How long a processed id (and an incident's watermark) is remembered, in ms. Default 24 h. */
  ttlMs?: number;
  /**
   * Bytes of keys held at most, counted as 2 per UTF-16 unit plus a fixed overhead per entry; half
   * for ids and half for watermarks, of which the newest half is always held. Default 64 MiB.
   */
  maxBytes?: number;
}

/** What an entry costs besides its key's characters: Map slot, value, strings' headers (measured, rounded up). */
const ENTRY_OVERHEAD_BYTES = 80;
const entryBytes = (key: string) => 2 * key.length + ENTRY_OVERHEAD_BYTES;

interface PendingClaim {
  token: string;
  expiresAt: number;
}

/** An event judged stale: until when it counts as such (Unix ms). */
interface StaleMark {
  staleUntil: number;
}

/**
 * An id being processed (its claim, of a fresh event), processed (until when it counts as done, Unix
 * ms), judged stale, or released after its handlers failed ({@link RELEASED}: fresh when claimed again).
 */
type IdEntry = PendingClaim | StaleMark | number;

interface Watermark {
  eventTime: number;
  expiresAt: number;
}

/**
 * Dedup and staleness state in this process's memory: bounded by `maxEntries`, O(1) per operation,
 * returning at once.
 */
export class MemoryStateStore implements StateStore {
  readonly maxEntries: number;
  readonly ttlMs: number;
  readonly maxBytes: number;
  /** Event ids → their claim, or until when they count as processed. */
  readonly #ids: Generations<IdEntry>;
  /** Incident (or alert) scope → latest accepted event_time. */
  readonly #watermarks: Generations<Watermark>;

  constructor(options: MemoryStateStoreOptions = {}) {
    this.maxEntries = positiveWhole(options.maxEntries ?? 100_000, 'maxEntries');
    this.ttlMs = positiveWhole(options.ttlMs ?? 86_400_000, 'ttlMs');
    this.maxBytes = positiveWhole(options.maxBytes ?? 64 * 1024 * 1024, 'maxBytes');
    if (this.maxEntries < 2) throw new ConfigError(`maxEntries: expected at least 2, got ${this.maxEntries}`);
    this.#ids = new Generations(this.maxEntries, this.maxBytes / 2, this.ttlMs);
    this.#watermarks = new Generations(this.maxEntries, this.maxBytes / 2, this.ttlMs);
  }

  /** Event ids held now (pending and done, expired ones included until their generation goes). */
  get size(): number {
    return this.#ids.size;
  }

  /** Bytes held now by keys, as counted against `maxBytes`. */
  get bytes(): number {
    return this.#ids.bytes + this.#watermarks.bytes;
  }

  claim({ eventId, leaseMs, token = claimToken(), scope, eventTime, now, judgedFresh }: ClaimRequest): Claim {
    const entry = this.#ids.get(eventId);
    // Judged before: a released claim, or a pending one (lapsed, or this token's own), or as the claimant says.
    let judged = judgedFresh === true;
    if (typeof entry === 'number') {
      if (entry > now) return DONE;
      judged = entry === RELEASED;
    } else if (entry !== undefined && 'staleUntil' in entry) {
      if (entry.staleUntil > now) return STALE;
    } else if (entry !== undefined) {
      if (entry.expiresAt > now && entry.token !== token) return PENDING;
      judged = true;
    }
    let superseded = false;
    if (scope !== undefined) {
      const fresh = this.advance(scope, eventTime, now);
      if (!fresh && !judged) {
        this.#ids.set(eventId, { staleUntil: now + this.ttlMs }, now);
        return STALE;
      }
      superseded = !fresh;
    }
    this.#ids.set(eventId, { token, expiresAt: now + leaseMs }, now);
    return { status: 'claimed', token, superseded };
  }

  complete(eventId: string, token: string): void {
    const entry = this.#ids.get(eventId);
    if (typeof entry === 'object' && 'token' in entry && entry.token !== token) return; // the lease lapsed and someone else holds it now
    const now = Date.now();
    this.#ids.set(eventId, now + this.ttlMs, now);
  }

  release(eventId: string, token: string): void {
    const entry = this.#ids.get(eventId);
    if (typeof entry === 'object' && 'token' in entry && entry.token === token)
      this.#ids.set(eventId, RELEASED, Date.now());
  }

  advance(scope: string, eventTime: number, now: number): boolean {
    const mark = this.#watermarks.get(scope);
    const current = mark !== undefined && mark.expiresAt > now ? mark.eventTime : undefined;
    if (current !== undefined && current > eventTime) return false;
    // Never past this clock; set again even when equal: an incident that keeps moving stays young.
    const moved = Math.min(eventTime, now);
    this.#watermarks.set(
      scope,
      { eventTime: current === undefined ? moved : Math.max(current, moved), expiresAt: now + this.ttlMs },
      now,
    );
    return true;
  }
}

/**
 * A released claim of an event judged fresh: "done until" long ago, so the next delivery claims it,
 * without judging it again (no delete: see above).
 */
const RELEASED = -1;

/**
 * Two Maps of at most `max / 2` keys and `maxBytes / 2` bytes each. A key set again goes into the
 * young Map (the old copy, shadowed, goes with its generation), so what keeps being set stays.
 */
class Generations<V> {
  #young = new Map<string, V>();
  #old = new Map<string, V>();
  #youngBytes = 0;
  #oldBytes = 0;
  #youngSince = Date.now();
  readonly #half: number;
  readonly #halfBytes: number;

  constructor(
    max: number,
    maxBytes: number,
    readonly ttlMs: number,
  ) {
    this.#half = Math.floor(max / 2);
    this.#halfBytes = maxBytes / 2;
  }

  get size(): number {
    return this.#young.size + this.#old.size;
  }

  get bytes(): number {
    return this.#youngBytes + this.#oldBytes;
  }

  get(key: string): V | undefined {
    const value = this.#young.get(key);
    return value !== undefined ? value : this.#old.get(key);
  }

  set(key: string, value: V, now: number): void {
    // Once the young generation is older than the TTL, everything in the old one has expired.
    if (this.#young.size >= this.#half || this.#youngBytes >= this.#halfBytes || now - this.#youngSince >= this.ttlMs) {
      this.#old = this.#young;
      this.#oldBytes = this.#youngBytes;
      this.#young = new Map();
      this.#youngBytes = 0;
      this.#youngSince = now;
    }
    const size = this.#young.size;
    this.#young.set(key, value);
    if (this.#young.size !== size) this.#youngBytes += entryBytes(key);
  }
}
