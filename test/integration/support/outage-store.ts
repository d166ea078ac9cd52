// A memory state store that fails every claim once it is told the store is down: a Redis outage, as
// a receiver sees it (its deliveries answered "not recorded", the sender retrying them).
import { MemoryStateStore, type StateStore } from '../../../src/webhooks/index.js';

export function storeThatGoesDown(): { store: StateStore; down: { value: boolean } } {
  const memory = new MemoryStateStore();
  const down = { value: false };
  const store: StateStore = {
    claim: (request) => (down.value ? Promise.reject(new Error('store down')) : memory.claim(request)),
    complete: (id, token) => memory.complete(id, token),
    release: (id, token) => memory.release(id, token),
    advance: (scope, time, now) => memory.advance(scope, time, now),
  };
  return { store, down };
}
