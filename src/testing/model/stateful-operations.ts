// The mock's answers to the resource operations beyond /incident/list: the incident lifecycle through
// the same IncidentActions tests drive (so each write emits its webhook event and its row of the
// incident's timeline), the timeline itself, alerts from the world, the automation rules' triggers,
// the audit log; then the members and the enrichment mapping data (world/members.ts,
// world/mapping-data.ts), and every other resource family through the one engine (world/engine.ts).
// Bodies have already passed the OpenAPI's request schema (see router.ts); what is left here are
// the rules the schema cannot state (unknown ids, states).

import type { AlertInfo } from '../../schemas/alert.js';
import type { IncidentInfo } from '../../schemas/incident.js';
import type { MockState } from '../state.js';
import { MAX_WINDOW_SECONDS } from '../../client/pagination/limits.js';
import { RULES } from '../../generated/operation-rules.js';
import { searchAudit } from '../world/audit.js';
import { ENGINE_PATHS, engineAnswers } from '../world/engine.js';
import type { WorldHandler } from '../world/handler.js';
import { MAPPING_DATA_HANDLERS } from '../world/mapping-data.js';
import { MEMBER_HANDLERS } from '../world/members.js';
import { feedOf } from '../world/timeline.js';
import { MockActionError, type UpdatableField } from './incident-actions.js';
import type { OperationResult } from './operation-result.js';

type Body = Record<string, unknown>;
type Handler = (state: MockState, body: Body, personId: number) => Promise<OperationResult>;

/** An automation operation of the registry (automations.ts), as a handler. */
const automation =
  (run: (registry: MockState['automations'], body: Body, personId: number) => OperationResult): Handler =>
  async (state, body, personId) =>
    run(state.automations, body, personId);

const UPDATABLE: UpdatableField[] = ['title', 'description', 'impact', 'root_cause', 'resolution', 'incident_severity'];

const ok = (data: unknown): OperationResult => ({ data });
const missing = (id: string | number): OperationResult => ({ code: 'ResourceNotFound', key: 'notFound', vars: { id } });

/** The live incident of an id as sent (any case), if there is one. */
function findIncident(state: MockState, id: unknown): IncidentInfo | undefined {
  return state.world.incidents.find((i) => i.incident_id === String(id).toLowerCase() && !i.deleted_at);
}

/** Runs `act` on each incident after checking all of them exist (a refused batch changes nothing). */
async function eachIncident(
  state: MockState,
  ids: unknown,
  act: (id: string) => Promise<unknown>,
): Promise<OperationResult> {
  const list = (ids as string[]).map((id) => id.toLowerCase());
  const unknown = list.find((id) => !findIncident(state, id));
  if (unknown) return missing(unknown);
  try {
    for (const id of list) await act(id);
  } catch (error) {
    if (error instanceof MockActionError)
      return { code: 'InvalidParameter', key: 'action', vars: { reason: error.message } };
    throw error;
  }
  return ok(null);
}

function allAlerts(state: MockState): AlertInfo[] {
  return [...state.world.alerts.values()].flat();
}

