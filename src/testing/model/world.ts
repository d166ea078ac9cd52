// The seeded world of the mock: one account; its people, teams, channels, schedules and
// escalation rules (world/people.ts and world/seed.ts), which name one another and nothing else; and
// incidents with their alerts, each responded to by members of the world, notified by its channel's
// escalation rule, with the timeline its state tells. Every required field of IncidentInfo and
// AlertInfo is present and consistent with the spec's progress rules (status from alert states, 0
// until set, earliest ack, recovery closes).

import type { AlertEventItem, AlertInfo } from '../../schemas/alert.js';
import type { IncidentInfo, Responder } from '../../schemas/incident.js';
import { MockClock } from '../clock.js';
import { ResourceEngine } from '../world/engine.js';
import { objectId } from '../world/ids.js';
import { type Member, personOf, seedMembers } from '../world/people.js';
import type { ResourceRecord } from '../world/records.js';
import { seedResources } from '../world/seed.js';
import { seedTimeline, type TimelineRow } from '../world/timeline.js';
import { Random } from './random.js';

export type { Member } from '../world/people.js';

/** A team; teams own channels. Its other fields are those the API answers (`description`, `status`, …). */
export interface Team {
  team_id: number;
  team_name: string;
  person_ids: number[];
  [field: string]: unknown;
}

/** A channel (collaboration space). Its other fields are those the API answers (`description`, `status`, …). */
export interface Channel {
  channel_id: number;
  channel_name: string;
  /** Team that owns the channel. */
  team_id: number;
  /** Members who manage the channel personally (the seeded channels). */
  manager_ids?: number[];
  [field: string]: unknown;
}

/** The account behind the mock's keys. */
export interface Account {
  account_id: number;
  account_name: string;
  account_locale: string;
  account_time_zone: string;
}

/** Everything the mock holds, live. */
export interface World {
  account: Account;
  /** The account's members, the owner (`service.personId`) first; a removed one stays, `status: 'deleted'`. */
  members: Member[];
  /** The records of `/team`, as the API answers them. */
  teams: Team[];
  /** The records of `/channel`, as the API answers them. */
  channels: Channel[];
  incidents: IncidentInfo[];
  /** The alerts merged into each incident, by incident id. */
  alerts: Map<string, AlertInfo[]>;
  /** The raw events merged into each alert, by alert id, oldest first. */
  events: Map<string, AlertEventItem[]>;
  /**
   * The records of every resource family the engine keeps, by the family's base path (`/schedule`,
   * `/channel/escalate/rule`, `/team`, `/channel`), oldest first, as the API answers them.
   */
  resources: Map<string, ResourceRecord[]>;
  /** Each incident's timeline (what `incidents.feed` answers), by incident id, in the order things were done. */
  timelines: Map<string, TimelineRow[]>;
}

export interface WorldOptions {
  seed: number;
  incidents: number;
  /** Unix seconds; incidents spread over the 30 days before it. */
  now: number;
}

const ACCOUNT: Account = {
  account_id: 2451002751131,
  account_name: 'Demo Co',
  account_locale: 'en-US',
  account_time_zone: 'Asia/Shanghai',
};
const CHECKS = ['cpu_usage_high', 'disk_full', 'http_5xx_rate', 'replication_lag', 'oom_killed', 'latency_p99'];
const HOSTS = ['web-server-01', 'web-server-02', 'db-primary', 'db-replica', 'queue-01', 'edge-fra', 'edge-sin'];
const SEVERITIES = ['Critical', 'Warning', 'Info'] as const;
const INTEGRATIONS = [
  { id: 2490562293131, type: 'monit.alert', name: 'Monit' },
  { id: 2490562293132, type: 'prometheus.alert', name: 'Prometheus' },
  { id: 2490562293133, type: 'zabbix.alert', name: 'Zabbix' },
];
const DAY = 86_400;
const ORDER: Record<string, number> = { Critical: 3, Warning: 2, Info: 1, Ok: 0 };

/** The world of a seed: its people and resources (their own generator), then its incidents. */
export function createWorld({ seed, incidents: count, now }: WorldOptions): World {
  const people = new Random(seed * 131 + 1);
  const resources = new Map<string, ResourceRecord[]>();
  const teams: Team[] = [];
  const channels: Channel[] = [];
  resources.set('/team', teams);
  resources.set('/channel', channels);
  const world: World = {
    account: ACCOUNT,
    members: seedMembers(people, now),
    teams,
    channels,
    incidents: [],
    alerts: new Map(),
    events: new Map(),
    resources,
    timelines: new Map(),
  };
  seedResources(new ResourceEngine(world, new MockClock(now * 1000), seed), world, people, now);
  const random = new Random(seed);
  for (let i = 0; i < count; i++) world.incidents.push(generateIncident(world, random, now));
  for (const incident of world.incidents) seedTimeline(world, incident);
  return world;
}

