// The receiver's handler lists: typed and 'event' handlers all run, the first failure counts,
// `off` removes a handler, and a list changed during a delivery takes effect from the next one.
import { describe, expect, it } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import { WebhookReceiver } from '../../../src/webhooks/index.js';
import { receive } from '../../helpers.js';

/** A fresh event of `type` delivered to the receiver. */
const deliver = (receiver: WebhookReceiver, type: 'i_ack' | 'i_new' = 'i_ack') =>
  receive(receiver, buildWebhookEvent(type));

describe('handlers', () => {
  it('runs every handler of the type and of every event, even after one throws; the first failure answers', async () => {
    const receiver = new WebhookReceiver();
    const calls: string[] = [];
    const errors: unknown[] = [];
    receiver.on('error', (error) => errors.push(error));
    receiver.on('i_ack', () => void calls.push('typed 1'));
    receiver.on('i_ack', () => {
      calls.push('typed 2');
      throw new Error('first');
    });
    receiver.on('event', () => {
      calls.push('every');
      throw new Error('second');
    });
    receiver.on('i_new', () => void calls.push('other type'));
    const result = await deliver(receiver);
    expect(calls).toEqual(['typed 1', 'typed 2', 'every']);
    expect(result).toMatchObject({
      status: 500,
      reason: 'handler failed',
      error: expect.objectContaining({ message: 'first' }),
    });
    expect(errors).toEqual([new Error('first')]);
  });

  it('waits for async handlers: one alone (its own promise) or several, the first failure answering', async () => {
    for (const handlers of [1, 3]) {
      const receiver = new WebhookReceiver({ logger: false });
      const finished: number[] = [];
      for (let i = 0; i < handlers; i++)
        receiver.on('i_ack', async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          finished.push(i);
        });
      expect(await deliver(receiver)).toMatchObject({ status: 200, outcome: 'accepted' });
      expect(finished).toHaveLength(handlers); // answered once every handler ended

      const failing = new WebhookReceiver({ logger: false });
      for (let i = 0; i < handlers; i++)
        failing.on('i_ack', async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          throw new Error(`async ${i}`);
        });
      expect(await deliver(failing)).toMatchObject({
        status: 500,
        reason: 'handler failed',
        error: expect.objectContaining({ message: 'async 0' }),
      });
    }
  });

  it('off() removes a handler (every registration of it) and leaves the others', async () => {
    const receiver = new WebhookReceiver();
    let removed = 0;
    let kept = 0;
    const handler = () => void removed++;
    receiver
      .on('i_ack', handler)
      .on('i_ack', handler)
      .on('i_ack', () => void kept++);
    receiver.off('i_ack', handler).off('i_ack', () => {}); // a handler never added: nothing happens
    await deliver(receiver);
    expect({ removed, kept }).toEqual({ removed: 0, kept: 1 });
    receiver.off('event', handler); // a name with no handlers at all
  });

  it('a handler added or removed while a delivery runs counts from the next delivery', async () => {
    const receiver = new WebhookReceiver({ dedup: false });
    const calls: string[] = [];
    const late = () => void calls.push('late');
    const first = () => {
      calls.push('first');
      receiver.on('i_ack', late);
      receiver.off('i_ack', second);
    };
    const second = () => void calls.push('second');
    receiver.on('i_ack', first).on('i_ack', second);
    await deliver(receiver);
    expect(calls).toEqual(['first', 'second']);
    calls.length = 0;
    await deliver(receiver);
    expect(calls).toEqual(['first', 'late']);
  });
});
