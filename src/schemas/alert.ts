// Alerts and their raw events as the API returns them: the generated OpenAPI types, narrowed where
// ours say more (open enums, `images` that may be `null`), each with a zod/mini schema that
// `Agrees` keeps in step with its type (see incident.ts).
import * as z from 'zod/mini';
import type { components } from '../generated/openapi.js';
import type { Agrees, Progress, Severity } from './common.js';
import { bool, hexId, int, labels, loose, opt, openEnum, str } from './common.js';

/**
 * An image attached to an alert or event.
 *
 * @interface
 */
export type AlertImage = components['schemas']['AlertImage'];

/** Brief reference to the incident an alert was merged into. */
export interface IncidentShort extends Omit<components['schemas']['IncidentShort'], 'progress'> {
  /** Incident progress. */
  progress?: Progress;
}

/** A raw event of an alert. Every field is optional. Times are Unix seconds. */
export interface AlertEventItem extends Omit<
  components['schemas']['AlertEventItem'],
  'event_severity' | 'event_status' | 'images'
> {
  /** Severity of this event. */
  event_severity?: Severity;
  /** Status of this event. */
  event_status?: Severity;
  /** Images attached to the event; may be `null`. */
  images?: AlertImage[] | null;
}

/** An alert merged into an incident. Times are Unix seconds. */
export interface AlertInfo extends Omit<
  components['schemas']['AlertInfo'],
  'alert_severity' | 'alert_status' | 'incident' | 'events' | 'images'
> {
  /** Current severity. */
  alert_severity: Severity;
  /** Current status. */
  alert_status: Severity;
  /** Incident the alert was merged into. */
  incident?: IncidentShort;
  /** Raw events, returned when explicitly requested. */
  events?: AlertEventItem[];
  /** Attached images; may be `null`. */
  images: AlertImage[] | null;
}

/** zod/mini schema of {@link AlertImage}. */
export const AlertImageSchema: z.ZodMiniType<AlertImage> = /* @__PURE__ */ (() => {
  const schema = loose({
    src: str,
    href: opt(str),
    alt: opt(str),
  });
  return schema satisfies Agrees<typeof schema, AlertImage>;
})();

/** zod/mini schema of {@link IncidentShort}. */
export const IncidentShortSchema: z.ZodMiniType<IncidentShort> = /* @__PURE__ */ (() => {
  const schema = loose({
    incident_id: opt(str),
    title: opt(str),
    progress: opt(openEnum),
  });
  return schema satisfies Agrees<typeof schema, IncidentShort>;
})();

const alertImages = /* @__PURE__ */ (() => z.nullable(z.array(AlertImageSchema)))();

/** zod/mini schema of {@link AlertEventItem}. */
export const AlertEventItemSchema: z.ZodMiniType<AlertEventItem> = /* @__PURE__ */ (() => {
  const schema = loose({
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
  });
  return schema satisfies Agrees<typeof schema, AlertEventItem>;
})();

/** zod/mini schema of {@link AlertInfo}. */
export const AlertInfoSchema: z.ZodMiniType<AlertInfo> = /* @__PURE__ */ (() => {
  const schema = loose({
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
  });
  return schema satisfies Agrees<typeof schema, AlertInfo>;
})();