function generateIncident(world: World, random: Random, now: number): IncidentInfo {
  const start = now - random.int(60, 30 * DAY - 60);
  const standalone = random.chance(0.1);
  const channel = standalone ? undefined : random.pick(world.channels);
  const integration = random.pick(INTEGRATIONS);
  const severity = random.pick(SEVERITIES);
  const check = random.pick(CHECKS);
  const host = random.pick(HOSTS);
  const incident_id = objectId(start, random);
  const manual = random.chance(0.15);
  const creator = manual ? random.pick(world.members) : undefined;
  // The channel's team responds (everyone, to a standalone incident), as its escalation rule says.
  const team = channel && world.teams.find((t) => t.team_id === channel.team_id);
  const pool = team ? world.members.filter((m) => team.person_ids.includes(m.person_id)) : world.members;
  const rule =
    channel && world.resources.get('/channel/escalate/rule')?.find((r) => r.channel_id === channel.channel_id);
  const responderPeople = [random.pick(pool), random.pick(pool)].filter(
    (m, i, all) => all.findIndex((x) => x.person_id === m.person_id) === i,
  );
  const assignedAt = start + random.int(0, 120);
  const acked = random.chance(0.6);
  const responders: Responder[] = responderPeople.map((m, i) => ({
    person_id: m.person_id,
    assigned_at: assignedAt,
    acknowledged_at: acked && (i === 0 || random.chance(0.5)) ? Math.min(now, assignedAt + random.int(30, 3600)) : 0,
    person_name: m.person_name,
    email: m.email,
  }));
  const labels = { check, resource: host, env: random.pick(['production', 'staging']) };
  const alertCount = random.int(1, 3);
  const recovered = random.chance(0.45);
  const alerts: AlertInfo[] = [];
  for (let a = 0; a < alertCount; a++) {
    const alertStart = start + a * random.int(0, 300);
    const alertEnd = recovered ? Math.min(now, alertStart + random.int(300, 6 * 3600)) : 0;
    alerts.push({
      alert_id: objectId(alertStart, random),
      integration_id: integration.id,
      data_source_id: integration.id,
      channel_id: channel?.channel_id ?? 0,
      account_id: world.account.account_id,
      description: `${check} on ${host}`,
      title: `${check.replace(/_/g, ' ')} - ${host}`,
      title_rule: '$check - $resource',
      alert_key: `${integration.id}:${host}:${check}`,
      alert_severity: severity,
      alert_status: alertEnd ? 'Ok' : a === 0 ? severity : random.pick(SEVERITIES),
      start_time: alertStart,
      last_time: alertEnd || Math.min(now, alertStart + random.int(60, 3600)),
      end_time: alertEnd,
      labels,
      ever_muted: false,
      created_at: alertStart,
      updated_at: alertEnd || alertStart,
      integration_name: integration.name,
      integration_type: integration.type,
      integration_ref_id: String(integration.id),
      channel_name: channel?.channel_name ?? '',
      channel_status: channel ? 'enabled' : '',
      responder_name: responders[0]?.person_name ?? '',
      responder_email: responders[0]?.email ?? '',
      incident: { incident_id, title: '', progress: 'Triggered' },
      event_cnt: random.int(1, 6),
      images: null,
      data_source_name: integration.name,
      data_source_ref_id: String(integration.id),
    });
  }
  const incident: IncidentInfo = {
    incident_id,
    account_id: world.account.account_id,
    channel_id: channel?.channel_id ?? 0,
    integration_id: integration.id,
    integration_ids: [integration.id],
    integration_types: [integration.type],
    dedup_key: `${integration.id}:${host}:${check}`,
    equals_md5: random.hex(32),
    start_time: start,
    end_time: 0,
    last_time: start,
    ack_time: 0,
    close_time: 0,
    creator_id: creator?.person_id ?? 0,
    closer_id: 0,
    owner_id: responders[0]?.person_id ?? 0,
    incident_status: severity,
    incident_severity: severity,
    progress: 'Triggered',
    title: `${check.replace(/_/g, ' ')} - ${host}`,
    description: `${check} fired on ${host}`,
    ai_summary: '',
    impact: '',
    root_cause: '',
    resolution: '',
    num: incident_id.slice(-6).toUpperCase(),
    frequency: random.chance(0.15) ? 'rare' : 'frequent',
    deleted_at: 0,
    created_at: start,
    updated_at: start,
    snoozed_before: random.chance(0.1) ? now + random.int(600, 7200) : 0,
    group_method: random.pick(['i', 'p', 'n']),
    ever_muted: random.chance(0.1),
    labels: manual ? {} : labels,
    fields: random.chance(0.3) ? { region: random.pick(['eu', 'us', 'ap']) } : {},
    assigned_to: {
      person_ids: responders.map((r) => r.person_id),
      layer_idx: 0,
      type: 'assign',
      assigned_at: assignedAt,
      id: random.hex(22),
      escalate_rule_id: typeof rule?.rule_id === 'string' ? rule.rule_id : '000000000000000000000000',
      escalate_rule_name: typeof rule?.rule_name === 'string' ? rule.rule_name : '',
    },
    ...(creator ? { reporter_email: creator.email, creator: personOf(creator) } : {}),
    alert_cnt: alerts.length,
    active_alert_cnt: 0,
    alert_event_cnt: alerts.reduce((sum, a) => sum + a.event_cnt, 0),
    responders,
    account_name: world.account.account_name,
    account_locale: world.account.account_locale,
    account_time_zone: world.account.account_time_zone,
    channel_name: channel?.channel_name ?? '',
    channel_status: channel ? 'enabled' : '',
    detail_url: `https://app.flashcat.cloud/incident/detail/${incident_id}`,
    silence_url: channel
      ? `https://app.flashcat.cloud/channel/detail/${channel.channel_id}?tab=alertSuppression&fromIncidentId=${incident_id}`
      : '',
    integration_type: integration.type,
    post_mortem_id: '',
    images: null,
    manual_overrides: [],
  };
  for (const alert of alerts) world.events.set(alert.alert_id, rawEvents(alert, random));
  deriveState(incident, alerts, now);
  world.alerts.set(incident_id, alerts);
  // Closed by hand by one of its responders.
  if (!recovered && random.chance(0.15))
    closeIncident(incident, Math.min(now, start + random.int(600, 3 * DAY)), random.pick(responderPeople).person_id);
  return incident;
}

