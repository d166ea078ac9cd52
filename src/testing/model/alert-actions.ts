// What integrations and people do to alerts, as the mock lets tests do it, each announcing its
// alert-webhook event type: an integration pushes an event (a new alert, `a_new`, or an update of
// the open alert with the same alert_key, `a_update`), a member merges an alert into an incident
// (`a_merge`) or closes it (`a_close`). Alerts merged into an incident are that incident's alerts
// in the world (its alert_cnt follows); the others are kept here until merged.

import type { AlertInfo } from '../../schemas/alert.js';
import type { AlertEventType } from '../../webhooks/types.js';
import type { MockClock } from '../clock.js';
import { incidentOf, memberOf, MockActionError } from './incident-actions.js';
import { Random } from './random.js';
import { objectId } from '../world/ids.js';
import type { Person } from '../../webhooks/types.js';
import { personOf } from '../world/people.js';
import { addRow } from '../world/timeline.js';
import { type Member, type World } from './world.js';

/** One thing that happened to an alert, in the order it happened. */
export interface AlertEvent {
  event_type: AlertEventType;
  alert: AlertInfo;
  /** `Triggered`, or `Closed` once closed by hand. */
  progress: 'Triggered' | 'Closed';
  /** Unix seconds; 0 while open. */
  close_time: number;
  /** The member who acted; absent for what integrations did. */
  person?: Person;
  /** Unix ms by the mock's clock. */
  at: number;
}

/** What `alertActions.push` takes: one event an integration sends. */
export interface PushAlertParams {
  title: string;
  /** `Ok` recovers the open alert of the same key. */
  event_status: 'Critical' | 'Warning' | 'Info' | 'Ok';
  /** Alerts merge events by this key; default a key derived from the title. */
  alert_key?: string;
  /** 0 or absent: no channel. */
  channel_id?: number;
  description?: string;
  labels?: Record<string, string>;
}

const INTEGRATION = {
  integration_id: 2490562293132,
  integration_type: 'prometheus.alert',
  integration_name: 'Prometheus',
};

/** Actions on alerts; each emits its alert-webhook event type. */
export class AlertActions {
  readonly #world: World;
  readonly #clock: MockClock;
  readonly #emit: (event: AlertEvent) => void;
  readonly #random: Random;
  /** Alerts not merged into an incident, by id. */
  readonly #loose = new Map<string, AlertInfo>();
  /** Close times of alerts closed by hand, by id. */
  readonly #closed = new Map<string, number>();

  constructor(world: World, clock: MockClock, emit: (event: AlertEvent) => void, seed: number) {
    this.#world = world;
    this.#clock = clock;
    this.#emit = emit;
    this.#random = new Random(seed * 211 + 9);
  }

  /** An integration pushes an event: a new alert (a_new), or an update of the open alert with its key (a_update). */
  async push(params: PushAlertParams): Promise<AlertInfo> {
    if (typeof params?.title !== 'string' || params.title === '') throw new MockActionError('push: title is required');
    if (!['Critical', 'Warning', 'Info', 'Ok'].includes(params.event_status)) {
      throw new MockActionError('push: event_status must be Critical, Warning, Info or Ok');
    }
    const channel = params.channel_id
      ? this.#world.channels.find((c) => c.channel_id === params.channel_id)
      : undefined;
    if (params.channel_id && !channel) throw new MockActionError(`push: no channel ${params.channel_id}`);
    const now = this.#seconds();
    const key = params.alert_key ?? `key-${params.title}`;
    const open = this.#all().find(
      (a) =>
        a.alert_key === key &&
        a.channel_id === (channel?.channel_id ?? 0) &&
        a.end_time === 0 &&
        !this.#closed.has(a.alert_id),
    );
    if (open) {
      const severity = params.event_status === 'Ok' ? open.alert_severity : params.event_status;
      Object.assign(open, {
        title: params.title,
        description: params.description ?? open.description,
        labels: { ...open.labels, ...params.labels },
        alert_severity: severity,
        alert_status: params.event_status,
        last_time: now,
        end_time: params.event_status === 'Ok' ? now : 0,
        updated_at: now,
        event_cnt: open.event_cnt + 1,
      });
      return this.#announce('a_update', open, undefined);
    }
    if (params.event_status === 'Ok') throw new MockActionError(`push: no open alert with key ${key} to recover`);
    const alert: AlertInfo = {
      ...INTEGRATION,
      alert_id: objectId(now, this.#random),
      data_source_id: INTEGRATION.integration_id,
      data_source_name: INTEGRATION.integration_name,
      data_source_type: INTEGRATION.integration_type,
      data_source_ref_id: '',
      integration_ref_id: '',
      account_id: this.#world.account.account_id,
      channel_id: channel?.channel_id ?? 0,
      channel_name: channel?.channel_name ?? '',
      channel_status: channel ? 'enabled' : '',
      title: params.title,
      title_rule: '',
      description: params.description ?? '',
      alert_key: key,
      alert_severity: params.event_status,
      alert_status: params.event_status,
      start_time: now,
      last_time: now,
      end_time: 0,
      labels: { ...params.labels },
      ever_muted: false,
      created_at: now,
      updated_at: now,
      responder_name: '',
      responder_email: '',
      event_cnt: 1,
      images: null,
    };
    this.#loose.set(alert.alert_id, alert);
    return this.#announce('a_new', alert, undefined);
  }

