// The receiver's default state store: a MemoryStateStore whose code loads apart, with the first
// receiver that has no store of its own (a receiver given a store never needs it). Kept out of
// store.ts so that the interface does not import an implementation of it.

import { loader, withLoaded } from '../../internal/lazy.js';
import { NOTHING } from '../../internal/maybe.js';
import type { StateStore } from './store.js';

/** MemoryStateStore's code, loaded by the first receiver that uses the default store. */
const loadMemoryStore = /* @__PURE__ */ loader(() => import('./memory.js'));

/**
 * @internal The receiver's default store: a MemoryStateStore made with the defaults, whose code
 * loads now, apart (a receiver given a store of its own never needs it); a call made before it
 * has loaded waits for it, every later one is answered at once, as the memory store answers.
 */
export function defaultStore(): StateStore {
  const store = loader(async () => new (await loadMemoryStore()).MemoryStateStore());
  store().catch(NOTHING); // a failure now is met by the first delivery, which tries again
  return {
    claim: (request) => withLoaded(store, (s) => s.claim(request)),
    complete: (eventId, token) => withLoaded(store, (s) => s.complete(eventId, token)),
    release: (eventId, token) => withLoaded(store, (s) => s.release(eventId, token)),
    advance: (scope, time, now) => withLoaded(store, (s) => s.advance(scope, time, now)),
  };
}
