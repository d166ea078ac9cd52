// The account's members through the API (`/member/*`, `/person/infos`, `/role/member/*`), over the
// world's people. Rules owned here: the list holds the members not removed, with `query` (in name
// or email), `role_id`, `orderby` and pages by `p` and `limit`; `member/info` is the caller; person
// infos answer every id the world has had, removed ones too (history names them); an invited member
// is `pending` until they join, and an email or name already taken is InvalidParameter; a member is
// found by id, name, email, phone or reference id, and one the world does not have (or removed) is
// ResourceNotFound; removing one whom a team, schedule or rule still names is ReferenceExist unless
// `is_force`, which takes them out of those; the account's owner cannot be removed; roles granted
// must exist.

import { RULES } from '../../generated/operation-rules.js';
import type { OperationResult } from '../model/operation-result.js';
import type { World } from '../model/world.js';
import type { ResourceEngine } from './engine.js';
import type { WorldContext, WorldHandler } from './handler.js';
import { pageOf } from './list-query.js';
import { type Member, MEMBER_ROLE_ID, serviceId } from './people.js';
import { sameId } from './records.js';
import { referencesIn, withoutMember } from './references.js';

const ok = (data: unknown): OperationResult => ({ data });
const refuse = (reason: string): OperationResult => ({ code: 'InvalidParameter', key: 'action', vars: { reason } });
const missing = (id: unknown): OperationResult => ({
  code: 'ResourceNotFound',
  key: 'referenceMissing',
  vars: { kind: 'member', id: String(id), field: 'member_id' },
});

/** What a member's and a person's answers share: the member's own profile. */
function profileOf(member: Member) {
  return {
    avatar: '',
    email: member.email,
    phone: member.phone,
    phone_verified: member.phone !== '',
    email_verified: member.status === 'enabled',
    status: member.status,
    locale: member.locale,
    time_zone: member.time_zone,
  };
}

/** A member as `/member/list` answers one. */
export function memberItem(world: World, member: Member): Record<string, unknown> {
  return {
    account_id: world.account.account_id,
    member_id: member.person_id,
    member_name: member.person_name,
    country_code: member.country_code,
    ...profileOf(member),
    account_role_ids: [...member.role_ids],
    created_at: member.created_at,
    updated_at: member.updated_at,
    ref_id: member.ref_id,
    is_external: false,
  };
}

/** The live member a call names: by id, else by name, email, phone or reference id. */
function findMember(world: World, body: Record<string, unknown>): Member | undefined {
  const live = world.members.filter((m) => m.status !== 'deleted');
  if (body.member_id !== undefined) return live.find((m) => sameId(m.person_id, body.member_id));
  const keys: Array<[string, keyof Member]> = [
    ['member_name', 'person_name'],
    ['email', 'email'],
    ['phone', 'phone'],
    ['ref_id', 'ref_id'],
  ];
  const given = keys.filter(([field]) => typeof body[field] === 'string' && body[field] !== '');
  if (given.length === 0) return undefined;
  return live.find((m) =>
    given.every(([field, own]) => String(m[own]).toLowerCase() === String(body[field]).toLowerCase()),
  );
}

/** The roles of `ids` the account does not have. */
function unknownRole(engine: ResourceEngine, ids: unknown): number | undefined {
  const given: unknown[] = Array.isArray(ids) ? ids : [];
  return given.find((id): id is number => engine.find('/role', id) === undefined);
}

/** Who still names a member, beside history (who created what). */
function namedBy(world: World, personId: number): string | undefined {
  for (const [base, records] of world.resources) {
    for (const record of records) {
      if (referencesIn(record).some((r) => r.kind === 'member' && r.id === personId)) return base.slice(1);
    }
  }
  return undefined;
}

