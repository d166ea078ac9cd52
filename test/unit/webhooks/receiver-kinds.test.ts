// The receiver with every kind: alert events (staleness per alert, apart from incidents), custom
// actions (id inside incident, answered within the 1 s their sender waits), kinds added later
// (dedup, no staleness), and custom bodies (keys where the template put them, 'event' handlers only).
import { describe, expect, it, vi } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import {
  CustomBodyError,
  CustomBodyEvent,
  renderCustomBody,
  type WebhookEvent,
  WebhookReceiver,
} from '../../../src/webhooks/index.js';
import alertExample from '../../fixtures/alert-webhook.example.json' with { type: 'json' };
import customAction from '../../fixtures/custom-action.example.json' with { type: 'json' };
import vendorTemplate from '../../fixtures/incident-webhook.custom-body-template.example.json' with { type: 'json' };
import { leaveFakeClock, receive } from '../../helpers.js';
const alertEvent = (type: string, eventId: string, eventTime: number, alertId = alertExample.alert.alert_id) => ({
  ...structuredClone(alertExample),
  event_type: type,
  event_id: eventId,
  event_time: eventTime,
  alert: { ...alertExample.alert, alert_id: alertId },
});

describe('WebhookReceiver with every kind', () => {
  it('handles alert events: typed handlers, dedup, staleness per alert apart from incidents', async () => {
    const receiver = new WebhookReceiver();
    const typed: string[] = [];
    receiver.on('a_update', (event) => void typed.push(`${event.event_type} ${event.alert.alert_id}`));
    const t = 1_700_000_000_000;
    expect((await receive(receiver, alertEvent('a_update', 'e2', t + 10))).outcome).toBe('accepted');
    expect((await receive(receiver, alertEvent('a_update', 'e2', t + 10))).outcome).toBe('duplicate');
    expect((await receive(receiver, alertEvent('a_new', 'e1', t))).outcome).toBe('stale');
    expect((await receive(receiver, alertEvent('a_new', 'e3', t, 'another-alert'))).outcome).toBe('accepted');
    // An incident whose id equals the alert's is another scope.
    const incident = buildWebhookEvent('i_new', {
      event_time: t,
      incident: { incident_id: alertExample.alert.alert_id },
    });
    expect((await receive(receiver, incident)).outcome).toBe('accepted');
    expect(typed).toEqual(['a_update 645c3affd2b92d989a0bd824']);
  });

  it('refuses a bad alert event with 400 naming the path', async () => {
    const result = await receive(new WebhookReceiver(), {
      ...alertEvent('a_new', 'e', Date.now()),
      alert: { ...alertExample.alert, last_time: 'now' },
    });
    expect(result).toMatchObject({ status: 400, outcome: 'rejected' });
    expect(result.reason).toContain('at alert.last_time:');
  });

  it('handles a custom action whose event_id sits inside incident, once, and answers within 900 ms', async () => {
    vi.useFakeTimers(); // the clock the deadline reads and the handler's wait: no real time passes
    try {
      const receiver = new WebhookReceiver({ ackTimeoutMs: 1500 });
      const { event_id, ...rest } = structuredClone(customAction);
      const body = { ...rest, incident: { ...rest.incident, event_id } };
      const got: string[] = [];
      let handlerDone = false;
      receiver.on('i_custom', async (event) => {
        got.push(`${event.event_id} ${event.event_detail?.integration_name}`);
        await new Promise((resolve) => setTimeout(resolve, 1200)); // slower than the 1 s the sender waits, faster than ackTimeoutMs
        handlerDone = true;
      });
      let answered = false;
      const answering = receive(receiver, body).finally(() => (answered = true));
      await vi.advanceTimersByTimeAsync(880);
      expect(answered).toBe(false); // the handler still runs, the custom action's deadline not yet reached
      await vi.advanceTimersByTimeAsync(20); // deadlines pass by 10 ms buckets, never late
      expect(await answering).toMatchObject({ status: 200, outcome: 'accepted' });
      expect(handlerDone).toBe(false); // answered at the custom action's deadline, while the handler still ran
      const again = receive(receiver, body);
      await vi.advanceTimersByTimeAsync(900);
      expect((await again).outcome).toBe('duplicate');
      expect(got).toEqual([`${event_id} Restart Host`]);
    } finally {
      await leaveFakeClock();
    }
  });

  it('accepts a kind added later on "event": dedup on event_id, no staleness', async () => {
    const receiver = new WebhookReceiver();
    const seen: WebhookEvent[] = [];
    receiver.on('event', (event) => void seen.push(event));
    const change = (id: string, time: number) => ({
      event_id: id,
      event_type: 'c_new',
      event_time: time,
      change: { change_id: 'c1' },
    });
    expect((await receive(receiver, change('c2', 2000))).outcome).toBe('accepted');
    expect((await receive(receiver, change('c1', 1000))).outcome).toBe('accepted'); // older, but no scope to be stale in
    expect((await receive(receiver, change('c1', 1000))).outcome).toBe('duplicate');
    expect(seen.map((e) => e.event_id)).toEqual(['c2', 'c1']);
  });
});

