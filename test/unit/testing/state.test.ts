// What the mock remembers: the call log, bounded to its most recent calls; request ids unique per
// call, in the 32-hex form of the service's; the same seed the same world and the same ids.
import { describe, expect, it } from 'vitest';
import { mockState } from './support.js';

describe('MockState', () => {
  it('keeps the most recent 20 000 calls, oldest first', () => {
    const state = mockState();
    for (let i = 0; i < 20_005; i++)
      state.recordCall({ time: i, path: '/x', key_name: undefined, status: 200, request_id: String(i) });
    expect(state.callLog).toHaveLength(20_000);
    expect(state.callLog[0]?.request_id).toBe('5');
    expect(state.callLog.at(-1)?.request_id).toBe('20004');
  });

  it('gives each call its own request id, the same sequence for the same seed', () => {
    const [a, b, c] = [mockState(), mockState(), mockState({ seed: 2 })];
    const ids = Array.from({ length: 50 }, () => a.nextRequestId());
    expect(new Set(ids).size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(b.nextRequestId()).toBe(ids[0]);
    expect(c.nextRequestId()).not.toBe(ids[0]);
    expect(b.world).toEqual(a.world);
  });
});
