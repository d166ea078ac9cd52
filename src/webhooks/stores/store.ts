// What the receiver remembers between deliveries, behind one interface so that one process
// (MemoryStateStore) and many replicas (RedisStateStore) follow the same rules:
// - An event id is claimed by one delivery (or job) at a time; a claim lapses after its lease.
// - An event is judged fresh or stale once, when it is first claimed, against its scope's watermark
//   (the newest `event_time` accepted for its incident or alert). The verdict is kept with the claim:
//   a claim released after its handlers failed, or lapsed (its process died), or taken again by the
//   job's next attempt, is fresh when claimed again, so an accepted event is never dropped as stale
//   on its retry; the claimant is told whether a newer event was accepted meanwhile (`superseded`).
// - A stale event is recorded as such by the claim that judged it: its retries are told it is stale
//   (a job run again after its worker died tells its listeners again).
// - The watermark never moves past the receiver's clock (`now`): an event dated in the future moves
//   it only to the present, so it cannot make the present's events stale.

/** What the receiver asks for when an event arrives. */
export interface ClaimRequest {
  eventId: string;
  /** How long the claim holds before another delivery may take it over (a crashed process). */
  leaseMs: number;
  /** A claim made with this token is taken again (a job's next attempt); without, a fresh token is made. */
  token?: string | undefined;
  /** Where staleness is judged (`incident:<id>`, `alert:<id>`); `undefined`: never stale. */
  scope?: string | undefined;
  /** The event's time (Unix ms). */
  eventTime: number;
  /** The receiver's clock (Unix ms): a watermark never moves past it. */
  now: number;
  /**
   * An earlier claim judged the event fresh (a job's attempt after a failed one): it is claimed fresh
   * even when the store no longer holds that verdict (its TTL passed), never recorded stale;
   * `superseded` still says whether a newer event was accepted in its scope.
   */
  judgedFresh?: boolean | undefined;
}

/** What a store says to "may I process this event?". */
export type Claim =
  /**
   * Yours, and fresh: run the handlers, then `complete` or `release` with this token. `superseded`:
   * a newer event of its scope was accepted since it was judged fresh (only on a claim taken again).
   */
  | { status: 'claimed'; token: string; superseded: boolean }
  /** Older than an event already accepted in its scope: recorded, so its retries are told so too. */
  | { status: 'stale' }
  /** Already processed: a duplicate. */
  | { status: 'done' }
  /** Another delivery is processing it right now. */
  | { status: 'pending' };

/**
 * Where the receiver remembers event ids and incidents' watermarks. Implement it to keep the state
 * elsewhere. Each method may return at once (as MemoryStateStore does, which spares the receiver a
 * microtask per step) or with a promise (as RedisStateStore does).
 */
export interface StateStore {
  /**
   * Claims the event and, the first time, judges it against its scope's watermark (moving the
   * watermark to `min(eventTime, now)` when fresh). A claim made before and released, lapsed, or
   * held with the same `token`, is granted with the verdict it had: fresh.
   */
  claim(request: ClaimRequest): Claim | Promise<Claim>;
  /** The handlers ran: later deliveries of the id are duplicates (for the store's TTL). */
  complete(eventId: string, token: string): void | Promise<void>;
  /**
   * The handlers failed: the next delivery of the id claims it, fresh as judged. Only the claim's
   * holder can release it.
   */
  release(eventId: string, token: string): void | Promise<void>;
  /**
   * Judges an event that is not deduplicated (`dedup: false`): `false` when a later event was
   * already accepted in `scope`; otherwise moves the watermark to `min(eventTime, now)`. Equal
   * times are not stale.
   */
  advance(scope: string, eventTime: number, now: number): boolean | Promise<boolean>;
}

/** A token unique enough to tell claims apart across processes. */
export { uniqueToken as claimToken } from '../../internal/token.js';

// The claims besides `claimed`, shared by the stores and frozen (no caller can change
// the next one's). Marked pure: a bundle that never calls a store's claim() drops them (esbuild
// keeps a module-level call it cannot tell is pure).
/** @internal */
export const DONE: Claim = /* @__PURE__ */ Object.freeze({ status: 'done' });
/** @internal */
export const PENDING: Claim = /* @__PURE__ */ Object.freeze({ status: 'pending' });
/** @internal */
export const STALE: Claim = /* @__PURE__ */ Object.freeze({ status: 'stale' });