describe('WebhookReceiver with a custom body', () => {
  const template = {
    id: '{{event_id}}',
    at: '{{event_time}}',
    what: '{{event_type}}',
    ref: 'incident {{incident.incident_id}}',
    title: '{{incident.title}}',
  };
  const valueMapping = { event_type: { i_new: 'opened' } };

  it('reads the keys where the template put them: dedup, staleness, and only "event" handlers', async () => {
    const receiver = new WebhookReceiver({ customBody: { template, valueMapping } });
    const seen: CustomBodyEvent[] = [];
    receiver.on('event', (event) => {
      if (event instanceof CustomBodyEvent) seen.push(event);
    });
    receiver.on('i_new', () => {
      throw new Error('a typed handler got a custom body');
    });
    const t = 1_700_000_000_000;
    const newer = buildWebhookEvent('i_ack', { event_time: t + 5, incident: { incident_id: 'inc-1' } });
    const older = buildWebhookEvent('i_new', { event_time: t, incident: { incident_id: 'inc-1' } });
    const body = renderCustomBody(template, newer, valueMapping);
    expect((await receive(receiver, body)).outcome).toBe('accepted');
    expect((await receive(receiver, body)).outcome).toBe('duplicate');
    expect((await receive(receiver, renderCustomBody(template, older, valueMapping))).outcome).toBe('stale');
    const other = buildWebhookEvent('i_new', { event_time: t, incident: { incident_id: 'inc-2' } });
    expect((await receive(receiver, renderCustomBody(template, other, valueMapping))).outcome).toBe('accepted');
    expect(seen.map((e) => [e.event_type, e.incident_id, (e.body as { what: string }).what])).toEqual([
      ['i_ack', 'inc-1', 'i_ack'],
      ['i_new', 'inc-2', 'opened'], // the handler sees the type as the payload had it, and the body as it came
    ]);
  });

  it('answers 400 naming the place for a delivery that is not the template', async () => {
    const result = await receive(new WebhookReceiver({ customBody: { template } }), { at: 1 });
    expect(result).toMatchObject({ status: 400 });
    expect(result.reason).toMatch(/at id: missing/);
  });

  it('refuses, at construction, a template without {{event_id}} unless dedup: false', async () => {
    expect(() => new WebhookReceiver({ customBody: { template: vendorTemplate } })).toThrow(CustomBodyError);
    const receiver = new WebhookReceiver({ customBody: { template: vendorTemplate }, dedup: false });
    let runs = 0;
    receiver.on('event', () => void runs++);
    const body = renderCustomBody(vendorTemplate, buildWebhookEvent('i_new'));
    expect((await receive(receiver, body)).outcome).toBe('accepted');
    expect((await receive(receiver, body)).outcome).toBe('accepted'); // no dedup key: each delivery runs
    expect(runs).toBe(2);
  });
});

describe('WebhookReceiver with a custom body and a queue', () => {
  it('queues the body as it came; processor() reads it with the same template', async () => {
    const template = {
      id: '{{event_id}}',
      at: '{{event_time}}',
      what: '{{event_type}}',
      ref: '{{incident.incident_id}}',
    };
    const jobs: Array<{ name: string; data: unknown; opts: { jobId?: string } }> = [];
    const queue = {
      add: async (name: string, data: unknown, opts: { jobId?: string }) => void jobs.push({ name, data, opts }),
    };
    const receiver = new WebhookReceiver({ customBody: { template }, queue });
    const got: WebhookEvent[] = [];
    receiver.on('event', (event) => void got.push(event));
    const event = buildWebhookEvent('i_ack');
    const body = renderCustomBody(template, event);
    expect((await receive(receiver, body)).outcome).toBe('accepted');
    expect(jobs).toEqual([{ name: 'i_ack', data: body, opts: { jobId: expect.any(String) } }]);
    await receiver.processor()({ id: jobs[0]!.opts.jobId, data: jobs[0]!.data });
    expect(got).toHaveLength(1);
    expect(got[0]).toBeInstanceOf(CustomBodyEvent);
    expect(got[0]).toMatchObject({
      event_id: event.event_id,
      event_type: 'i_ack',
      incident_id: event.incident.incident_id,
      body,
    });
  });
});
