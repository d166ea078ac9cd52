// What a few families do that their schemas cannot say, beside the engine's rules for all: a team
// takes members by email too (an email no member has is ResourceNotFound), and its name is its own
// (an upsert of a name taken is InvalidParameter, unless `reset_if_name_exist`, which changes that
// team); a role a member holds
// cannot be deleted (ReferenceExist); a channel counts its open
// incidents by progress when read; a schedule's `group_id` is its team; a status page template's
// fields come in its `template`; a mapping schema's rows (mapping-data.ts) go with it; a war room is
// named after its incident, and its creation and deletion are rows of the incident's timeline.

import type { OperationResult } from '../model/operation-result.js';
import type { World } from '../model/world.js';
import type { Role } from './family.js';
import { MAPPING_DATA, removeRows } from './mapping-data.js';
import type { ResourceRecord, WriteContext } from './records.js';
import { addRow } from './timeline.js';

/** A family's own rules, each optional. */
export interface FamilyHooks {
  /** Refuses a call the family's rules do not allow, before anything changes. */
  refuse?(body: Record<string, unknown>, world: World, role: Role): OperationResult | undefined;
  /** The record an upsert without its id changes (a team of its name), or its refusal; undefined: a new one. */
  upsertOf?(
    body: Record<string, unknown>,
    records: ResourceRecord[],
  ): { record: ResourceRecord } | { refusal: OperationResult } | undefined;
  /** The fields a write gives, as the item keeps them. */
  fields?(body: Record<string, unknown>, world: World): Record<string, unknown>;
  /** A record as read (a copy: it may be changed). */
  view?(record: ResourceRecord, world: World): ResourceRecord;
  /** After a write: `scoped` is the record with its scope (what it belongs to). */
  written?(
    world: World,
    what: 'create' | 'update' | 'delete',
    record: ResourceRecord,
    scoped: ResourceRecord,
    context: WriteContext,
  ): void;
}

/** The members a team write names by email. */
function emailsOf(body: Record<string, unknown>): string[] {
  return Array.isArray(body.emails) ? body.emails.filter((e): e is string => typeof e === 'string') : [];
}

function memberByEmail(world: World, email: string) {
  return world.members.find((m) => m.email.toLowerCase() === email.toLowerCase() && m.status !== 'deleted');
}

export const FAMILY_HOOKS: Record<string, FamilyHooks> = {
  '/team': {
    upsertOf(body, records) {
      const named = records.find((team) => team.team_name === body.team_name);
      if (!named) return undefined;
      if (body.reset_if_name_exist === true) return { record: named };
      const reason = `a team is named ${String(body.team_name)}`;
      return { refusal: { code: 'InvalidParameter', key: 'action', vars: { reason } } };
    },
    refuse(body, world) {
      const unknown = emailsOf(body).find((email) => !memberByEmail(world, email));
      return unknown === undefined
        ? undefined
        : { code: 'ResourceNotFound', key: 'referenceMissing', vars: { kind: 'member', id: unknown, field: 'emails' } };
    },
    fields(body, world) {
      const emails = emailsOf(body);
      if (emails.length === 0) return body;
      const ids = [...((body.person_ids as number[] | undefined) ?? [])];
      for (const email of emails) {
        const id = memberByEmail(world, email)?.person_id;
        if (id !== undefined && !ids.includes(id)) ids.push(id);
      }
      return { ...body, person_ids: ids };
    },
  },
  '/role': {
    refuse(body, world, role) {
      if (role !== 'delete') return undefined;
      const holder = world.members.find((m) => m.status !== 'deleted' && m.role_ids.includes(body.role_id as number));
      return holder
        ? {
            code: 'ReferenceExist',
            key: 'referenceExist',
            vars: { kind: 'role', id: String(body.role_id), by: holder.person_name },
          }
        : undefined;
    },
  },
  '/channel': {
    view(record, world) {
      const open = world.incidents.filter(
        (i) => i.channel_id === record.channel_id && !i.deleted_at && i.progress !== 'Closed',
      );
      record.progress_to_incident_cnts = {
        Triggered: open.filter((i) => i.progress === 'Triggered').length,
        Processing: open.filter((i) => i.progress === 'Processing').length,
      };
      return record;
    },
  },
  '/enrichment/mapping/schema': {
    written(world, what, record) {
      if (what === 'delete') removeRows(world.resources.get(MAPPING_DATA), record.schema_id);
    },
  },
  '/schedule': {
    fields: (body) => (body.team_id === undefined ? body : { ...body, group_id: body.team_id }),
  },
  '/status-page/template': {
    fields: (body) =>
      typeof body.template === 'object' && body.template !== null
        ? { ...body, ...(body.template as Record<string, unknown>) }
        : body,
  },
  '/incident/war-room': {
    fields(body, world) {
      const incident = world.incidents.find((i) => i.incident_id === String(body.incident_id).toLowerCase());
      return { ...body, chat_name: `Incident #${incident?.num ?? ''} war room` };
    },
    written(world, what, record, scoped, context) {
      if (what === 'update') return;
      const detail = {
        integration_id: scoped.integration_id,
        chat_id: record.chat_id,
        chat_name: record.chat_name,
        ...(what === 'create' ? { share_link: record.share_link } : {}),
      };
      const type = what === 'create' ? 'i_wr_create' : 'i_wr_delete';
      addRow(world, String(scoped.incident_id).toLowerCase(), type, detail, context.personId, context.now);
    },
  },
};
