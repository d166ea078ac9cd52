// `POST /incident/list` over the world: the request table's checks, every filter, sorting, and both
// paging modes. A cursor is the sort key of the last item sent ("search after"), so paging stays
// correct when incidents are added between pages.

import { MAX_PAGE_DEPTH, MAX_WINDOW_SECONDS } from '../../client/pagination/limits.js';
import type { IncidentInfo } from '../../schemas/incident.js';
import type { IncidentListResponse, ListIncidentsRequest } from '../../schemas/list.js';
import type { Refusal } from './operation-result.js';
import type { World } from './world.js';

const TOTAL_CAP = 1000;
const BOOLEANS = ['asc', 'is_snoozed', 'is_my_team', 'is_my_channel', 'ever_muted', 'is_rare'];
const STRINGS = ['progress', 'query', 'incident_severity', 'search_after_ctx'];
const NUMBER_LISTS = ['channel_ids', 'team_ids', 'responder_ids', 'acker_ids', 'creator_ids', 'closer_ids'];
const STRING_LISTS = ['incident_ids', 'nums'];

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** The request table's rules, in the order the service reports them. */
export function checkListRequest(body: Record<string, unknown>): Refusal | undefined {
  for (const field of ['start_time', 'end_time']) {
    if (body[field] === undefined || body[field] === null) return { key: 'required', vars: { field } };
    if (!isInt(body[field])) return { key: 'type', vars: { field, type: 'integer' } };
  }
  for (const field of BOOLEANS) {
    if (body[field] !== undefined && typeof body[field] !== 'boolean')
      return { key: 'type', vars: { field, type: 'boolean' } };
  }
  for (const field of STRINGS) {
    if (body[field] !== undefined && typeof body[field] !== 'string')
      return { key: 'type', vars: { field, type: 'string' } };
  }
  for (const field of NUMBER_LISTS) {
    const v = body[field];
    if (v !== undefined && !(Array.isArray(v) && v.every(isInt)))
      return { key: 'type', vars: { field, type: 'array of integers' } };
  }
  for (const field of STRING_LISTS) {
    const v = body[field];
    if (v !== undefined && !(Array.isArray(v) && v.every((x) => typeof x === 'string'))) {
      return { key: 'type', vars: { field, type: 'array of strings' } };
    }
  }
  const start = body.start_time as number;
  const end = body.end_time as number;
  if (end <= start) return { key: 'endAfterStart' };
  if (end - start > MAX_WINDOW_SECONDS) return { key: 'window' };
  for (const [field, min, max] of [
    ['limit', 0, 100],
    ['p', 0, Number.MAX_SAFE_INTEGER],
  ] as const) {
    const v = body[field];
    if (v === undefined) continue;
    if (!isInt(v)) return { key: 'type', vars: { field, type: 'integer' } };
    if (v < min || v > max)
      return max === 100 ? { key: 'range', vars: { field, min, max } } : { key: 'min', vars: { field, min } };
  }
  const limit = (body.limit as number | undefined) || 20;
  if (((body.p as number | undefined) ?? 1) * limit > MAX_PAGE_DEPTH) return { key: 'depth' };
  return undefined;
}

export interface QueryContext {
  world: World;
  /** The member behind the app key, for `is_my_team` and `is_my_channel`. */
  personId: number;
  /** Unix seconds, for `is_snoozed`. */
  now: number;
}

export function queryIncidents(request: ListIncidentsRequest, ctx: QueryContext): IncidentListResponse | Refusal {
  const matches = ctx.world.incidents.filter(filterFor(request, ctx));
  const asc = request.asc === true;
  matches.sort((a, b) => compareKeys(keyOf(a), keyOf(b)) * (asc ? 1 : -1));
  const limit = request.limit || 20;
  let from: number;
  if (request.search_after_ctx) {
    const after = decodeCursor(request.search_after_ctx);
    if (!after) return { key: 'cursor' };
    from = matches.findIndex((incident) => compareKeys(keyOf(incident), after) * (asc ? 1 : -1) > 0);
    if (from < 0) from = matches.length;
  } else {
    from = ((request.p || 1) - 1) * limit;
  }
  const items = matches.slice(from, from + limit);
  const hasNext = from + limit < matches.length;
  const last = items[items.length - 1];
  return {
    items: items.map((incident) => structuredClone(incident)),
    total: Math.min(matches.length, TOTAL_CAP),
    has_next_page: hasNext,
    ...(hasNext && last ? { search_after_ctx: encodeCursor(keyOf(last)) } : {}),
  };
}

