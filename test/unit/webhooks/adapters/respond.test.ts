// The answer every adapter sends (src/webhooks/adapters/respond.ts): a small JSON body with the
// outcome and the reason of a rejection, and nothing else of the result (the error on this side
// never leaves); an answer given before the body was read whole (401, 413, 415, 503) closes the
// connection, any other keeps it.
import { describe, expect, it } from 'vitest';
import { buildWebhookEvent } from '../../../../src/testing/index.js';
import { answerBody, answeredEarly, answerHeaders, UNRECORDED } from '../../../../src/webhooks/adapters/respond.js';
import type { ReceiveResult } from '../../../../src/webhooks/receiver.js';

describe('answerBody', () => {
  it('gives the fixed body of each plain outcome', () => {
    expect(answerBody({ status: 200, outcome: 'accepted' })).toBe('{"outcome":"accepted"}');
    expect(answerBody({ status: 200, outcome: 'duplicate' })).toBe('{"outcome":"duplicate"}');
    expect(answerBody({ status: 200, outcome: 'stale' })).toBe('{"outcome":"stale"}');
  });

  it('includes the reason of a rejection, as JSON', () => {
    expect(answerBody({ status: 400, outcome: 'rejected', reason: 'event_id: expected a string' })).toBe(
      '{"outcome":"rejected","reason":"event_id: expected a string"}',
    );
    const awkward = 'incident.title: "quoted" \\ and\nnewline';
    expect(JSON.parse(answerBody({ status: 400, outcome: 'rejected', reason: awkward }))).toEqual({
      outcome: 'rejected',
      reason: awkward,
    });
  });

  it('leaves out everything else of the result: the error on this side and the event', () => {
    const event = buildWebhookEvent('i_ack');
    const failed: ReceiveResult = {
      status: 500,
      outcome: 'rejected',
      reason: 'handler failed',
      event,
      error: new Error('password=hunter2 at db.internal:5432'),
    };
    expect(JSON.parse(answerBody(failed))).toEqual({ outcome: 'rejected', reason: 'handler failed' });
    expect(answerBody(failed)).not.toContain('hunter2');
    const unrecorded: ReceiveResult = {
      status: UNRECORDED,
      outcome: 'rejected',
      reason: 'not recorded',
      event,
      error: new Error('store down'),
    };
    expect(answerBody(unrecorded)).toBe('{"outcome":"rejected","reason":"not recorded"}');
    expect(answerBody({ status: 200, outcome: 'accepted', event, error: new Error('x') })).toBe(
      '{"outcome":"accepted"}',
    );
  });
});

describe('answerHeaders and answeredEarly', () => {
  it('close the connection after 401, 413, 415 and 503: the rest of the body may still be coming', () => {
    expect(UNRECORDED).toBe(503);
    for (const status of [401, 413, 415, 503]) {
      expect([status, answeredEarly(status)]).toEqual([status, true]);
      expect(answerHeaders({ status, outcome: 'rejected', reason: 'x' })).toEqual({
        'Content-Type': 'application/json',
        Connection: 'close',
      });
    }
  });

  it('keep the connection after 200, 400 and 500: the body was read whole', () => {
    for (const [status, outcome] of [
      [200, 'accepted'],
      [200, 'duplicate'],
      [400, 'rejected'],
      [500, 'rejected'],
    ] as const) {
      expect([status, answeredEarly(status)]).toEqual([status, false]);
      expect(answerHeaders({ status, outcome })).toEqual({ 'Content-Type': 'application/json' });
    }
    for (const status of [204, 402, 404, 412, 414, 416, 502, 504]) {
      expect([status, answeredEarly(status)]).toEqual([status, false]);
    }
  });
});
