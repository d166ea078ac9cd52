// What the receiver remembers between deliveries, behind one interface so that one process
// (MemoryStateStore) and many replicas (RedisStateStore) follow the same rules.

/** The answer to "may I process this event?". */
export type Claim =
  /** Yours: run the handlers, then `complete` or `release` with this token. */
  | { status: 'claimed'; token: string }
  /** Already processed (or dropped as stale): a duplicate. */
  | { status: 'done' }
  /** Another delivery is processing it right now. */
  | { status: 'pending' };

/**
 * Where the receiver remembers event ids and incidents' watermarks. Implement it to keep the state
 * elsewhere. Each method may answer at once (as MemoryStateStore does, which spares the receiver a
 * microtask per step) or with a promise (as RedisStateStore does).
 */
export interface StateStore {
  /**
   * Takes the event for processing, unless it is done or pending; a claim lapses after `leaseMs`.
   * With `token`, a pending claim made with the same token is taken again (a queue job that runs
   * again after its worker died holds its own claim); without, a fresh token is made.
   */
  claim(eventId: string, leaseMs: number, token?: string): Claim | Promise<Claim>;
  /** The handlers ran: later deliveries of the id are duplicates (for the store's TTL). */
  complete(eventId: string, token: string): void | Promise<void>;
  /** The handlers failed: the next delivery of the id processes it. Only the claim's holder can release it. */
  release(eventId: string, token: string): void | Promise<void>;
  /**
   * Moves the watermark of `scope` (`incident:<id>`, `alert:<id>`) to `eventTime` (ms) unless a
   * later event was already accepted there; `false` means this event is stale. Equal times are not
   * stale.
   */
  advance(scope: string, eventTime: number): boolean | Promise<boolean>;
  /**
   * Optional: `claim`, then, only when claimed, `advance` of `scope`, as one step (a remote store
   * saves a round trip per delivery). `fresh` is advance's answer (false when not claimed). The
   * receiver uses it where present, else calls the two.
   */
  claimAndAdvance?(
    eventId: string,
    leaseMs: number,
    token: string | undefined,
    scope: string,
    eventTime: number,
  ): ClaimAndAdvance | Promise<ClaimAndAdvance>;
}

/** The answer of {@link StateStore.claimAndAdvance}. */
export interface ClaimAndAdvance {
  claim: Claim;
  /** Whether the event is not stale (its scope's watermark moved to it); false when not claimed. */
  fresh: boolean;
}

/** A token unique enough to tell claims apart across processes. */
export { uniqueToken as claimToken } from '../../internal/token.js';