const HANDLERS: Record<string, Handler> = {
  // By id, or by its short number as the service resolves it: the most recent incident that has it.
  '/incident/info': async (state, body) => {
    if (body.incident_id === undefined && body.num === undefined)
      return { code: 'InvalidParameter', key: 'required', vars: { field: 'incident_id' } };
    const incident =
      body.incident_id !== undefined
        ? findIncident(state, body.incident_id)
        : state.world.incidents
            .filter((i) => i.num === String(body.num).toUpperCase() && !i.deleted_at)
            .reduce<IncidentInfo | undefined>(
              (latest, i) => (!latest || i.start_time > latest.start_time ? i : latest),
              undefined,
            );
    return incident ? ok(structuredClone(incident)) : missing(String(body.incident_id ?? body.num));
  },
  '/incident/list-by-ids': async (state, body) => {
    const items = (body.incident_ids as string[])
      .map((id) => findIncident(state, id))
      .filter((i): i is IncidentInfo => i !== undefined);
    return ok({ items: structuredClone(items), total: items.length, has_next_page: false });
  },
  '/incident/create': async (state, body, personId) => {
    const channel = body.channel_id as number | undefined;
    if (channel && !state.world.channels.some((c) => c.channel_id === channel)) return missing(channel);
    const assigned = (body.assigned_to as { person_ids?: number[] } | undefined)?.person_ids;
    const title = typeof body.title === 'string' && body.title.trim() !== '' ? body.title : 'Untitled incident';
    const incident = await state.actions.create({
      title,
      incident_severity: body.incident_severity as 'Critical' | 'Warning' | 'Info',
      ...(channel ? { channel_id: channel } : {}),
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      person_id: personId,
      ...(assigned ? { assign_to: assigned } : {}),
    });
    return ok({ incident_id: incident.incident_id, title: incident.title });
  },
  '/incident/ack': (state, body, personId) =>
    eachIncident(state, body.incident_ids, (id) => state.actions.ack(id, personId)),
  '/incident/unack': (state, body, personId) =>
    eachIncident(state, body.incident_ids, (id) => state.actions.unack(id, personId)),
  '/incident/wake': (state, body, personId) =>
    eachIncident(state, body.incident_ids, (id) => state.actions.wake(id, personId)),
  '/incident/snooze': (state, body, personId) =>
    eachIncident(state, body.incident_ids, (id) => state.actions.snooze(id, body.minutes as number, personId)),
  '/incident/reopen': (state, body, personId) =>
    eachIncident(state, body.incident_ids, (id) =>
      state.actions.reopen(id, personId, typeof body.reason === 'string' ? body.reason : undefined),
    ),
  '/incident/feed': async (state, body) => feedOf(state.world, body),
  '/audit/search': async (state, body) => searchAudit(state.auditLog, state.world, body),
  '/incident/comment': (state, body, personId) =>
    eachIncident(state, body.incident_ids, (id) =>
      state.actions.comment(id, (body.comment as string | undefined) ?? '', personId),
    ),
  '/incident/resolve': (state, body, personId) =>
    eachIncident(state, body.incident_ids, async (id) => {
      for (const field of ['root_cause', 'resolution'] as const) {
        if (typeof body[field] === 'string') await state.actions.update(id, field, body[field], personId);
      }
      return state.actions.close(id, personId);
    }),
  '/incident/remove': (state, body) =>
    eachIncident(state, body.incident_ids, async (id) => {
      const incident = findIncident(state, id) as IncidentInfo;
      incident.deleted_at = Math.floor(state.clock.now() / 1000);
    }),
  '/incident/assign': (state, body, personId) => {
    const ids =
      (body.incident_ids as string[] | undefined) ?? (body.incident_id ? [body.incident_id as string] : undefined);
    if (!ids) return Promise.resolve({ code: 'InvalidParameter', key: 'required', vars: { field: 'incident_ids' } });
    const people = (body.assigned_to as { person_ids?: number[] }).person_ids ?? [];
    return eachIncident(state, ids, (id) => state.actions.assign(id, people, personId));
  },
  '/incident/responder/add': (state, body, personId) =>
    eachIncident(state, [body.incident_id], async (id) => {
      for (const person of body.person_ids as number[]) await state.actions.addResponder(id, person, personId);
    }),
  '/incident/reset': (state, body, personId) => {
    const fields = UPDATABLE.filter((field) => typeof body[field] === 'string');
    if (fields.length === 0)
      return Promise.resolve({ code: 'InvalidParameter', key: 'required', vars: { field: 'title' } });
    return eachIncident(state, [body.incident_id], async (id) => {
      for (const field of fields) await state.actions.update(id, field, body[field] as string, personId);
    });
  },
  '/incident/merge': async (state, body, personId) => {
    const target = String(body.target_incident_id);
    const sources = body.source_incident_ids as string[];
    const unknown = [target, ...sources].find((id) => !findIncident(state, id));
    if (unknown) return missing(unknown);
    try {
      await state.actions.merge(target, sources, personId);
    } catch (error) {
      if (error instanceof MockActionError)
        return { code: 'InvalidParameter', key: 'action', vars: { reason: error.message } };
      throw error;
    }
    return ok(null);
  },
  // An incident's own alerts (active ones alone with `is_active`), their events with `include_events`.
  '/incident/alert/list': async (state, body) => {
    const incident = findIncident(state, body.incident_id);
    if (!incident) return missing(String(body.incident_id));
    const alerts = (state.world.alerts.get(incident.incident_id) ?? [])
      .filter((a) => typeof body.is_active !== 'boolean' || (a.alert_status !== 'Ok') === body.is_active)
      .map((a) => (body.include_events === true ? { ...a, events: state.world.events.get(a.alert_id) ?? [] } : a));
    const page = pageOf(
      alerts,
      { ...body, limit: body.limit || RULES['/incident/alert/list']?.paging?.limit },
      () => '',
    );
    return ok({ items: page.items, total: alerts.length });
  },
  '/alert/list-by-ids': async (state, body) => {
    const wanted = new Set(body.alert_ids as string[]);
    const items = allAlerts(state).filter((a) => wanted.has(a.alert_id));
    return ok({ items: structuredClone(items), total: items.length, has_next_page: false });
  },
  '/alert/info': async (state, body) => {
    const alert = allAlerts(state).find((a) => a.alert_id === body.alert_id);
    return alert ? ok(structuredClone(alert)) : missing(String(body.alert_id));
  },
  // Pages by number or by cursor (the last event's id), newest first unless `asc`.
  '/alert/event/list': async (state, body) => {
    if (!allAlerts(state).some((a) => a.alert_id === body.alert_id)) return missing(String(body.alert_id));
    const events = [...(state.world.events.get(String(body.alert_id)) ?? [])].sort(
      (a, b) =>
        ((a.event_time ?? 0) - (b.event_time ?? 0) || (a.event_id! < b.event_id! ? -1 : 1)) *
        (body.asc === true ? 1 : -1),
    );
    return ok(pageOf(events, body, (event) => String(event.event_id)));
  },
  '/safari/automation/rule/create': automation((registry, body, personId) => registry.create(body, personId)),
  '/safari/automation/rule/get': automation((registry, body) => registry.get(body)),
  '/safari/automation/rule/update': automation((registry, body, personId) => registry.update(body, personId)),
  '/safari/automation/rule/delete': automation((registry, body) => registry.delete(body)),
  '/alert/list': async (state, body) => {
    const start = body.start_time as number;
    const end = body.end_time as number;
    if (end <= start) return { code: 'InvalidParameter', key: 'endAfterStart' };
    if (end - start > MAX_WINDOW_SECONDS) return { code: 'InvalidParameter', key: 'window' };
    const asc = body.asc === true;
    const matches = allAlerts(state)
      .filter((a) => a.start_time >= start && a.start_time <= end)
      .filter((a) => body.is_active === undefined || (a.alert_status !== 'Ok') === body.is_active)
      .filter(
        (a) =>
          !(body.channel_ids as number[] | undefined)?.length || (body.channel_ids as number[]).includes(a.channel_id),
      )
      .sort((a, b) => (a.start_time - b.start_time || (a.alert_id < b.alert_id ? -1 : 1)) * (asc ? 1 : -1));
    return ok(pageOf(matches, body, (a) => `${a.start_time.toString(36)}.${a.alert_id}`));
  },
};

