// The default payloads the mock's sender posts, one builder per kind: incident events, custom
// actions (the vendor's example places `event_id` inside `incident` and adds `event_detail`) and
// alert events (the alert webhook's Alert table, from the model's AlertInfo).

import type { IncidentInfo } from '../schemas/incident.js';
import type {
  AlertEventType,
  AlertWebhookEventOf,
  IncidentWebhookEventOf,
  KnownWebhookEventType,
  Person,
  WebhookAlert,
  WebhookIncident,
} from '../webhooks/types.js';
import type { AlertEvent } from './model/alert-actions.js';

/** What every builder takes: the event's common fields. */
interface Common {
  event_type: string;
  person?: { person_id: number; person_name: string; email: string };
  /** Unix ms. */
  at: number;
}

/** A payload of the incident webhook. */
export function incidentPayload(
  event: Common,
  eventId: string,
  incident: WebhookIncident,
): IncidentWebhookEventOf<KnownWebhookEventType> {
  return {
    event_id: eventId,
    event_time: event.at,
    event_type: event.event_type as KnownWebhookEventType,
    ...(event.person ? { person: { ...event.person } } : {}),
    incident,
  };
}

/**
 * A custom action's payload: `event_detail` names the integration, and `event_id` sits inside
 * `incident`, as in the vendor's custom-action example.
 */
export function customActionPayload(
  event: Common,
  eventId: string,
  incident: WebhookIncident,
  integration: { id: unknown; name: string },
): Record<string, unknown> {
  return {
    event_detail: { integration_id: integration.id, integration_name: integration.name },
    event_time: event.at,
    event_type: 'i_custom',
    ...(event.person ? { person: { ...event.person } } : {}),
    incident: { ...incident, event_id: eventId },
  };
}

/** A payload of the alert webhook. */
export function alertPayload(event: AlertEvent, eventId: string): AlertWebhookEventOf<AlertEventType> {
  return {
    event_id: eventId,
    event_time: event.at,
    event_type: event.event_type,
    ...(event.person ? { person: { ...event.person } } : {}),
    alert: toWebhookAlert(event),
  };
}

/** The alert as alert-webhook deliveries carry it. */
export function toWebhookAlert({ alert, progress, close_time }: AlertEvent): WebhookAlert {
  return {
    alert_id: alert.alert_id,
    alert_key: alert.alert_key,
    alert_severity: alert.alert_severity,
    alert_status: alert.alert_status,
    channel_id: alert.channel_id,
    channel_name: alert.channel_name,
    close_time,
    created_at: alert.created_at,
    data_source_id: alert.integration_id,
    data_source_name: alert.integration_name,
    data_source_ref_id: alert.integration_ref_id,
    data_source_type: alert.integration_type,
    description: alert.description,
    end_time: alert.end_time,
    event_cnt: alert.event_cnt,
    ...(alert.incident?.incident_id
      ? { incident: { incident_id: alert.incident.incident_id, title: alert.incident.title ?? '' } }
      : {}),
    labels: { ...alert.labels },
    last_time: alert.last_time,
    progress,
    start_time: alert.start_time,
    title: alert.title,
    title_rule: alert.title_rule,
    updated_at: alert.updated_at,
  };
}

/** The incident as deliveries carry it: the spec's Incident table plus the IncidentInfo extras real deliveries have. */
export function toWebhookIncident(info: IncidentInfo): WebhookIncident {
  const person = (p: { person_id?: number; person_name?: string; email?: string } | undefined): Person | undefined =>
    p?.person_id ? { person_id: p.person_id, person_name: p.person_name ?? '', email: p.email ?? '' } : undefined;
  const creator = info.creator_id ? person(info.creator) : undefined;
  const closer = info.closer_id ? person(info.closer) : undefined;
  return {
    incident_id: info.incident_id,
    title: info.title,
    description: info.description,
    impact: info.impact,
    root_cause: info.root_cause,
    resolution: info.resolution,
    incident_severity: info.incident_severity,
    incident_status: info.incident_status,
    progress: info.progress,
    created_at: info.created_at,
    updated_at: info.updated_at,
    start_time: info.start_time,
    last_time: info.last_time,
    end_time: info.end_time,
    ack_time: info.ack_time,
    close_time: info.close_time,
    snoozed_before: info.snoozed_before,
    ...(creator ? {} : { labels: { ...info.labels } }),
    fields: structuredClone(info.fields),
    ...(creator ? { creator } : {}),
    ...(closer ? { closer } : {}),
    responders: info.responders.map((r) => ({
      person_id: r.person_id,
      person_name: r.person_name ?? '',
      email: r.email ?? '',
      assigned_at: r.assigned_at,
      acknowledged_at: r.acknowledged_at,
    })),
    alert_cnt: info.alert_cnt,
    channel_id: info.channel_id,
    channel_name: info.channel_name,
    detail_url: info.detail_url,
    group_method: info.group_method,
    account_id: info.account_id,
    account_name: info.account_name,
    assigned_to: structuredClone(info.assigned_to),
    creator_id: info.creator_id,
    data_source_id: info.integration_id,
    dedup_key: info.dedup_key,
    equals_md5: info.equals_md5,
    num: info.num,
    responder_ids: info.responders.map((r) => r.person_id),
  };
}