type SortKey = [number, string];

const keyOf = (incident: IncidentInfo): SortKey => [incident.start_time, incident.incident_id];

function compareKeys(a: SortKey, b: SortKey): number {
  return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
}

function encodeCursor([time, id]: SortKey): string {
  return `${time.toString(36)}.${id}`;
}

function decodeCursor(cursor: string): SortKey | undefined {
  const match = /^([0-9a-z]+)\.([0-9a-f]{24})$/.exec(cursor);
  return match ? [parseInt(match[1] as string, 36), match[2] as string] : undefined;
}

function commaSet(value: string | undefined): Set<string> | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return new Set(
    value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

function anyIn(list: number[] | undefined): Set<number> | undefined {
  return list && list.length > 0 ? new Set(list) : undefined;
}

function filterFor(r: ListIncidentsRequest, { world, personId, now }: QueryContext): (i: IncidentInfo) => boolean {
  const progress = commaSet(r.progress);
  const severity = commaSet(r.incident_severity);
  const channels = anyIn(r.channel_ids);
  const teams = anyIn(r.team_ids);
  const responders = anyIn(r.responder_ids);
  const ackers = anyIn(r.acker_ids);
  const creators = anyIn(r.creator_ids);
  const closers = anyIn(r.closer_ids);
  const ids = r.incident_ids?.length ? new Set(r.incident_ids.map((id) => id.toLowerCase())) : undefined;
  const nums = r.nums?.length ? new Set(r.nums) : undefined;
  const query = r.query?.trim().toLowerCase() || undefined;
  const channelById = new Map(world.channels.map((c) => [c.channel_id, c]));
  const myTeams = new Set(world.teams.filter((t) => t.person_ids.includes(personId)).map((t) => t.team_id));

  return (i) => {
    if (i.deleted_at) return false;
    if (i.start_time < r.start_time || i.start_time > r.end_time) return false;
    const channel = channelById.get(i.channel_id);
    if (r.is_snoozed === true && !(i.snoozed_before > now)) return false;
    if (r.is_my_team === true && !(channel && myTeams.has(channel.team_id))) return false;
    if (r.is_my_channel === true && !channel?.manager_ids?.includes(personId)) return false;
    if (r.ever_muted === true && !i.ever_muted) return false;
    if (r.is_rare === true && i.frequency !== 'rare') return false;
    if (progress && !progress.has(i.progress)) return false;
    if (severity && !severity.has(i.incident_severity)) return false;
    if (channels && !channels.has(i.channel_id)) return false;
    if (teams && !(channel && teams.has(channel.team_id))) return false;
    if (responders && !i.responders.some((x) => responders.has(x.person_id))) return false;
    if (ackers && !i.responders.some((x) => x.acknowledged_at > 0 && ackers.has(x.person_id))) return false;
    if (creators && !creators.has(i.creator_id)) return false;
    if (closers && !(i.progress === 'Closed' && closers.has(i.closer_id))) return false;
    if (ids && !ids.has(i.incident_id.toLowerCase())) return false;
    if (nums && !nums.has(i.num)) return false;
    if (query && !matchesQuery(i, query)) return false;
    return true;
  };
}

function matchesQuery(incident: IncidentInfo, query: string): boolean {
  const haystack = [
    incident.title,
    incident.description,
    incident.num,
    incident.incident_id,
    ...Object.values(incident.labels),
  ];
  return haystack.some((text) => text.toLowerCase().includes(query));
}
