// Builders for webhook tests: a payload of any event type, shaped like real deliveries, and the
// same delivery in each form an adapter takes (raw body and headers, a `Request`, `receive()` input).
// An incident the mock's actions returned (an IncidentInfo) goes into the payload as the sender
// would put it there (payloads.ts).

import type { IncidentInfo } from '../schemas/incident.js';
import type { IncidentWebhookEventOf, WebhookIncident, Person } from '../webhooks/types.js';
import { toWebhookIncident } from './payloads.js';

let sequence = 0;

const PERSON: Person = { person_id: 1552048792504, person_name: 'TouTie', email: 'toutie@flashcat.cloud' };

/** Options of {@link buildWebhookEvent}: fields of the payload to set, and of its incident. */
export interface WebhookEventOverrides {
  event_id?: string;
  /** Milliseconds. */
  event_time?: number;
  person?: Person;
  /** Fields of the incident; or a whole incident as `service.actions.*` return it. */
  incident?: Partial<WebhookIncident> | IncidentInfo;
  [field: string]: unknown;
}

/** Whether the incident given is one of the mock's (IncidentInfo, as `service.actions.*` return it). */
function isIncidentInfo(incident: Partial<WebhookIncident> | IncidentInfo): incident is IncidentInfo {
  return 'manual_overrides' in incident && 'integration_ids' in incident;
}

/**
 * A delivery payload of the given event type, with every field real deliveries carry (see the
 * documented `i_new` example). Ids are fresh for each call unless given. `incident` may be one the
 * mock's actions returned: the payload then carries it as the mock's sender would.
 */
export function buildWebhookEvent<T extends string>(
  eventType: T,
  overrides: WebhookEventOverrides = {},
): IncidentWebhookEventOf<T> {
  sequence++;
  const nowMs = overrides.event_time ?? Date.now();
  const seconds = Math.floor(nowMs / 1000);
  const given = overrides.incident;
  const incidentId =
    given?.incident_id ?? `${seconds.toString(16).padStart(8, '0')}${sequence.toString(16).padStart(16, '0')}`;
  // The mock's own incident, whole: as the sender delivers it; else the fields given over the defaults.
  const incident: WebhookIncident =
    given && isIncidentInfo(given)
      ? toWebhookIncident(given)
      : {
          account_id: 74058170041504,
          account_name: 'TouTie Tech',
          ack_time: eventType === 'i_ack' ? seconds : 0,
          alert_cnt: 1,
          assigned_to: {
            assigned_at: seconds,
            escalate_rule_id: '64abb8a687e7984845822139',
            escalate_rule_name: 'Default Escalation',
            id: 'NBRbNwDSTSMijKXdLtBU3T',
            layer_idx: 0,
            type: 'assign',
          },
          channel_id: 1840312623504,
          channel_name: 'Reduce Noise',
          close_time: eventType === 'i_rslv' ? seconds : 0,
          created_at: seconds,
          creator: { ...PERSON },
          creator_id: PERSON.person_id,
          data_source_id: 0,
          dedup_key: '',
          description: '',
          detail_url: `https://app.flashcat.cloud/incident/detail/${incidentId}`,
          end_time: 0,
          equals_md5: '',
          group_method: 'n',
          impact: '',
          incident_id: incidentId,
          incident_severity: 'Critical',
          incident_status: 'Critical',
          labels: { check: 'cpu idle low' },
          last_time: seconds,
          num: incidentId.slice(-6).toUpperCase(),
          progress: eventType === 'i_rslv' ? 'Closed' : eventType === 'i_ack' ? 'Processing' : 'Triggered',
          resolution: '',
          responder_ids: [PERSON.person_id],
          responders: [{ ...PERSON, acknowledged_at: eventType === 'i_ack' ? seconds : 0, assigned_at: seconds }],
          root_cause: '',
          snoozed_before: 0,
          start_time: seconds,
          title: 'cpu idle low on web-01',
          updated_at: seconds,
          ...given,
        };
  const { incident: _incident, ...rest } = overrides;
  return {
    event_id: `${sequence.toString(16).padStart(8, '0')}${'fac0599a2a25529ba2362c0c'}`,
    event_time: nowMs,
    event_type: eventType,
    person: { ...PERSON },
    ...rest,
    incident,
  };
}

/** Options of {@link buildDelivery}. */
export interface DeliveryOptions {
  /** Extra or replacement headers (e.g. the integration's secret header). */
  headers?: Record<string, string>;
  /** Default `application/json`; `null` sends none. */
  contentType?: string | null;
}

/** One delivery in every form: raw for node servers, a `Request` for fetch handlers, `receive()` input. */
export interface BuiltDelivery {
  /** The exact bytes the sender posts. */
  body: string;
  headers: Record<string, string>;
  /** A fresh `Request` each call (a body can be read once). */
  request(url?: string): Request;
  /** Arguments for `receiver.receive()`. */
  receiveInput(): { body: string; headers: Record<string, string> };
  /** `fetch` init for posting it to a running server. */
  init(): RequestInit;
}

/** Serializes a payload (or any body, for bad-input tests) as the sender would post it. */
export function buildDelivery(payload: unknown, options: DeliveryOptions = {}): BuiltDelivery {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  const headers: Record<string, string> = {
    ...(contentType === null ? {} : { 'content-type': contentType }),
    ...options.headers,
  };
  return {
    body,
    headers,
    request: (url = 'http://localhost/webhooks/flashduty') => new Request(url, { method: 'POST', headers, body }),
    receiveInput: () => ({ body, headers: { ...headers } }),
    init: () => ({ method: 'POST', headers, body }),
  };
}
