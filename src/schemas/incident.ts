import * as z from 'zod/mini';
import type { AlertInfo } from './alert.js';
import { AlertInfoSchema } from './alert.js';
import type { Progress, Severity } from './common.js';
import { anyMap, bool, hexId, int, ints, labels, loose, opt, openEnum, str, strs } from './common.js';

/** A member reference. */
export interface PersonShort {
  /** Member id. */
  person_id?: number;
  /** Member display name. */
  person_name?: string;
  /** Member email address. */
  email?: string;
  /** Role label of this member in the context of the current object. */
  as?: string;
}

/** A current responder of an incident. */
export interface Responder {
  /** Member id. */
  person_id: number;
  /** Unix seconds when the member was assigned. */
  assigned_at: number;
  /** Unix seconds when the member acknowledged; 0 if not yet. */
  acknowledged_at: number;
  /** Filled by the server. */
  person_name?: string;
  /** Filled by the server. */
  email?: string;
  /** Role label. */
  as?: string;
}

/** Assignment target of an incident; at least one of `person_ids` and `escalate_rule_id` is set. */
export interface AssignedTo {
  /** Members assigned directly (1 to 100). */
  person_ids?: number[];
  /** Id of the assignment (escalation) policy, 24 hex characters. */
  escalate_rule_id?: string;
  /** Current layer index within the policy. */
  layer_idx?: number;
  /** `assign` direct, `reassign` reassignment, `escalate` policy-driven, `reopen` automatic on reopening. */
  type?: 'assign' | 'reassign' | 'escalate' | 'reopen' | (string & {});
  /** Mail recipients for external systems (1 to 100). */
  emails?: string[];
  /** Policy name, filled by the server. */
  escalate_rule_name?: string;
  /** Unix seconds of the assignment. */
  assigned_at?: number;
  /** Server-generated assignment id. */
  id?: string;
}

/** An attached image. */
export interface Image {
  /** An upload token starting with `img_`, or an http(s) URL. */
  src: string;
  /** Link target when clicked. */
  href?: string;
  /** Alternative text. */
  alt?: string;
}

/** A link integration configured on the channel. */
export interface LinkItem {
  /** Display name. */
  name: string;
  /** Rendered URL. */
  endpoint: string;
  /** How the link opens. */
  open_type: 'popup' | 'tab' | (string & {});
}

