// An incident's own timeline (`POST /incident/feed`): a row for each thing done to it, whoever did
// it (a test through `service.actions` or `service.alertActions`, a client through the API, the
// platform), as the OpenAPI's IncidentFeedItem describes one: its type (`i_new`, `i_ack`, `i_comm`,
// …), the detail of that type, the member who acted (0 for the platform) and its time in
// milliseconds. A seeded incident's timeline is what its state tells: created, assigned, each
// acknowledgement, closed. Rules owned here: the feed answers newest first, oldest first with
// `asc`, rows done at one instant in the order they were done; `types` keeps those types; pages by
// `p` and `limit` (20), with `has_next_page`; an incident that does not exist (or was merged away)
// is ResourceNotFound.

import type { IncidentInfo } from '../../schemas/incident.js';
import type { OperationResult } from '../model/operation-result.js';
import type { World } from '../model/world.js';
import { RULES } from '../../generated/operation-rules.js';
import { pageOf } from './list-query.js';

/** One row of an incident's timeline, as `incidents.feed` answers it. */
export interface TimelineRow {
  /** The incident's id. */
  ref_id: string;
  /** What was done: `i_new`, `i_assign`, `i_ack`, `i_comm`, `i_rslv`, … */
  type: string;
  /** The detail of that type (the OpenAPI's `FeedDetail*` schemas). */
  detail: Record<string, unknown>;
  account_id: number;
  /** The member who acted; 0 for the platform. */
  creator_id: number;
  /** Unix ms. */
  created_at: number;
  updated_at: number;
}

/** Adds a row to an incident's timeline. */
export function addRow(
  world: World,
  incidentId: string,
  type: string,
  detail: Record<string, unknown>,
  personId: number | undefined,
  atMs: number,
): void {
  const rows = world.timelines.get(incidentId) ?? [];
  rows.push({
    ref_id: incidentId,
    type,
    detail,
    account_id: world.account.account_id,
    creator_id: personId ?? 0,
    created_at: atMs,
    updated_at: atMs,
  });
  world.timelines.set(incidentId, rows);
}

/** The timeline a seeded incident's state tells: created, assigned, acknowledged by each who did, closed; in time order. */
export function seedTimeline(world: World, incident: IncidentInfo): void {
  const rows: Array<[type: string, detail: Record<string, unknown>, personId: number | undefined, atMs: number]> = [];
  const ms = (seconds: number, offset: number) => seconds * 1000 + offset;
  const created = { severity: incident.incident_severity, title: incident.title };
  const reporter = incident.reporter_email ? { reporter_email: incident.reporter_email } : {};
  rows.push(['i_new', { ...created, ...reporter }, incident.creator_id, ms(incident.start_time, 0)]);
  const assigned = incident.assigned_to;
  const people = assigned.person_ids ?? [];
  if (people.length > 0) {
    // A copy made by hand: a seeded world makes one for each of its incidents (structuredClone costs more).
    const detail = { ...assigned, person_ids: [...people], to: [...people] };
    rows.push(['i_assign', detail, 0, ms(assigned.assigned_at ?? incident.start_time, 1)]);
  }
  for (const responder of incident.responders)
    if (responder.acknowledged_at > 0) rows.push(['i_ack', {}, responder.person_id, ms(responder.acknowledged_at, 2)]);
  if (incident.progress === 'Closed') {
    const from = incident.closer_id ? 'console' : 'event';
    rows.push(['i_rslv', { from }, incident.closer_id, ms(incident.close_time, 3)]);
  }
  rows.sort((a, b) => a[3] - b[3]);
  for (const [type, detail, personId, atMs] of rows) addRow(world, incident.incident_id, type, detail, personId, atMs);
}

/** `POST /incident/feed`: one page of the incident's timeline. */
export function feedOf(world: World, body: Record<string, unknown>): OperationResult {
  const id = String(body.incident_id).toLowerCase();
  if (!world.incidents.some((i) => i.incident_id === id && !i.deleted_at))
    return { code: 'ResourceNotFound', key: 'notFound', vars: { id } };
  const types = Array.isArray(body.types) && body.types.length > 0 ? new Set(body.types) : undefined;
  const rows = (world.timelines.get(id) ?? [])
    .map((row, order) => ({ row, order }))
    .filter(({ row }) => !types || types.has(row.type))
    .sort((a, b) => (a.row.created_at - b.row.created_at || a.order - b.order) * (body.asc === true ? 1 : -1))
    .map(({ row }) => structuredClone(row));
  const page = pageOf(rows, body, RULES['/incident/feed']?.paging);
  return { data: { items: page.items, has_next_page: page.more } };
}
