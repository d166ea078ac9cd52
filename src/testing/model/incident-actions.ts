// What people (and the platform) do to incidents, as the mock lets tests do it. Each action changes
// the incident the way the service would, adds its row to the incident's timeline (world/timeline.ts)
// and announces its event type of the spec; the webhook sender turns those announcements into
// deliveries. A member who was removed acts no more.

import type { AlertInfo } from '../../schemas/alert.js';
import type { IncidentInfo } from '../../schemas/incident.js';
import type { KnownWebhookEventType, Person } from '../../webhooks/types.js';
import type { MockClock } from '../clock.js';
import { objectId } from '../world/ids.js';
import { personOf } from '../world/people.js';
import { addRow } from '../world/timeline.js';
import { Random } from './random.js';
import { closeIncident, deriveState, type Member, type World } from './world.js';
import { FlashdutyError } from '../../internal/flashduty-error.js';

/** One thing that happened to an incident, in the order it happened. */
export interface IncidentEvent {
  event_type: KnownWebhookEventType;
  incident: IncidentInfo;
  /** The member who acted; absent for what the platform did by itself. */
  person?: Person;
  /** Unix ms by the mock's clock. */
  at: number;
  /** The custom-action integration triggered (i_custom only). */
  integration_id?: number | string;
}

/** What `actions.create` takes. */
export interface CreateIncidentParams {
  title: string;
  incident_severity: 'Critical' | 'Warning' | 'Info';
  /** 0 or absent: a standalone incident. */
  channel_id?: number;
  description?: string;
  /** Labels of the triggering alert (automatic incidents only). */
  labels?: Record<string, string>;
  /** Create by hand as this member (no alert, `creator` set); absent: created automatically from an alert. */
  person_id?: number;
  /** Members to assign right away. */
  assign_to?: number[];
}

/** The fields `update` can change, each with its event type. */
const UPDATE_EVENTS: Record<UpdatableField, KnownWebhookEventType> = {
  title: 'i_r_title',
  description: 'i_r_desc',
  impact: 'i_r_impact',
  root_cause: 'i_r_rc',
  resolution: 'i_r_rsltn',
  incident_severity: 'i_r_severity',
};
/** A field `actions.update` can change. */
export type UpdatableField = 'title' | 'description' | 'impact' | 'root_cause' | 'resolution' | 'incident_severity';

/** An action the mock cannot take (unknown incident or member, bad arguments). */
export class MockActionError extends FlashdutyError {}
MockActionError.prototype.name = 'MockActionError';

/** @internal The member with this id (not removed), or MockActionError. */
export function memberOf(world: World, personId: number): Member {
  const member = world.members.find((m) => m.person_id === personId && m.status !== 'deleted');
  if (!member) throw new MockActionError(`no member ${personId}`);
  return member;
}

/** @internal The live incident with this id (not merged away), or MockActionError. */
export function incidentOf(world: World, incidentId: string): IncidentInfo {
  const incident = world.incidents.find((i) => i.incident_id === incidentId && !i.deleted_at);
  if (!incident) throw new MockActionError(`no incident ${incidentId}`);
  return incident;
}

/** Actions on incidents, as people and the platform take them; each emits its webhook event type. */
export class IncidentActions {
  readonly #world: World;
  readonly #clock: MockClock;
  readonly #emit: (event: IncidentEvent) => void;
  readonly #random: Random;

  constructor(world: World, clock: MockClock, emit: (event: IncidentEvent) => void, seed: number) {
    this.#world = world;
    this.#clock = clock;
    this.#emit = emit;
    this.#random = new Random(seed * 101 + 3);
  }

  /** Comments by incident id, oldest first (the `i_comm` rows of their timelines). */
  get comments(): Map<string, Array<{ person_id: number; text: string; at: number }>> {
    const comments = new Map<string, Array<{ person_id: number; text: string; at: number }>>();
    for (const [id, rows] of this.#world.timelines) {
      const said = rows
        .filter((row) => row.type === 'i_comm')
        .map((row) => ({
          person_id: row.creator_id,
          text: typeof row.detail.comment === 'string' ? row.detail.comment : '',
          at: row.created_at,
        }));
      if (said.length > 0) comments.set(id, said);
    }
    return comments;
  }

