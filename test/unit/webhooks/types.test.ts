// Types that narrow: handlers typed per event type (incident, custom action, alert), a misspelt
// known type refused at compile time, the type guards, an exhaustive switch over the known union
// with the unknown member left for the default branch, and custom-body events by instanceof.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import {
  type AlertWebhookEvent,
  type AlertWebhookEventOf,
  type CustomActionEvent,
  CustomBodyEvent,
  type IncidentWebhookEventOf,
  isEventType,
  isKnownEvent,
  isKnownEventType,
  type KnownWebhookEvent,
  type UnknownWebhookEvent,
  type WebhookAlert,
  type WebhookEvent,
  type WebhookEventOf,
  WebhookReceiver,
} from '../../../src/webhooks/index.js';
import alertExample from '../../fixtures/alert-webhook.example.json' with { type: 'json' };

describe('webhook types', () => {
  it('type handlers per known type, incident and alert alike, and refuse a misspelt one', () => {
    const receiver = new WebhookReceiver();
    receiver.on('i_ack', (event) => {
      expectTypeOf(event).toEqualTypeOf<IncidentWebhookEventOf<'i_ack'>>();
      expectTypeOf(event.incident.incident_id).toBeString();
    });
    receiver.on('i_custom', (event) => {
      expectTypeOf(event).toEqualTypeOf<CustomActionEvent>();
      expectTypeOf(event.event_detail?.integration_name).toEqualTypeOf<string | undefined>();
    });
    receiver.on('a_new', (event) => {
      expectTypeOf(event).toEqualTypeOf<AlertWebhookEventOf<'a_new'>>();
      expectTypeOf(event.alert).toEqualTypeOf<WebhookAlert>();
      expectTypeOf(event.alert.incident?.incident_id).toEqualTypeOf<string | undefined>();
      expectTypeOf(event.incident).toEqualTypeOf<undefined>();
    });
    // @ts-expect-error a misspelt known type does not compile
    receiver.on('i_akc', () => {});
    // @ts-expect-error neither does a type this SDK does not know: those come to 'event'
    receiver.on('a_future', () => {});
    receiver.on('event', (event) => {
      expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
      expectTypeOf(event.event_id).toBeString();
      expectTypeOf(event.incident?.title).toEqualTypeOf<string | undefined>();
      expectTypeOf(event.alert?.alert_id).toEqualTypeOf<string | undefined>();
    });
    expectTypeOf<WebhookEventOf<'a_close'>>().toEqualTypeOf<AlertWebhookEventOf<'a_close'>>();
    expectTypeOf<WebhookEventOf<'x_future'>>().toEqualTypeOf<UnknownWebhookEvent>();
    expect(receiver).toBeInstanceOf(WebhookReceiver);
  });

  it('narrow with isEventType, and only to the payload of that type', () => {
    const events: WebhookEvent[] = [
      buildWebhookEvent('i_ack'),
      structuredClone(alertExample),
      buildWebhookEvent('i_future'),
    ];
    const seen: string[] = [];
    for (const event of events) {
      if (isEventType(event, 'i_ack')) {
        expectTypeOf(event.incident.ack_time).toEqualTypeOf<number | undefined>();
        seen.push(`ack ${event.incident.incident_id.length}`);
      } else if (isEventType(event, 'a_merge')) {
        expectTypeOf(event.event_type).toEqualTypeOf<'a_merge'>();
        seen.push(`merge ${event.alert.alert_id}`);
      }
      // @ts-expect-error the guard takes known types only
      isEventType(event, 'i_akc');
    }
    expect(seen).toEqual(['ack 24', 'merge 645c3affd2b92d989a0bd824']);
  });

  it('switch exhaustively over the known union; the unknown member is what is left', () => {
    const describe = (event: WebhookEvent): string => {
      if (!isKnownEvent(event)) {
        expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent | CustomBodyEvent>();
        return `other ${event.event_type}`;
      }
      expectTypeOf(event).toEqualTypeOf<KnownWebhookEvent>();
      switch (event.event_type) {
        case 'a_new':
        case 'a_update':
        case 'a_merge':
        case 'a_close':
          expectTypeOf(event).toEqualTypeOf<AlertWebhookEvent>();
          return `alert ${event.alert.alert_id}`;
        case 'i_custom':
          return `action ${event.event_detail?.integration_name ?? ''}`;
        case 'i_new':
        case 'i_assign':
        case 'i_a_rspd':
        case 'i_snooze':
        case 'i_wake':
        case 'i_ack':
        case 'i_unack':
        case 'i_storm':
        case 'i_rslv':
        case 'i_reopen':
        case 'i_merge':
        case 'i_comm':
        case 'i_r_title':
        case 'i_r_desc':
        case 'i_r_impact':
        case 'i_r_rc':
        case 'i_r_rsltn':
        case 'i_r_severity':
        case 'i_r_field':
          return `incident ${event.incident.progress}`;
        default: {
          const unreachable: never = event; // a known type left out would not compile
          return unreachable;
        }
      }
    };
    expect(describe(buildWebhookEvent('i_rslv'))).toBe('incident Closed');
    expect(describe(structuredClone(alertExample) as WebhookEvent)).toBe('alert 645c3affd2b92d989a0bd824');
    expect(
      describe(buildWebhookEvent('i_custom', { event_detail: { integration_name: 'Restart' } }) as WebhookEvent),
    ).toBe('action Restart');
    expect(describe({ event_id: 'e', event_time: 1, event_type: 'x_change' })).toBe('other x_change');
    const custom = new CustomBodyEvent({ event_id: 'e', event_time: 1, event_type: 'i_new' }, {});
    expect(describe(custom)).toBe('other i_new'); // a custom body is never taken for the default payload
    expect(isEventType(custom, 'i_new')).toBe(false);
    expect(isKnownEventType('a_close')).toBe(true);
    expect(isKnownEventType('a_closed')).toBe(false);
  });

  it('tell custom-body events apart with instanceof', () => {
    const event: WebhookEvent = new CustomBodyEvent(
      { event_id: 'e', event_time: 1, event_type: 'i_new', incident_id: 'i' },
      { any: 'shape' },
    );
    if (event instanceof CustomBodyEvent) {
      expectTypeOf(event.body).toBeUnknown();
      expectTypeOf(event.incident_id).toEqualTypeOf<string | undefined>();
      expect(event.body).toEqual({ any: 'shape' });
    } else {
      throw new Error('not narrowed');
    }
  });
});
