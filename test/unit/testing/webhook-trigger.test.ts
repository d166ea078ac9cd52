// Deliveries of an event type on demand, made by the mock's own actions and sent by its own sender
// (posts recorded, no socket): every event type the trigger knows is delivered as itself, `count`
// fresh events, `duplicate` sends of one event id, `reorder` one incident's events newest first; an
// unknown type, or reorder with events of no incident, refused.
import { describe, expect, it } from 'vitest';
import { createMockServiceWith } from '../../../src/testing/service.js';
import { trigger, TRIGGER_EVENT_TYPES, triggerDeliveries } from '../../../src/testing/webhook-trigger.js';
import { NOW_MS, recordingPost } from './support.js';

const ENDPOINT = 'http://receiver.test/hooks';

function mock() {
  const post = recordingPost();
  const service = createMockServiceWith({ now: NOW_MS, incidents: 5, rateLimits: false }, { post });
  return { service, post };
}

describe('trigger', () => {
  it('delivers every event type it knows as itself, once each', async () => {
    const { service } = mock();
    for (const eventType of TRIGGER_EVENT_TYPES) {
      const records = await triggerDeliveries(service, { eventType, endpoint: ENDPOINT });
      expect(
        records.map((record) => record.event_type),
        eventType,
      ).toEqual([eventType]);
      expect(records[0]?.status).toBe('success');
    }
    expect(TRIGGER_EVENT_TYPES).toEqual(expect.arrayContaining(['i_new', 'i_custom', 'a_new', 'a_merge']));
    expect(service.webhooks.list()).toEqual([]); // each integration made for its deliveries only
  });

  it('sends count fresh events, each duplicate times with its one event id, oldest first', async () => {
    const { service, post } = mock();
    const records = await triggerDeliveries(service, {
      eventType: 'i_ack',
      endpoint: ENDPOINT,
      count: 2,
      duplicate: 3,
      headers: { 'X-Secret': 's' },
    });
    expect(records).toHaveLength(6);
    const ids = records.map((record) => record.event_id);
    expect(new Set(ids).size).toBe(2);
    expect(ids.slice(0, 3).every((id) => id === ids[0])).toBe(true);
    expect(post.requests.every((request) => request.headers['X-Secret'] === 's')).toBe(true);
  });

  it.each(['i_new', 'a_new'])(
    'keeps runs apart: each delivers its own %s events, another starting while it sends',
    async (eventType) => {
      // A receiver that takes a moment: one run still sends while the other makes its events.
      const post = recordingPost();
      const slow: typeof post = Object.assign(
        async (request: Parameters<typeof post>[0]) => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return post(request);
        },
        { requests: post.requests },
      );
      const service = createMockServiceWith({ now: NOW_MS, incidents: 5, rateLimits: false }, { post: slow });
      const first = triggerDeliveries(service, { eventType, endpoint: 'http://a.test/hooks', count: 4 });
      await new Promise((resolve) => setTimeout(resolve, 30)); // the first run is sending now
      const second = triggerDeliveries(service, { eventType, endpoint: 'http://b.test/hooks', count: 4 });
      const runs = await Promise.all([first, second]);
      expect(runs.map((records) => records.length)).toEqual([4, 4]);
      const about = (records: (typeof runs)[number]) => records.map((r) => r.incident_id || r.alert_id);
      const [a, b] = runs.map(about) as [string[], string[]];
      expect(new Set([...a, ...b]).size).toBe(8); // no event of one run delivered by the other
      expect(post.requests).toHaveLength(8);
    },
  );

  it('reorders one incident’s events: made in the order given, delivered newest first', async () => {
    const { service } = mock();
    const records = await triggerDeliveries(service, {
      eventType: 'i_new',
      eventTypes: ['i_new', 'i_ack', 'i_rslv'],
      endpoint: ENDPOINT,
      reorder: true,
    });
    expect(records.map((record) => record.event_type)).toEqual(['i_rslv', 'i_ack', 'i_new']);
    expect(new Set(records.map((record) => record.incident_id)).size).toBe(1);
    const times = records.map((record) => record.trigger_time);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(times).size).toBe(3);
  });

  it('keeps the integration for the caller to remove, with its history', async () => {
    const { service } = mock();
    const { integration, records } = await trigger(service, { eventType: 'i_new', endpoint: ENDPOINT });
    expect(service.webhooks.history(integration)).toEqual([...records].reverse());
  });

  it('refuses an unknown event type, and reorder of events of no incident', async () => {
    const { service } = mock();
    await expect(trigger(service, { eventType: 'i_nope', endpoint: ENDPOINT })).rejects.toThrow(
      /^trigger: unknown event type "i_nope"; one of i_new, /,
    );
    await expect(
      trigger(service, { eventType: 'i_new', eventTypes: ['i_new', 'a_new'], endpoint: ENDPOINT, reorder: true }),
    ).rejects.toThrow("trigger: reorder makes one incident's events; a_new is not an incident event");
  });
});