export const MEMBER_HANDLERS: Record<string, WorldHandler> = {
  '/member/list': ({ world }, body) => {
    const query = typeof body.query === 'string' ? body.query.toLowerCase() : '';
    const order =
      body.orderby === 'updated_at' ? 'updated_at' : body.orderby === 'created_at' ? 'created_at' : undefined;
    const members = world.members
      .filter((m) => m.status !== 'deleted')
      .filter((m) => !query || m.person_name.toLowerCase().includes(query) || m.email.includes(query))
      .filter((m) => body.role_id === undefined || m.role_ids.includes(body.role_id as number));
    if (order) members.sort((a, b) => (a[order] - b[order]) * (body.asc === true ? 1 : -1));
    const page = pageOf(members, body, RULES['/member/list']?.paging);
    return ok({ p: page.p, limit: page.limit, total: page.total, items: page.items.map((m) => memberItem(world, m)) });
  },
  '/member/info': ({ world, personId }) => {
    const member = world.members.find((m) => m.person_id === personId);
    if (!member) return missing(personId);
    const { account } = world;
    return ok({
      ...memberItem(world, member),
      account_name: account.account_name,
      account_avatar: '',
      account_email: world.members[0]?.email ?? '',
      account_locale: account.account_locale,
      account_time_zone: account.account_time_zone,
      domain: 'demo-co',
    });
  },
  '/person/infos': ({ world }, body) => {
    const ids = Array.isArray(body.person_ids) ? body.person_ids : [];
    const items = ids
      .map((id) => world.members.find((m) => m.person_id === id))
      .filter((m): m is Member => m !== undefined)
      .map((m) => ({
        account_id: world.account.account_id,
        person_id: m.person_id,
        person_name: m.person_name,
        ...profileOf(m),
      }));
    return ok({ items });
  },
  '/member/invite': ({ world, engine, random, now }, body) => {
    const invited = Array.isArray(body.members) ? (body.members as Array<Record<string, unknown>>) : [];
    const role = unknownRole(
      engine,
      invited.flatMap((m): unknown[] => (Array.isArray(m.role_ids) ? m.role_ids : [])),
    );
    if (role !== undefined) return { code: 'ResourceNotFound', key: 'notFound', vars: { id: role } };
    const live = world.members.filter((m) => m.status !== 'deleted');
    const taken = (field: 'email' | 'person_name', value: string) =>
      live.some((m) => m[field].toLowerCase() === value.toLowerCase());
    for (const person of invited) {
      if (typeof person.email !== 'string' && typeof person.phone !== 'string')
        return refuse('an email or a phone is required');
      if (typeof person.email === 'string' && taken('email', person.email))
        return refuse(`a member has the email ${person.email}`);
      if (typeof person.member_name === 'string' && taken('person_name', person.member_name))
        return refuse(`a member is named ${person.member_name}`);
    }
    const items = invited.map((person) => {
      let id = serviceId(random);
      while (world.members.some((m) => m.person_id === id)) id = serviceId(random);
      const email = typeof person.email === 'string' ? person.email : '';
      const member: Member = {
        person_id: id,
        person_name:
          typeof person.member_name === 'string' ? person.member_name : email.split('@')[0] || String(person.phone),
        email,
        status: 'pending',
        phone: typeof person.phone === 'string' ? person.phone : '',
        country_code: typeof person.country_code === 'string' ? person.country_code : '',
        role_ids: Array.isArray(person.role_ids) ? (person.role_ids as number[]) : [MEMBER_ROLE_ID],
        locale: typeof person.locale === 'string' ? person.locale : 'en-US',
        time_zone: typeof person.time_zone === 'string' ? person.time_zone : world.account.account_time_zone,
        ref_id: typeof person.ref_id === 'string' ? person.ref_id : '',
        created_at: now,
        updated_at: now,
      };
      world.members.push(member);
      return { member_id: member.person_id, member_name: member.person_name };
    });
    return ok({ items });
  },
  '/member/delete': ({ world, personId }, body) => {
    const member = findMember(world, body);
    if (!member) return missing(body.member_id ?? body.member_name ?? body.email ?? body.phone ?? body.ref_id ?? '');
    if (member.person_id === world.members[0]?.person_id || member.person_id === personId)
      return refuse('the account owner cannot be removed');
    const by = namedBy(world, member.person_id);
    if (by && body.is_force !== true)
      return { code: 'ReferenceExist', key: 'referenceExist', vars: { kind: 'member', id: member.person_id, by } };
    if (by)
      for (const records of world.resources.values())
        for (const record of records) withoutMember(record, member.person_id);
    member.status = 'deleted';
    return ok({});
  },
  '/member/info/reset': ({ world, now }, body) => {
    const member = findMember(world, { member_id: body.member_id });
    if (!member) return missing(body.member_id);
    const fields: Array<[string, keyof Member]> = [
      ['member_name', 'person_name'],
      ['email', 'email'],
      ['phone', 'phone'],
      ['country_code', 'country_code'],
      ['locale', 'locale'],
      ['time_zone', 'time_zone'],
    ];
    for (const [field, own] of fields) {
      const value = body[field];
      if (typeof value !== 'string') continue;
      const clash =
        (own === 'email' || own === 'person_name') &&
        world.members.some(
          (m) => m !== member && m.status !== 'deleted' && String(m[own]).toLowerCase() === value.toLowerCase(),
        );
      if (clash) return refuse(`another member has the ${field} ${value}`);
    }
    for (const [field, own] of fields)
      if (typeof body[field] === 'string') Object.assign(member, { [own]: body[field] });
    member.updated_at = now;
    return ok({});
  },
  '/member/role/grant': (context, body) =>
    changeRoles(context, body, (held, given) => [...new Set([...held, ...given])]),
  '/member/role/revoke': (context, body) =>
    changeRoles(context, body, (held, given) => held.filter((id) => !given.includes(id))),
  '/member/role/update': (context, body) => changeRoles(context, body, (_held, given) => [...new Set(given)]),
  '/role/member/grant': (context, body) => eachMember(context, body, (held, role) => [...new Set([...held, role])]),
  '/role/member/revoke': (context, body) => eachMember(context, body, (held, role) => held.filter((id) => id !== role)),
};

/** A member's roles changed by `change` (its roles, the roles given), the roles checked first. */
function changeRoles(
  { world, engine, now }: WorldContext,
  body: Record<string, unknown>,
  change: (held: number[], given: number[]) => number[],
): OperationResult {
  const member = findMember(world, { member_id: body.member_id });
  if (!member) return missing(body.member_id);
  const role = unknownRole(engine, body.role_ids);
  if (role !== undefined) return { code: 'ResourceNotFound', key: 'notFound', vars: { id: role } };
  member.role_ids = change(member.role_ids, body.role_ids as number[]);
  member.updated_at = now;
  return ok({});
}

/** One role given to (or taken from) several members, all checked first. */
function eachMember(
  { world, engine, now }: WorldContext,
  body: Record<string, unknown>,
  change: (held: number[], role: number) => number[],
): OperationResult {
  if (!engine.find('/role', body.role_id))
    return { code: 'ResourceNotFound', key: 'notFound', vars: { id: String(body.role_id) } };
  const members = (body.member_ids as number[]).map((id) => findMember(world, { member_id: id }));
  const unknown = members.findIndex((m) => m === undefined);
  if (unknown >= 0) return missing((body.member_ids as number[])[unknown]);
  for (const member of members as Member[]) {
    member.role_ids = change(member.role_ids, body.role_id as number);
    member.updated_at = now;
  }
  return ok({});
}