/** An incident: a group of alerts being handled. Times are Unix seconds. */
export interface IncidentInfo {
  /** Incident id, 24 hex characters. */
  incident_id: string;
  /** Owning account. */
  account_id: number;
  /** Channel (collaboration space) id; 0 for a standalone incident. */
  channel_id: number;
  /** First integration linked to the incident. */
  integration_id: number;
  /** All integrations that contributed alerts. */
  integration_ids: number[];
  /** Types of those integrations. */
  integration_types: string[];
  /** Deduplication key used when merging alerts. */
  dedup_key: string;
  /** MD5 hash used for content comparison. */
  equals_md5: string;
  /** Start of the incident. */
  start_time: number;
  /** Recovery time; 0 while active. */
  end_time: number;
  /** Last update. */
  last_time: number;
  /** Earliest acknowledgement; 0 if none. */
  ack_time: number;
  /** Time progress became `Closed`; 0 while open. Closing does not recover an incident. */
  close_time: number;
  /** Creator member id; 0 when created automatically. */
  creator_id: number;
  /** Closer member id; 0 when closed automatically. */
  closer_id: number;
  /** Primary owner member id; 0 if none. */
  owner_id: number;
  /** Current status, derived from the states of the merged alerts. */
  incident_status: Severity;
  /** Configured severity. */
  incident_severity: Severity;
  /** Handling progress. */
  progress: Progress;
  title: string;
  description: string;
  /** AI-generated summary. */
  ai_summary: string;
  impact: string;
  /** Root cause analysis. */
  root_cause: string;
  /** Resolution notes. */
  resolution: string;
  /** Short identifier; may repeat across incidents. */
  num: string;
  /** Frequency bucket. */
  frequency?: 'frequent' | 'rare' | (string & {});
  /** Soft-delete time; 0 when not deleted. */
  deleted_at?: number;
  created_at: number;
  updated_at: number;
  /** Notification snooze end; 0 means not snoozed. */
  snoozed_before: number;
  /** Alert grouping: `i` smart, `p` rule-based, `n` none. */
  group_method: 'i' | 'p' | 'n' | (string & {});
  /** Whether the incident was ever silenced. */
  ever_muted: boolean;
  /** Labels inherited from alerts. */
  labels: Record<string, string>;
  /** Custom field values keyed by field name. */
  fields: Record<string, unknown>;
  /** Assignment target. */
  assigned_to: AssignedTo;
  /** Reporter address when created manually. */
  reporter_email?: string;
  /** Total alerts merged into the incident. */
  alert_cnt: number;
  /** Alerts currently in Critical, Warning or Info state. */
  active_alert_cnt: number;
  /** Total raw events of all merged alerts. */
  alert_event_cnt: number;
  /** Related alerts; filled only in notification templates and custom actions. */
  alerts?: AlertInfo[];
  closer?: PersonShort;
  creator?: PersonShort;
  /** @deprecated Use `owner_id` and `responders`. */
  owner?: PersonShort;
  /** Current responders. */
  responders: Responder[];
  account_name: string;
  /** Account language. */
  account_locale: string;
  account_time_zone: string;
  channel_name: string;
  channel_status: string;
  /** Front-end detail page address. */
  detail_url: string;
  /** Quick-silence page address. */
  silence_url: string;
  /** Link integrations configured on the channel. */
  links?: LinkItem[];
  /** Integration type of the first alert. */
  integration_type?: string;
  /** Linked post-mortem report id (at most one). */
  post_mortem_id: string;
  /** Attached images; real responses send `null` when there are none. */
  images: Image[] | null;
  /** Names of fields that were overridden by hand. */
  manual_overrides: string[];
  /** @deprecated Alias of `integration_id`. */
  data_source_id?: number;
  /** @deprecated Alias of `integration_ids`. */
  data_source_ids?: number[];
  /** @deprecated Alias of `integration_type`. */
  data_source_type?: string;
  /** @deprecated Alias of `integration_types`. */
  data_source_types?: string[];
}

/** zod/mini schema of {@link PersonShort} (unknown fields kept). */
export const PersonShortSchema: z.ZodMiniType<PersonShort> = /* @__PURE__ */ (() =>
  loose({
    person_id: opt(int),
    person_name: opt(str),
    email: opt(str),
    as: opt(str),
  }))();

/** zod/mini schema of {@link Responder}. */
export const ResponderSchema: z.ZodMiniType<Responder> = /* @__PURE__ */ (() =>
  loose({
    person_id: int,
    assigned_at: int,
    acknowledged_at: int,
    person_name: opt(str),
    email: opt(str),
    as: opt(str),
  }))();

/** zod/mini schema of {@link AssignedTo}. */
export const AssignedToSchema: z.ZodMiniType<AssignedTo> = /* @__PURE__ */ (() =>
  loose({
    person_ids: opt(ints),
    escalate_rule_id: opt(str),
    layer_idx: opt(int),
    type: opt(openEnum),
    emails: opt(strs),
    escalate_rule_name: opt(str),
    assigned_at: opt(int),
    id: opt(str),
  }))();

/** zod/mini schema of {@link Image}. */
export const ImageSchema: z.ZodMiniType<Image> = /* @__PURE__ */ (() =>
  loose({ src: str, href: opt(str), alt: opt(str) }))();

/** zod/mini schema of {@link LinkItem}. */
export const LinkItemSchema: z.ZodMiniType<LinkItem> = /* @__PURE__ */ (() =>
  loose({
    name: str,
    endpoint: str,
    open_type: openEnum,
  }))();

/** zod/mini schema of {@link IncidentInfo}: every required field typed, enums open, unknown fields kept. */
export const IncidentInfoSchema: z.ZodMiniType<IncidentInfo> = /* @__PURE__ */ (() =>
  loose({
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
  }))();
