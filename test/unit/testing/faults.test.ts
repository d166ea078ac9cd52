// Faults queued for the next calls: in the order added, each for its path (or any), `times` calls.
import { describe, expect, it } from 'vitest';
import { FaultQueue } from '../../../src/testing/faults.js';

describe('FaultQueue', () => {
  it('plays each fault on as many matching calls as it says, in the order added', () => {
    const faults = new FaultQueue();
    faults.add({ path: '/incident/list', code: 'InternalError', times: 2 });
    faults.add({ status: 503 });
    expect(faults.pending).toBe(3);
    expect(faults.take('/channel/list')).toMatchObject({ status: 503 }); // the first fault is not for this path
    expect(faults.take('/channel/list')).toBeUndefined();
    expect(faults.take('/incident/list')).toMatchObject({ code: 'InternalError' });
    expect(faults.take('/incident/list')).toMatchObject({ code: 'InternalError' });
    expect(faults.take('/incident/list')).toBeUndefined();
    expect(faults.pending).toBe(0);
  });

  it('is emptied by clear', () => {
    const faults = new FaultQueue();
    faults.add({ drop: true, times: 5 });
    faults.clear();
    expect(faults.pending).toBe(0);
    expect(faults.take('/x')).toBeUndefined();
  });
});