  /** Merges an alert into an incident (a_merge); it leaves the incident it was in. */
  async merge(alertId: string, incidentId: string, personId: number): Promise<AlertInfo> {
    const alert = this.#alert(alertId);
    const person = memberOf(this.#world, personId);
    const incident = incidentOf(this.#world, incidentId);
    this.#detach(alert);
    const alerts = this.#world.alerts.get(incidentId) ?? [];
    alerts.push(alert);
    this.#world.alerts.set(incidentId, alerts);
    incident.alert_cnt = alerts.length;
    incident.alert_event_cnt = alerts.reduce((sum, a) => sum + a.event_cnt, 0);
    alert.incident = { incident_id: incident.incident_id, title: incident.title, progress: incident.progress };
    alert.updated_at = this.#seconds();
    // A row of the incident's timeline too: an alert was merged into it.
    const detail = { alert_id: alert.alert_id, title: alert.title };
    addRow(this.#world, incident.incident_id, 'a_merge', detail, personId, this.#clock.now());
    return this.#announce('a_merge', alert, person);
  }

  /** Closes an alert by hand (a_close): closed is not recovered. */
  async close(alertId: string, personId: number): Promise<AlertInfo> {
    const alert = this.#alert(alertId);
    const person = memberOf(this.#world, personId);
    if (this.#closed.has(alertId)) throw new MockActionError(`close: alert ${alertId} is already closed`);
    this.#closed.set(alertId, this.#seconds());
    alert.updated_at = this.#seconds();
    return this.#announce('a_close', alert, person);
  }

  /** An alert by id: merged into an incident or not. */
  get(alertId: string): AlertInfo | undefined {
    const alert = this.#all().find((a) => a.alert_id === alertId);
    return alert && structuredClone(alert);
  }

  #all(): AlertInfo[] {
    return [...this.#loose.values(), ...[...this.#world.alerts.values()].flat()];
  }

  #detach(alert: AlertInfo): void {
    this.#loose.delete(alert.alert_id);
    for (const [incidentId, alerts] of this.#world.alerts) {
      const index = alerts.indexOf(alert);
      if (index < 0) continue;
      alerts.splice(index, 1);
      const incident = this.#world.incidents.find((i) => i.incident_id === incidentId);
      if (incident) incident.alert_cnt = alerts.length;
    }
  }

  #announce(event_type: AlertEventType, alert: AlertInfo, person: Member | undefined): AlertInfo {
    const close_time = this.#closed.get(alert.alert_id) ?? 0;
    this.#emit({
      event_type,
      alert: structuredClone(alert),
      progress: close_time ? 'Closed' : 'Triggered',
      close_time,
      ...(person ? { person: personOf(person) } : {}),
      at: this.#clock.now(),
    });
    return structuredClone(alert);
  }

  #alert(alertId: string): AlertInfo {
    const alert = this.#all().find((a) => a.alert_id === alertId);
    if (!alert) throw new MockActionError(`no alert ${alertId}`);
    return alert;
  }

  #seconds(): number {
    return Math.floor(this.#clock.now() / 1000);
  }
}