/** `event_cnt` raw events between the alert's start and its last event; the last carries its status. */
function rawEvents(alert: AlertInfo, random: Random): AlertEventItem[] {
  const events: AlertEventItem[] = [];
  for (let n = 0; n < alert.event_cnt; n++) {
    const last = n === alert.event_cnt - 1;
    const time = last
      ? alert.last_time
      : alert.start_time + Math.floor(((alert.last_time - alert.start_time) * n) / alert.event_cnt);
    events.push({
      event_id: objectId(time, random),
      alert_id: alert.alert_id,
      account_id: alert.account_id,
      channel_id: alert.channel_id,
      integration_id: alert.integration_id,
      integration_type: alert.integration_type,
      data_source_id: alert.integration_id,
      title: alert.title,
      title_rule: alert.title_rule,
      description: alert.description,
      alert_key: alert.alert_key,
      event_severity: alert.alert_severity,
      event_status: last ? alert.alert_status : alert.alert_severity,
      event_time: time,
      labels: alert.labels,
      images: [],
      created_at: time,
      updated_at: time,
      deleted_at: 0,
    });
  }
  return events;
}

/** Rules 1–4 of "Incident progress": status from the alerts, recovery closes, earliest ack. */
export function deriveState(incident: IncidentInfo, alerts: AlertInfo[], now: number): void {
  const active = alerts.filter((a) => a.alert_status !== 'Ok');
  incident.active_alert_cnt = active.length;
  const acks = incident.responders.map((r) => r.acknowledged_at).filter((t) => t > 0);
  incident.ack_time = acks.length ? Math.min(...acks) : 0;
  if (alerts.length === 0) {
    // An incident created by hand has no alerts: its status is its severity until it recovers.
    incident.incident_status = incident.end_time ? 'Ok' : incident.incident_severity;
  } else {
    incident.incident_status = active.reduce<string>(
      (worst, a) => ((ORDER[a.alert_status] ?? 0) > (ORDER[worst] ?? 0) ? a.alert_status : worst),
      'Ok',
    );
    incident.last_time = Math.max(incident.start_time, ...alerts.map((a) => a.last_time));
  }
  if (alerts.length > 0 && active.length === 0) {
    const recoveredAt = Math.min(now, Math.max(...alerts.map((a) => a.end_time)));
    incident.end_time = recoveredAt;
    if (incident.progress !== 'Closed') closeIncident(incident, recoveredAt, 0);
  } else if (incident.progress !== 'Closed') {
    incident.progress = incident.ack_time ? 'Processing' : 'Triggered';
  }
  incident.updated_at = Math.max(incident.updated_at, incident.last_time, incident.ack_time, incident.close_time);
  for (const alert of alerts) {
    alert.incident = { incident_id: incident.incident_id, title: incident.title, progress: incident.progress };
  }
}

/** Closing sets progress and close_time; it does not recover (end_time stays as it was). */
export function closeIncident(incident: IncidentInfo, at: number, closerId: number): void {
  incident.progress = 'Closed';
  incident.close_time = at;
  incident.closer_id = closerId;
  incident.updated_at = Math.max(incident.updated_at, at);
}