/** One page by cursor (search after the sort key of the last item) or by page number. */
function pageOf<T>(
  matches: T[],
  body: Body,
  keyOf: (item: T) => string,
): { items: T[]; total: number; has_next_page: boolean; search_after_ctx?: string } {
  const limit = (body.limit as number | undefined) || 20;
  let from = ((body.p as number | undefined) ?? 1) - 1;
  from *= limit;
  if (typeof body.search_after_ctx === 'string' && body.search_after_ctx !== '') {
    const index = matches.findIndex((item) => keyOf(item) === body.search_after_ctx);
    from = index < 0 ? matches.length : index + 1;
  }
  const items = matches.slice(from, from + limit);
  const more = from + limit < matches.length;
  const last = items[items.length - 1];
  return {
    items: structuredClone(items),
    total: Math.min(matches.length, 1000),
    has_next_page: more,
    ...(more && last ? { search_after_ctx: keyOf(last) } : {}),
  };
}

/** The operations of the world's own models. */
const WORLD_HANDLERS: Record<string, WorldHandler> = { ...MEMBER_HANDLERS, ...MAPPING_DATA_HANDLERS };

/** The handler of a path, if the mock answers it from its state: its own, the world's models', else the engine's. */
export function statefulHandler(path: string): Handler | undefined {
  const own = HANDLERS[path];
  if (own) return own;
  const world = WORLD_HANDLERS[path];
  if (world)
    return async (state, body, personId) =>
      world(
        {
          world: state.world,
          engine: state.engine,
          random: state.random,
          now: Math.floor(state.clock.now() / 1000),
          personId,
        },
        body,
      );
  if (engineAnswers(path)) return async (state, body, personId) => state.engine.run(path, body, personId);
  return undefined;
}

/** Paths the mock answers from its state here (beside /incident/list, the webhook history, the agents and skills). */
export const STATEFUL_OPERATION_PATHS = [
  ...new Set([...Object.keys(HANDLERS), ...Object.keys(WORLD_HANDLERS), ...ENGINE_PATHS]),
];
