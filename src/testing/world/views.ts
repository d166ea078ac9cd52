// A record as the API answers it: a copy, with the names of what it names (`team_name`,
// `channel_name`, `creator_name`, `updated_by_name`) read at the time of the answer, wherever the
// item has such a field, and what its family's own rules add (family-hooks.ts).

import type { Schema } from '../../internal/schema.js';
import { FAMILIES } from '../generated/families.js';
import type { World } from '../model/world.js';
import { FAMILY_HOOKS } from './family-hooks.js';
import { DEFS, propertiesOf, type ResourceRecord } from './records.js';

const ITEM_FIELDS = new Map<string, Record<string, Schema>>();

/** The fields a family's item has, by name (read once per family). */
export function itemFields(base: string): Record<string, Schema> {
  let fields = ITEM_FIELDS.get(base);
  if (!fields) ITEM_FIELDS.set(base, (fields = propertiesOf(FAMILIES[base]?.item, DEFS)));
  return fields;
}

/** The names a record shows of what it names: field, the field naming it, and what it names. */
const DERIVED_NAMES: ReadonlyArray<[string, string, 'member' | 'team' | 'channel']> = [
  ['team_name', 'team_id', 'team'],
  ['channel_name', 'channel_id', 'channel'],
  ['creator_name', 'creator_id', 'member'],
  ['updated_by_name', 'updated_by', 'member'],
];

/** A record of `base` as the API answers it. */
export function viewOf(base: string, record: ResourceRecord, world: World): ResourceRecord {
  const copy = structuredClone(record);
  const name = (kind: 'member' | 'team' | 'channel', id: unknown): string | undefined => {
    if (kind === 'member') return world.members.find((m) => m.person_id === id)?.person_name;
    if (kind === 'team') return world.teams.find((t) => t.team_id === id)?.team_name;
    return world.channels.find((c) => c.channel_id === id)?.channel_name;
  };
  const fields = itemFields(base);
  for (const [field, from, kind] of DERIVED_NAMES) {
    if ((field in copy || field in fields) && from in copy) copy[field] = name(kind, copy[from]) ?? '';
  }
  return FAMILY_HOOKS[base]?.view?.(copy, world) ?? copy;
}
