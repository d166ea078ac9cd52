// The incident webhook's payload, as the spec's "Events" section and real deliveries describe it.
// Every object stays open: the sender may add fields, and a delivery carries extra IncidentInfo
// fields beyond the spec's table (account_id, assigned_to, num, responder_ids, dedup_key, …).

import type { Progress, Severity } from '../schemas/common.js';
import type { AssignedTo } from '../schemas/incident.js';

/** The event types the spec lists. More may come; receivers get those too, as `string`. */
export const WEBHOOK_EVENT_TYPES = [
  'i_new',
  'i_assign',
  'i_a_rspd',
  'i_snooze',
  'i_wake',
  'i_ack',
  'i_unack',
  'i_storm',
  'i_custom',
  'i_rslv',
  'i_reopen',
  'i_merge',
  'i_comm',
  'i_r_title',
  'i_r_desc',
  'i_r_impact',
  'i_r_rc',
  'i_r_rsltn',
  'i_r_severity',
  'i_r_field',
] as const;

/** The alert webhook's event types (new alert, updated by a new event, merged into an incident, closed). */
export const ALERT_EVENT_TYPES = ['a_new', 'a_update', 'a_merge', 'a_close'] as const;

/** An event type of the spec. */
export type KnownWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** An event type: one of the spec's, or one added later. */
export type WebhookEventType = KnownWebhookEventType | (string & {});

/** A member who acted, or who is referenced. */
export interface Person {
  person_id: number;
  person_name: string;
  email: string;
  [field: string]: unknown;
}

/** A responder of the incident, as webhooks carry it. */
export interface WebhookResponder {
  person_id: number;
  person_name: string;
  email: string;
  /** Unix seconds. */
  assigned_at?: number;
  /** Unix seconds; 0 if not acknowledged. */
  acknowledged_at?: number;
  [field: string]: unknown;
}

/** The incident in a delivery: always the latest full state, whatever the event. Times are Unix seconds. */
export interface WebhookIncident {
  incident_id: string;
  title: string;
  description?: string;
  impact?: string;
  root_cause?: string;
  resolution?: string;
  incident_severity: Severity;
  /** Derived from the alerts' states. */
  incident_status: Severity;
  progress: Progress;
  created_at: number;
  updated_at: number;
  /** Trigger time. */
  start_time: number;
  /** Latest event time of the alerts; 0 by default. */
  last_time?: number;
  /** Recovery time; 0 by default. */
  end_time?: number;
  /** Earliest acknowledgement; 0 by default. */
  ack_time?: number;
  /** Closing time; 0 by default. */
  close_time?: number;
  /** Snooze end. */
  snoozed_before?: number;
  /** Absent for manual incidents; the first alert's labels otherwise. */
  labels?: Record<string, string>;
  /** Custom fields; value types depend on the field type. */
  fields?: Record<string, unknown>;
  /** Present only for manually created incidents. */
  creator?: Person;
  /** Present only for manually closed incidents. */
  closer?: Person;
  /** Present after assignment; may be empty for i_new. */
  responders?: WebhookResponder[];
  alert_cnt?: number;
  /** 0 means no channel. */
  channel_id?: number;
  channel_name?: string;
  /** Detail page address. */
  detail_url: string;
  /** `n` none, `p` by rule, `i` smart. */
  group_method?: 'n' | 'p' | 'i' | (string & {});
  account_id?: number;
  account_name?: string;
  assigned_to?: AssignedTo;
  creator_id?: number;
  data_source_id?: number;
  dedup_key?: string;
  equals_md5?: string;
  num?: string;
  responder_ids?: number[];
  [field: string]: unknown;
}

/** One delivery of the incident webhook for event type `T`. */
export interface WebhookEventOf<T extends string> {
  /** Event id: the same event may be delivered again after a time-out; deduplicate on it. */
  event_id: string;
  /** Milliseconds since the epoch (unlike the incident's second-based times). */
  event_time: number;
  event_type: T;
  /** The operator; present only for human actions. */
  person?: Person;
  incident: WebhookIncident;
  [field: string]: unknown;
}

/** A delivery of one of the spec's event types. */
export type KnownWebhookEvent = { [T in KnownWebhookEventType]: WebhookEventOf<T> }[KnownWebhookEventType];

/**
 * Every delivery, discriminated on `event_type`. The list of types may grow, so the union stays
 * open: a type added later arrives with `event_type` as a plain string.
 */
export type WebhookEvent = KnownWebhookEvent | WebhookEventOf<string & {}>;

/** The payload for a given event type name, known or not. */
export type WebhookEventFor<T extends string> = T extends KnownWebhookEventType ? WebhookEventOf<T> : WebhookEventOf<string>;