  /** Creates an incident (i_new); with `assign_to`, also assigns it (i_assign). */
  async create(params: CreateIncidentParams): Promise<IncidentInfo> {
    if (typeof params?.title !== 'string' || params.title === '')
      throw new MockActionError('create: title is required');
    if (!['Critical', 'Warning', 'Info'].includes(params.incident_severity)) {
      throw new MockActionError('create: incident_severity must be Critical, Warning or Info');
    }
    const channel = params.channel_id
      ? this.#world.channels.find((c) => c.channel_id === params.channel_id)
      : undefined;
    if (params.channel_id && !channel) throw new MockActionError(`create: no channel ${params.channel_id}`);
    const creator = params.person_id === undefined ? undefined : this.#member(params.person_id);
    const now = this.#seconds();
    const incident_id = objectId(now, this.#random);
    const template = this.#world.incidents[0];
    const incident: IncidentInfo = {
      ...(template ? structuredClone(template) : ({} as IncidentInfo)),
      incident_id,
      channel_id: channel?.channel_id ?? 0,
      channel_name: channel?.channel_name ?? '',
      channel_status: channel ? 'enabled' : '',
      title: params.title,
      description: params.description ?? '',
      incident_severity: params.incident_severity,
      incident_status: params.incident_severity,
      progress: 'Triggered',
      start_time: now,
      last_time: now,
      end_time: 0,
      ack_time: 0,
      close_time: 0,
      created_at: now,
      updated_at: now,
      snoozed_before: 0,
      creator_id: creator?.person_id ?? 0,
      closer_id: 0,
      owner_id: 0,
      num: incident_id.slice(-6).toUpperCase(),
      labels: creator ? {} : (params.labels ?? { check: params.title }),
      fields: {},
      impact: '',
      root_cause: '',
      resolution: '',
      ai_summary: '',
      ever_muted: false,
      frequency: 'frequent',
      responders: [],
      assigned_to: { type: 'assign', assigned_at: now, person_ids: [], layer_idx: 0 },
      detail_url: `https://app.flashcat.cloud/incident/detail/${incident_id}`,
      silence_url: '',
      manual_overrides: [],
      images: null,
      alert_cnt: 0,
      active_alert_cnt: 0,
      alert_event_cnt: 0,
    };
    delete incident.closer;
    delete incident.creator;
    delete incident.reporter_email;
    if (creator) {
      incident.creator = personOf(creator);
      incident.reporter_email = creator.email;
    }
    const alerts: AlertInfo[] = creator ? [] : [this.#alertFor(incident)];
    for (const alert of alerts) {
      this.#world.events.set(alert.alert_id, [
        {
          event_id: objectId(now, this.#random),
          alert_id: alert.alert_id,
          channel_id: alert.channel_id,
          title: alert.title,
          event_severity: alert.alert_severity,
          event_status: alert.alert_status,
          event_time: now,
          labels: alert.labels,
        },
      ]);
    }
    incident.alert_cnt = alerts.length;
    incident.alert_event_cnt = alerts.length;
    deriveState(incident, alerts, now);
    this.#world.incidents.push(incident);
    this.#world.alerts.set(incident_id, alerts);
    this.#announce('i_new', incident, creator, {
      severity: incident.incident_severity,
      title: incident.title,
      ...(creator ? { reporter_email: creator.email } : {}),
    });
    if (params.assign_to?.length) await this.assign(incident_id, params.assign_to, params.person_id);
    return structuredClone(incident);
  }

  /** Assigns members (i_assign); they become the responders. */
  async assign(incidentId: string, personIds: number[], byPersonId?: number): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    if (!Array.isArray(personIds) || personIds.length < 1 || personIds.length > 100) {
      throw new MockActionError('assign: 1 to 100 person ids');
    }
    const now = this.#seconds();
    const members = personIds.map((id) => this.#member(id));
    const type = incident.responders.length ? 'reassign' : 'assign';
    incident.assigned_to = {
      person_ids: members.map((m) => m.person_id),
      type,
      assigned_at: now,
      layer_idx: 0,
      id: this.#random.hex(22),
    };
    incident.responders = members.map((m) => this.#responder(incident, m, now));
    incident.owner_id = members[0]?.person_id ?? 0;
    return this.#changed('i_assign', incident, byPersonId, {
      ...structuredClone(incident.assigned_to),
      to: members.map((m) => m.person_id),
    });
  }

  /** Adds a responder (i_a_rspd). */
  async addResponder(incidentId: string, personId: number, byPersonId?: number): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    const member = this.#member(personId);
    if (!incident.responders.some((r) => r.person_id === personId))
      incident.responders.push(this.#responder(incident, member, this.#seconds()));
    return this.#changed('i_a_rspd', incident, byPersonId, { to: [personId] });
  }

  /** Acknowledges as a member (i_ack): several may; `ack_time` stays the earliest. */
  async ack(incidentId: string, personId: number): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    const member = this.#member(personId);
    let responder = incident.responders.find((r) => r.person_id === personId);
    if (!responder) incident.responders.push((responder = this.#responder(incident, member, this.#seconds())));
    if (!responder.acknowledged_at) responder.acknowledged_at = this.#seconds();
    return this.#rederive('i_ack', incident, personId);
  }

  /** Withdraws a member's acknowledgement (i_unack). */
  async unack(incidentId: string, personId: number): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    for (const r of incident.responders) if (r.person_id === personId) r.acknowledged_at = 0;
    if (incident.progress === 'Processing') incident.progress = 'Triggered';
    return this.#rederive('i_unack', incident, personId);
  }

  /** Snoozes notifications for `minutes` (i_snooze). */
  async snooze(incidentId: string, minutes: number, personId: number): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    if (!(minutes > 0)) throw new MockActionError('snooze: minutes must be positive');
    incident.snoozed_before = this.#seconds() + Math.round(minutes * 60);
    return this.#changed('i_snooze', incident, personId, { minutes });
  }

  /** Cancels the snooze (i_wake). */
  async wake(incidentId: string, personId: number): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    const snoozedBefore = incident.snoozed_before;
    incident.snoozed_before = 0;
    return this.#changed('i_wake', incident, personId, { snoozedBefore });
  }

  /** Adds a comment (i_comm). */
  async comment(incidentId: string, text: string, personId: number): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    this.#member(personId);
    return this.#changed('i_comm', incident, personId, { comment: text });
  }

  /** A storm reminder fires (i_storm), from the platform. */
  async storm(incidentId: string): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    return this.#changed('i_storm', incident, undefined, { threshold: incident.alert_cnt });
  }

  /**
   * A custom action is triggered (i_custom): with `integrationId`, that custom-action integration's
   * button (it must be offered in the incident's channel); incident webhooks subscribed to i_custom
   * get it too.
   */
  async customAction(incidentId: string, personId: number, integrationId?: number | string): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    incident.updated_at = Math.max(incident.updated_at, this.#seconds());
    this.#announce(
      'i_custom',
      incident,
      this.#member(personId),
      integrationId === undefined ? {} : { integration_id: integrationId },
      integrationId,
    );
    return structuredClone(incident);
  }

  /** Closes by hand, or automatically without a person (i_rslv). Closing does not recover. */
  async close(incidentId: string, personId?: number): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    if (personId !== undefined) this.#member(personId);
    closeIncident(incident, this.#seconds(), personId ?? 0);
    if (personId !== undefined) incident.closer = personOf(this.#member(personId));
    return this.#changed('i_rslv', incident, personId, { from: 'console' });
  }

  /** Every alert recovers: the incident recovers (end_time) and so closes automatically (i_rslv). */
  async recover(incidentId: string): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    const now = this.#seconds();
    const alerts = this.#world.alerts.get(incidentId) ?? [];
    for (const alert of alerts) {
      if (alert.alert_status !== 'Ok')
        Object.assign(alert, { alert_status: 'Ok', end_time: now, last_time: now, updated_at: now });
    }
    if (alerts.length === 0) {
      incident.end_time = now;
      closeIncident(incident, now, 0);
    }
    return this.#rederive('i_rslv', incident, undefined, { from: 'event' });
  }

  /** Reopens a closed incident (i_reopen), for a reason where one is given. */
  async reopen(incidentId: string, personId: number, reason?: string): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    this.#member(personId);
    if (incident.progress !== 'Closed') throw new MockActionError(`reopen: incident ${incidentId} is not closed`);
    const now = this.#seconds();
    Object.assign(incident, { progress: 'Triggered', close_time: 0, closer_id: 0, end_time: 0 });
    delete incident.closer;
    for (const alert of this.#world.alerts.get(incidentId) ?? [])
      Object.assign(alert, { alert_status: alert.alert_severity, end_time: 0, last_time: now });
    for (const r of incident.responders) r.acknowledged_at = 0;
    incident.assigned_to = { ...incident.assigned_to, type: 'reopen', assigned_at: now };
    return this.#rederive('i_reopen', incident, personId, reason ? { reason } : {});
  }

  /** Merges other incidents into one (i_merge on the target); the sources are closed and deleted. */
  async merge(targetId: string, sourceIds: string[], personId: number): Promise<IncidentInfo> {
    const target = this.#incident(targetId);
    this.#member(personId);
    const alerts = this.#world.alerts.get(targetId) ?? [];
    const merged: Array<{ incident_id: string; title: string; progress: string }> = [];
    for (const sourceId of sourceIds) {
      if (sourceId === targetId) throw new MockActionError('merge: an incident cannot be merged into itself');
      const source = this.#incident(sourceId);
      alerts.push(...(this.#world.alerts.get(sourceId) ?? []));
      closeIncident(source, this.#seconds(), personId);
      source.deleted_at = this.#seconds();
      merged.push({ incident_id: source.incident_id, title: source.title, progress: source.progress });
    }
    this.#world.alerts.set(targetId, alerts);
    target.alert_cnt = alerts.length;
    target.alert_event_cnt = alerts.reduce((sum, a) => sum + a.event_cnt, 0);
    return this.#rederive('i_merge', target, personId, {
      source_incidents: merged,
      target_incident: { incident_id: target.incident_id, title: target.title, progress: target.progress },
      title: target.title,
    });
  }

  /** Updates one of the text fields or the severity (i_r_title, i_r_desc, i_r_impact, i_r_rc, i_r_rsltn, i_r_severity). */
  async update(incidentId: string, field: UpdatableField, value: string, personId: number): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    const eventType = UPDATE_EVENTS[field];
    if (!eventType)
      throw new MockActionError(`update: ${String(field)} cannot be updated; use setField for custom fields`);
    if (typeof value !== 'string') throw new MockActionError(`update: ${field} must be a string`);
    const from = (incident as unknown as Record<string, unknown>)[field];
    (incident as unknown as Record<string, unknown>)[field] = value;
    if (!incident.manual_overrides.includes(field)) incident.manual_overrides.push(field);
    return this.#changed(eventType, incident, personId, { from, to: value });
  }

  /** Sets a custom field (i_r_field). */
  async setField(incidentId: string, name: string, value: unknown, personId: number): Promise<IncidentInfo> {
    const incident = this.#incident(incidentId);
    incident.fields = { ...incident.fields, [name]: value };
    return this.#changed('i_r_field', incident, personId, { field_name: name, to: value });
  }

  #rederive(
    eventType: KnownWebhookEventType,
    incident: IncidentInfo,
    personId: number | undefined,
    detail: Record<string, unknown> = {},
  ): IncidentInfo {
    deriveState(incident, this.#world.alerts.get(incident.incident_id) ?? [], this.#seconds());
    return this.#changed(eventType, incident, personId, detail);
  }

  #changed(
    eventType: KnownWebhookEventType,
    incident: IncidentInfo,
    personId: number | undefined,
    detail: Record<string, unknown> = {},
  ): IncidentInfo {
    incident.updated_at = Math.max(incident.updated_at, this.#seconds());
    this.#announce(eventType, incident, personId === undefined ? undefined : this.#member(personId), detail);
    return structuredClone(incident);
  }

  /** A thing done to the incident: its row in the incident's timeline, then its event. */
  #announce(
    event_type: KnownWebhookEventType,
    incident: IncidentInfo,
    person: Member | undefined,
    detail: Record<string, unknown>,
    integrationId?: number | string,
  ): void {
    const at = this.#clock.now();
    addRow(this.#world, incident.incident_id, event_type, detail, person?.person_id, at);
    this.#emit({
      event_type,
      incident: structuredClone(incident),
      ...(person ? { person: personOf(person) } : {}),
      at,
      ...(integrationId === undefined ? {} : { integration_id: integrationId }),
    });
  }

  #responder(incident: IncidentInfo, member: Member, at: number) {
    void incident;
    return {
      person_id: member.person_id,
      person_name: member.person_name,
      email: member.email,
      assigned_at: at,
      acknowledged_at: 0,
    };
  }

  #alertFor(incident: IncidentInfo): AlertInfo {
    const alerts = [...this.#world.alerts.values()].find((list) => list.length > 0);
    const base = alerts?.[0];
    return {
      ...(base ? structuredClone(base) : ({} as AlertInfo)),
      alert_id: objectId(incident.start_time, this.#random),
      channel_id: incident.channel_id,
      channel_name: incident.channel_name,
      title: incident.title,
      description: incident.description,
      alert_severity: incident.incident_severity,
      alert_status: incident.incident_severity,
      start_time: incident.start_time,
      last_time: incident.start_time,
      end_time: 0,
      labels: incident.labels,
      created_at: incident.start_time,
      updated_at: incident.start_time,
      event_cnt: 1,
    };
  }

  #incident(incidentId: string): IncidentInfo {
    return incidentOf(this.#world, incidentId);
  }

  #member(personId: number): Member {
    return memberOf(this.#world, personId);
  }

  #seconds(): number {
    return Math.floor(this.#clock.now() / 1000);
  }
}
