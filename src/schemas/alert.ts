import * as z from 'zod/mini';
import type { Progress, Severity } from './common.js';
import { bool, hexId, int, labels, loose, opt, openEnum, str } from './common.js';

/** An image attached to an alert or event. */
export interface AlertImage {
  /** Image URL, or an internal reference starting with `img_`. */
  src: string;
  /** Link target when clicked. */
  href?: string;
  /** Alternative text. */
  alt?: string;
}

/** Brief reference to the incident an alert was merged into. */
export interface IncidentShort {
  /** Incident id (hex ObjectID). */
  incident_id?: string;
  title?: string;
  progress?: Progress;
}

/** A raw event of an alert. Every field is optional. Times are Unix seconds. */
export interface AlertEventItem {
  /** Event id, 24 hex characters. */
  event_id?: string;
  /** Parent alert id. */
  alert_id?: string;
  account_id?: number;
  /** Channel the event was routed to. */
  channel_id?: number;
  /** Integration that produced it. */
  integration_id?: number;
  /** Integration type or plugin key. */
  integration_type?: string;
  /** @deprecated Alias of `integration_id`. */
  data_source_id?: number;
  title?: string;
  /** Template deriving the title from labels. */
  title_rule?: string;
  description?: string;
  /** Deduplication key. */
  alert_key?: string;
  event_severity?: Severity;
  event_status?: Severity;
  /** Event time in seconds. */
  event_time?: number;
  labels?: Record<string, string>;
  images?: AlertImage[] | null;
  created_at?: number;
  updated_at?: number;
  /** Soft-delete time; 0 if not deleted. */
  deleted_at?: number;
}

/** An alert merged into an incident. Times are Unix seconds. */
export interface AlertInfo {
  /** Alert id, 24 hex characters. */
  alert_id: string;
  /** Integration that produced the alert. */
  integration_id: number;
  /** @deprecated Alias of `integration_id`. */
  data_source_id: number;
  channel_id: number;
  account_id: number;
  description: string;
  title: string;
  /** Title generation rule. */
  title_rule: string;
  /** Deduplication key used to merge events. */
  alert_key: string;
  /** Current severity. */
  alert_severity: Severity;
  /** Current status. */
  alert_status: Severity;
  /** First trigger. */
  start_time: number;
  /** Latest event. */
  last_time: number;
  /** Recovery; 0 while active. */
  end_time: number;
  labels: Record<string, string>;
  /** Ever silenced. */
  ever_muted: boolean;
  /** Soft-delete time; 0 if not deleted. */
  deleted_at?: number;
  created_at: number;
  updated_at: number;
  integration_name: string;
  integration_type: string;
  integration_ref_id: string;
  channel_name: string;
  channel_status: string;
  /** Primary responder name. */
  responder_name: string;
  /** Primary responder email. */
  responder_email: string;
  /** Incident the alert was merged into. */
  incident?: IncidentShort;
  /** Raw events, returned when explicitly requested. */
  events?: AlertEventItem[];
  /** Raw events merged into the alert. */
  event_cnt: number;
  images: AlertImage[] | null;
  /** @deprecated Alias of `integration_name`. */
  data_source_name: string;
  /** @deprecated Alias of `integration_type`. */
  data_source_type?: string;
  /** @deprecated Alias of `integration_ref_id`. */
  data_source_ref_id: string;
}

/** zod/mini schema of {@link AlertImage}. */
export const AlertImageSchema: z.ZodMiniType<AlertImage> = /* @__PURE__ */ (() =>
  loose({
    src: str,
    href: opt(str),
    alt: opt(str),
  }))();

/** zod/mini schema of {@link IncidentShort}. */
export const IncidentShortSchema: z.ZodMiniType<IncidentShort> = /* @__PURE__ */ (() =>
  loose({
    incident_id: opt(str),
    title: opt(str),
    progress: opt(openEnum),
  }))();

const alertImages = /* @__PURE__ */ (() => z.nullable(z.array(AlertImageSchema)))();

/** zod/mini schema of {@link AlertEventItem}. */
export const AlertEventItemSchema: z.ZodMiniType<AlertEventItem> = /* @__PURE__ */ (() =>
  loose({
    event_id: opt(hexId),
    alert_id: opt(hexId),
    account_id: opt(int),
    channel_id: opt(int),
    integration_id: opt(int),
    integration_type: opt(str),
    data_source_id: opt(int),
    title: opt(str),
    title_rule: opt(str),
    description: opt(str),
    alert_key: opt(str),
    event_severity: opt(openEnum),
    event_status: opt(openEnum),
    event_time: opt(int),
    labels: opt(labels),
    images: opt(alertImages),
    created_at: opt(int),
    updated_at: opt(int),
    deleted_at: opt(int),
  }))();

/** zod/mini schema of {@link AlertInfo}. */
export const AlertInfoSchema: z.ZodMiniType<AlertInfo> = /* @__PURE__ */ (() =>
  loose({
    alert_id: hexId,
    integration_id: int,
    data_source_id: int,
    channel_id: int,
    account_id: int,
    description: str,
    title: str,
    title_rule: str,
    alert_key: str,
    alert_severity: openEnum,
    alert_status: openEnum,
    start_time: int,
    last_time: int,
    end_time: int,
    labels,
    ever_muted: bool,
    deleted_at: opt(int),
    created_at: int,
    updated_at: int,
    integration_name: str,
    integration_type: str,
    integration_ref_id: str,
    channel_name: str,
    channel_status: str,
    responder_name: str,
    responder_email: str,
    incident: opt(IncidentShortSchema),
    events: opt(z.array(AlertEventItemSchema)),
    event_cnt: int,
    images: alertImages,
    data_source_name: str,
    data_source_type: opt(str),
    data_source_ref_id: str,
  }))();
