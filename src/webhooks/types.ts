// The webhook payloads: the incident webhook (the spec's "Events" section), custom actions and the
// alert webhook, as real deliveries describe them. Known types form closed unions, so a `switch`
// on `event_type` can be exhaustive; a type added later is the explicit unknown member.
// Every object stays open: the sender may add fields, and a delivery carries extra IncidentInfo
// fields beyond the spec's table (account_id, assigned_to, num, responder_ids, dedup_key, …).

import type { Progress, Severity } from '../schemas/common.js';
import type { AssignedTo } from '../schemas/incident.js';

/** The incident event types the spec lists. More may come; receivers get those too, as `string`. */
export const INCIDENT_EVENT_TYPES = [
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

/** An incident event type of the spec. */
export type IncidentEventType = (typeof INCIDENT_EVENT_TYPES)[number];

/** An alert event type. */
export type AlertEventType = (typeof ALERT_EVENT_TYPES)[number];

/** An event type this SDK knows: incident or alert. */
export type KnownWebhookEventType = IncidentEventType | AlertEventType;
/** An event type: one this SDK knows, or one added later. */
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

/** The alert in an alert-webhook delivery: its latest state. Times are Unix seconds. */
export interface WebhookAlert {
  alert_id: string;
  title: string;
  /** Title generation rule, e.g. `$resource::$check`. */
  title_rule?: string;
  description?: string;
  /** What events are merged into this alert by. */
  alert_key?: string;
  alert_severity: Severity;
  alert_status: Severity;
  /** `Triggered` or `Closed`. */
  progress: Progress;
  channel_id: number;
  channel_name?: string;
  created_at: number;
  updated_at: number;
  /** First event received. */
  start_time: number;
  /** Latest event received. */
  last_time: number;
  /** Recovery; 0 while active. */
  end_time?: number;
  /** Closing time (closed is not recovered); 0 by default. */
  close_time?: number;
  labels?: Record<string, string>;
  /** Raw events merged into the alert. */
  event_cnt?: number;
  /** The incident the alert is merged into, if any. */
  incident?: { incident_id: string; title?: string; [field: string]: unknown };
  /** Integration id (the vendor's older name). */
  data_source_id?: number;
  data_source_name?: string;
  data_source_type?: string;
  data_source_ref_id?: string;
  [field: string]: unknown;
}

/** What every delivery of the default payload carries, whatever its kind. */
export interface WebhookEventBase {
  /** Event id: the same event may be delivered again after a time-out; deduplicate on it. */
  event_id: string;
  /** Milliseconds since the epoch (unlike the second-based times inside). */
  event_time: number;
  /** The operator; present only for human actions. */
  person?: Person;
  [field: string]: unknown;
}

/** One delivery of the incident webhook for event type `T`. */
export interface IncidentWebhookEventOf<T extends string> extends WebhookEventBase {
  event_type: T;
  incident: WebhookIncident;
  /** Never on incident events, so `event.alert` reads as possibly undefined on any event. */
  alert?: undefined;
}

/**
 * A custom action (`i_custom`), sent by a custom-action integration (or an incident webhook
 * subscribed to `i_custom`). When the service places `event_id` inside `incident`, the receiver
 * copies it to the top, so `event_id` is always there.
 */
export interface CustomActionEvent extends IncidentWebhookEventOf<'i_custom'> {
  /** Which custom-action integration was triggered. */
  event_detail?: { integration_id?: number; integration_name?: string; [field: string]: unknown };
}

/** One delivery of the alert webhook for event type `T`. */
export interface AlertWebhookEventOf<T extends string> extends WebhookEventBase {
  event_type: T;
  alert: WebhookAlert;
  /** Never on alert events (the merged incident is `alert.incident`). */
  incident?: undefined;
}

/**
 * The payload of an event type, e.g. `WebhookEventOf<'i_ack'>` or `WebhookEventOf<'a_new'>`; a type
 * this SDK does not know gives {@link UnknownWebhookEvent}.
 */
export type WebhookEventOf<T extends string> = T extends AlertEventType
  ? AlertWebhookEventOf<T>
  : T extends 'i_custom'
    ? CustomActionEvent
    : T extends IncidentEventType
      ? IncidentWebhookEventOf<T>
      : UnknownWebhookEvent;

/** A delivery of one of the spec's incident event types (a closed union on `event_type`). */
export type IncidentWebhookEvent = { [T in IncidentEventType]: WebhookEventOf<T> }[IncidentEventType];
/** A delivery of one of the alert event types (a closed union on `event_type`). */
export type AlertWebhookEvent = { [T in AlertEventType]: AlertWebhookEventOf<T> }[AlertEventType];
/** A delivery of a type this SDK knows: a closed union, so a `switch` on `event_type` can be exhaustive. */
export type KnownWebhookEvent = IncidentWebhookEvent | AlertWebhookEvent;

/**
 * A delivery of a type this SDK does not know yet (the service adds types and kinds). It carries
 * `incident` or `alert` when it is of a known kind.
 */
export interface UnknownWebhookEvent extends WebhookEventBase {
  event_type: string;
  incident?: WebhookIncident;
  alert?: WebhookAlert;
}

/**
 * A delivery of an integration with a custom body (a receiver built with `customBody`): the body as
 * it came, and the keys read from where the template placed them. It goes to `'event'` handlers
 * only (typed handlers expect the default payload); narrow with `instanceof CustomBodyEvent`.
 */
export class CustomBodyEvent {
  /** From `{{event_id}}` (or `{{incident.event_id}}`); with `dedup: false` and neither, a fresh id per delivery. */
  declare readonly event_id: string;
  /** Milliseconds, from `{{event_time}}`; when it was received if the template has none. */
  declare readonly event_time: number;
  /** From `{{event_type}}`, as the default payload had it (value mapping undone); `''` if the template has none. */
  declare readonly event_type: string;
  /** From `{{incident.incident_id}}` (value mapping undone). */
  declare readonly incident_id?: string;
  /** From `{{alert.alert_id}}` (value mapping undone). */
  declare readonly alert_id?: string;
  /** The delivered body, exactly as it came. */
  declare readonly body: unknown;
  /** Not a default payload: no `incident` (see `incident_id`). */
  declare readonly incident?: undefined;
  /** Not a default payload: no `alert` (see `alert_id`). */
  declare readonly alert?: undefined;
  /** Not a default payload: no `person`. */
  declare readonly person?: undefined;

  // The fields are `declare`d and set by the constructor (an id left out is no property at all):
  // no field initialisers, which would cost every bundle of the receiver their names twice.
  /** @internal Built by the custom-body reader. */
  constructor(
    keys: {
      event_id: string;
      event_time: number;
      event_type: string;
      incident_id?: string | undefined;
      alert_id?: string | undefined;
    },
    body: unknown,
  ) {
    this.event_id = keys.event_id;
    this.event_time = keys.event_time;
    this.event_type = keys.event_type;
    if (keys.incident_id !== undefined) this.incident_id = keys.incident_id;
    if (keys.alert_id !== undefined) this.alert_id = keys.alert_id;
    this.body = body;
  }
}

/**
 * Every delivery: a known event, the explicit unknown member, or (receivers with `customBody`) a
 * {@link CustomBodyEvent}. Narrow with {@link isEventType} or {@link isKnownEvent}: a plain
 * `event.event_type === 'i_ack'` cannot rule out the members whose type is any string.
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent | CustomBodyEvent;

// In an IIFE marked pure: a bundle that never asks (a receiver alone) drops it, which a spread at
// the top level would not allow.
const KNOWN_TYPES: ReadonlySet<string> = /* @__PURE__ */ (() =>
  new Set<string>([...INCIDENT_EVENT_TYPES, ...ALERT_EVENT_TYPES]))();

/** Whether an event type is one this SDK knows. */
export function isKnownEventType(type: string): type is KnownWebhookEventType {
  return KNOWN_TYPES.has(type);
}

/** Narrows an event to the known union, where a `switch` on `event_type` is exhaustive. */
export function isKnownEvent(event: WebhookEvent): event is KnownWebhookEvent {
  return KNOWN_TYPES.has(event.event_type) && !(event instanceof CustomBodyEvent);
}

/**
 * Narrows an event to the payload of one known type: `if (isEventType(event, 'i_ack')) event.incident…`.
 * A misspelt type is a compile error.
 */
export function isEventType<T extends KnownWebhookEventType>(
  event: WebhookEvent,
  type: T,
): event is WebhookEventOf<T> & WebhookEvent {
  return event.event_type === type && !(event instanceof CustomBodyEvent);
}
