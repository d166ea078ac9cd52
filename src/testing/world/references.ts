// Which fields name a member, a team, a channel or a schedule, at any depth of a request or a
// record, and whether what they name exists: a schedule's `layers[].groups[].members[].person_ids`,
// an escalation rule's targets (whose `schedule_to_role_ids` names schedules by its keys). Rules
// owned here: 0 names nothing; a write that names what the world does not have (or a member who was
// removed) is refused with ResourceNotFound naming the field and the id, before it changes
// anything; the fields that say who created or last changed a record are history, not references.

import type { World } from '../model/world.js';
import type { OperationResult } from '../model/operation-result.js';

/** What a reference names. */
export type Kind = 'member' | 'team' | 'channel' | 'schedule';

/** The fields that name a member, a team or a channel, wherever they are. */
export const REFERENCE_FIELDS: Readonly<Record<string, Kind>> = {
  person_id: 'member',
  person_ids: 'member',
  member_id: 'member',
  member_ids: 'member',
  owner_id: 'member',
  responder_ids: 'member',
  manager_ids: 'member',
  team_id: 'team',
  team_ids: 'team',
  managing_team_ids: 'team',
  channel_id: 'channel',
  channel_ids: 'channel',
  oncall_incident_channel_ids: 'channel',
  schedule_id: 'schedule',
  schedule_ids: 'schedule',
};

/** Fields whose keys, not values, are references: an escalation target's schedules. */
const KEYED_FIELDS: Readonly<Record<string, Kind>> = { schedule_to_role_ids: 'schedule' };

/** One id a field names. */
export interface Reference {
  kind: Kind;
  id: number;
  /** Its place: `person_ids`, `layers[0].groups[1].members[0].person_ids`. */
  field: string;
}

/** Every reference in `value`, at any depth; `skip` are top-level fields that are not references there (a record's own id). */
export function referencesIn(value: unknown, skip: ReadonlySet<string> = new Set()): Reference[] {
  const found: Reference[] = [];
  const walk = (node: unknown, place: string, top: boolean) => {
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${place}[${i}]`, false));
    else if (typeof node === 'object' && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        const field = place ? `${place}.${key}` : key;
        const kind = REFERENCE_FIELDS[key];
        const keyed = KEYED_FIELDS[key];
        if (kind && !(top && skip.has(key))) {
          for (const id of [child].flat()) if (typeof id === 'number' && id !== 0) found.push({ kind, id, field });
        } else if (keyed && typeof child === 'object' && child !== null) {
          for (const id of Object.keys(child as object))
            if (Number(id) !== 0) found.push({ kind: keyed, id: Number(id), field });
        } else walk(child, field, false);
      }
    }
  };
  walk(value, '', true);
  return found;
}

/** Whether the world has what a reference names (a removed member does not count for new writes). */
export function exists(world: World, { kind, id }: Pick<Reference, 'kind' | 'id'>, live = true): boolean {
  switch (kind) {
    case 'member':
      return world.members.some((m) => m.person_id === id && (!live || m.status !== 'deleted'));
    case 'team':
      return world.teams.some((t) => t.team_id === id);
    case 'channel':
      return world.channels.some((c) => c.channel_id === id);
    case 'schedule':
      return (world.resources.get('/schedule') ?? []).some((s) => s.schedule_id === id);
  }
}

/** The refusal of a write naming what does not exist, or undefined when everything it names does. */
export function missingReference(world: World, body: unknown, skip?: ReadonlySet<string>): OperationResult | undefined {
  const missing = referencesIn(body, skip).find((reference) => !exists(world, reference));
  if (!missing) return undefined;
  return {
    code: 'ResourceNotFound',
    key: 'referenceMissing',
    vars: { kind: missing.kind, id: missing.id, field: missing.field },
  };
}

/** Takes a member out of every list of members in `value`, at any depth (a team's, a schedule group's). */
export function withoutMember(value: unknown, personId: number): void {
  if (Array.isArray(value)) for (const item of value) withoutMember(item, personId);
  else if (typeof value === 'object' && value !== null) {
    const node = value as Record<string, unknown>;
    for (const [key, child] of Object.entries(node)) {
      if (REFERENCE_FIELDS[key] === 'member' && Array.isArray(child)) node[key] = child.filter((id) => id !== personId);
      else withoutMember(child, personId);
    }
  }
}
