// Incidents as the API returns them. The types are the generated OpenAPI's (src/generated/openapi.ts),
// narrowed only where ours say more: enums stay open (`Known | (string & {})`, the server may add
// values) and `images` may be `null` (real responses send it). Each zod/mini schema below states its
// type's every field again, for runtime checks; `Agrees` makes the typecheck fail when the two drift.
import * as z from 'zod/mini';
import type { components } from '../generated/openapi.js';
import type { AlertInfo } from './alert.js';
import { AlertInfoSchema } from './alert.js';
import type { Agrees, Progress, Severity } from './common.js';
import { anyMap, bool, hexId, int, ints, labels, loose, opt, openEnum, str, strs } from './common.js';

/**
 * A member reference.
 *
 * @interface
 */
export type PersonShort = components['schemas']['PersonShort'];

/**
 * A current responder of an incident.
 *
 * @interface
 */
export type Responder = components['schemas']['Responder'];

/** Assignment target of an incident; at least one of `person_ids` and `escalate_rule_id` is set. */
export interface AssignedTo extends Omit<components['schemas']['AssignedTo'], 'type'> {
  /** `assign` direct, `reassign` reassignment, `escalate` policy-driven, `reopen` automatic on reopening. */
  type?: 'assign' | 'reassign' | 'escalate' | 'reopen' | (string & {});
}

/**
 * An attached image.
 *
 * @interface
 */
export type Image = components['schemas']['Image'];

/** A link integration configured on the channel. */
export interface LinkItem extends Omit<components['schemas']['LinkItem'], 'open_type'> {
  /** How the link opens. */
  open_type: 'popup' | 'tab' | (string & {});
}

/** An incident: a group of alerts being handled. Times are Unix seconds. */
export interface IncidentInfo extends Omit<
  components['schemas']['IncidentInfo'],
  | 'incident_status'
  | 'incident_severity'
  | 'progress'
  | 'frequency'
  | 'group_method'
  | 'assigned_to'
  | 'alerts'
  | 'links'
  | 'images'
> {
  /** Current status, derived from the states of the merged alerts. */
  incident_status: Severity;
  /** Configured severity. */
  incident_severity: Severity;
  /** Handling progress. */
  progress: Progress;
  /** Frequency bucket. */
  frequency?: 'frequent' | 'rare' | (string & {});
  /** Alert grouping: `i` smart, `p` rule-based, `n` none. */
  group_method: 'i' | 'p' | 'n' | (string & {});
  /** Assignment target. */
  assigned_to: AssignedTo;
  /** Related alerts; filled only in notification templates and custom actions. */
  alerts?: AlertInfo[];
  /** Link integrations configured on the channel. */
  links?: LinkItem[];
  /** Attached images; real responses send `null` when there are none. */
  images: Image[] | null;
}

/** zod/mini schema of {@link PersonShort} (unknown fields kept). */
export const PersonShortSchema: z.ZodMiniType<PersonShort> = /* @__PURE__ */ (() => {
  const schema = loose({
    person_id: opt(int),
    person_name: opt(str),
    email: opt(str),
    as: opt(str),
  });
  return schema satisfies Agrees<typeof schema, PersonShort>;
})();

/** zod/mini schema of {@link Responder}. */
export const ResponderSchema: z.ZodMiniType<Responder> = /* @__PURE__ */ (() => {
  const schema = loose({
    person_id: int,
    assigned_at: int,
    acknowledged_at: int,
    person_name: opt(str),
    email: opt(str),
    as: opt(str),
  });
  return schema satisfies Agrees<typeof schema, Responder>;
})();

/** zod/mini schema of {@link AssignedTo}. */
export const AssignedToSchema: z.ZodMiniType<AssignedTo> = /* @__PURE__ */ (() => {
  const schema = loose({
    person_ids: opt(ints),
    escalate_rule_id: opt(str),
    layer_idx: opt(int),
    type: opt(openEnum),
    emails: opt(strs),
    escalate_rule_name: opt(str),
    assigned_at: opt(int),
    id: opt(str),
  });
  return schema satisfies Agrees<typeof schema, AssignedTo>;
})();

/** zod/mini schema of {@link Image}. */
export const ImageSchema: z.ZodMiniType<Image> = /* @__PURE__ */ (() => {
  const schema = loose({ src: str, href: opt(str), alt: opt(str) });
  return schema satisfies Agrees<typeof schema, Image>;
})();

/** zod/mini schema of {@link LinkItem}. */
export const LinkItemSchema: z.ZodMiniType<LinkItem> = /* @__PURE__ */ (() => {
  const schema = loose({
    name: str,
    endpoint: str,
    open_type: openEnum,
  });
  return schema satisfies Agrees<typeof schema, LinkItem>;
})();

/** zod/mini schema of {@link IncidentInfo}: every required field typed, enums open, unknown fields kept. */
export const IncidentInfoSchema: z.ZodMiniType<IncidentInfo> = /* @__PURE__ */ (() => {
  const schema = loose({
    incident_id: hexId,
    account_id: int,
    channel_id: int,
    integration_id: int,
    integration_ids: ints,
    integration_types: strs,
    dedup_key: str,
    equals_md5: str,
    start_time: int,
    end_time: int,
    last_time: int,
    ack_time: int,
    close_time: int,
    creator_id: int,
    closer_id: int,
    owner_id: int,
    incident_status: openEnum,
    incident_severity: openEnum,
    progress: openEnum,
    title: str,
    description: str,
    ai_summary: str,
    impact: str,
    root_cause: str,
    resolution: str,
    num: str,
    frequency: opt(openEnum),
    deleted_at: opt(int),
    created_at: int,
    updated_at: int,
    snoozed_before: int,
    group_method: openEnum,
    ever_muted: bool,
    labels,
    fields: anyMap,
    assigned_to: AssignedToSchema,
    reporter_email: opt(str),
    alert_cnt: int,
    active_alert_cnt: int,
    alert_event_cnt: int,
    alerts: opt(z.array(AlertInfoSchema)),
    closer: opt(PersonShortSchema),
    creator: opt(PersonShortSchema),
    owner: opt(PersonShortSchema),
    responders: z.array(ResponderSchema),
    account_name: str,
    account_locale: str,
    account_time_zone: str,
    channel_name: str,
    channel_status: str,
    detail_url: str,
    silence_url: str,
    links: opt(z.array(LinkItemSchema)),
    integration_type: opt(str),
    post_mortem_id: str,
    images: z.nullable(z.array(ImageSchema)),
    manual_overrides: strs,
    data_source_id: opt(int),
    data_source_ids: opt(ints),
    data_source_type: opt(str),
    data_source_types: opt(strs),
  });
  return schema satisfies Agrees<typeof schema, IncidentInfo>;
})();
