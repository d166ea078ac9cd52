// Ingress with a payload reader whose code loads on first use (why a payload is invalid, a custom
// body's keys): the wait for the load is bounded by the delivery's deadline like every other wait.
// Fake clock: what is checked is the order of events, not the machine's speed.
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { Deadline, DeadlineExceededError } from '../../../src/webhooks/deadline.js';
import { admit, type IngressRules } from '../../../src/webhooks/ingress.js';
import { type ReadResult } from '../../../src/webhooks/kinds.js';
import { leaveFakeClock } from '../../helpers.js';

const rules = (read: IngressRules['read']): IngressRules => ({ secret: undefined, maxBodyBytes: 1024, read });
const accepted: ReadResult = {
  ok: true,
  event: { event_id: 'e1', event_type: 'i_new', event_time: 1 } as never,
  keys: { eventId: 'e1', eventType: 'i_new', eventTime: 1, scope: undefined },
};

describe('admit, with a reader that is still loading', () => {
  it('waits for it within the deadline, and rejects naming the wait once the deadline passed', async () => {
    vi.useFakeTimers();
    onTestFinished(leaveFakeClock);
    const deadline = new Deadline(100);
    const admitting = admit(
      rules(() => new Promise<ReadResult>(() => {})),
      undefined,
      { form: 'parsed', value: {} },
      deadline,
    );
    expect(admitting).toBeInstanceOf(Promise);
    const outcome = Promise.resolve(admitting).then(
      () => 'admitted',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(99);
    await vi.advanceTimersByTimeAsync(20);
    const error = await outcome;
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as Error).message).toMatch(/loading the payload reader/);
    deadline.dispose();
  });

  it('admits once it has loaded, from raw bytes as from a parsed body', async () => {
    const deadline = new Deadline(1000);
    const loading = () => Promise.resolve(accepted);
    const headers = { 'content-type': 'application/json' };
    await expect(admit(rules(loading), headers, { form: 'raw', value: '{}' }, deadline)).resolves.toMatchObject({
      ok: true,
      keys: { eventId: 'e1' },
    });
    await expect(admit(rules(loading), undefined, { form: 'parsed', value: {} }, deadline)).resolves.toMatchObject({
      ok: true,
    });
    deadline.dispose();
  });
});
