// One engine for every resource family of the OpenAPI that no model of its own keeps, so that what a
// test writes it reads back: the families src/testing/generated/families.ts lists (channels and
// their rules, teams, schedules, calendars, templates, routes, status pages, …). Rules owned here:
// - create answers the new id and the fields given, as the create's answer names them; the record
//   then shows in the list (with its filters and paging, list-query.ts) and the info, with every
//   field it was given that the item names (records.ts);
// - an upsert keyed by what its caller gives (a route by its integration) makes or changes that one;
//   another makes a new one without its id, and changes the one its id names;
// - update changes the fields given; enable and disable set its status; delete removes it, and with
//   it what it scopes (a channel's rules); infos answer those of the ids that exist, in their order;
// - an id (or name, or reference id, where the call takes those instead) that names nothing is
//   ResourceNotFound; so is a scope that names nothing (a rule of a channel that does not exist);
//   a delete of what another record still names (a team that owns a channel) is ReferenceExist;
// - a record is answered as views.ts makes it: the names of what it names read at the time.

import { RULES } from '../../generated/operation-rules.js';
import { REQUEST_SCHEMAS, SCHEMA_DEFS } from '../../generated/request-schemas.js';
import { FAMILIES } from '../generated/families.js';
import { RESPONSES } from '../generated/responses.js';
import type { MockClock } from '../clock.js';
import type { OperationResult } from '../model/operation-result.js';
import { Random } from '../model/random.js';
import type { World } from '../model/world.js';
import type { FamilyRule, Role } from './family.js';
import { newId } from './ids.js';
import { filterAndSort, pageAnswer, pageOf } from './list-query.js';
import {
  answerOf,
  changeRecord,
  DEFS,
  mirrorAliases,
  newRecord,
  requiredOf,
  type ResourceRecord,
  sameId,
  textOf,
  type WriteContext,
} from './records.js';
import { REFERENCE_FIELDS, referencesIn } from './references.js';
import { FAMILY_HOOKS } from './family-hooks.js';
import { itemFields, viewOf } from './views.js';
import { FlashdutyError } from '../../internal/flashduty-error.js';

/** Each operation of a family: its base path and what it does. */
const OPERATIONS_OF = new Map<string, { base: string; role: Role }>(
  Object.entries(FAMILIES).flatMap(([base, rule]) =>
    Object.entries(rule.operations).map(([role, path]) => [path, { base, role: role as Role }]),
  ),
);

/** Every path the engine answers. */
export const ENGINE_PATHS: readonly string[] = [...OPERATIONS_OF.keys()];

/** Whether the engine answers this path. */
export function engineAnswers(path: string): boolean {
  return OPERATIONS_OF.has(path);
}

/** The family's id field of an operation the engine answers: a write naming it names that record, not a reference. */
export function ownIdOf(path: string): string | undefined {
  const operation = OPERATIONS_OF.get(path);
  return operation ? FAMILIES[operation.base]?.id : undefined;
}

const ok = (data: unknown): OperationResult => ({ data });
const notFound = (id: unknown): OperationResult => ({
  code: 'ResourceNotFound',
  key: 'notFound',
  vars: { id: typeof id === 'number' ? id : String(id) },
});

/** The records of every family, and the operations on them. */
export class ResourceEngine {
  readonly #world: World;
  readonly #clock: MockClock;
  readonly #random: Random;
  /** The scope of each record its item does not show (a war room's incident). */
  readonly #scopes = new WeakMap<ResourceRecord, Record<string, unknown>>();

  constructor(world: World, clock: MockClock, seed: number) {
    this.#world = world;
    this.#clock = clock;
    this.#random = new Random(seed * 257 + 11);
  }

  /** The records of a family, oldest first (live: the engine's own array). */
  records(base: string): ResourceRecord[] {
    let records = this.#world.resources.get(base);
    if (!records) this.#world.resources.set(base, (records = []));
    return records;
  }

  /** Answers one call of an operation the engine answers; its body already fits the request schema. */
  run(path: string, body: Record<string, unknown>, personId: number): OperationResult {
    const operation = OPERATIONS_OF.get(path);
    const rule = operation && FAMILIES[operation.base];
    if (!operation || !rule) return notFound(path);
    const family = { base: operation.base, rule, path };
    const refusal =
      this.#scopeRefusal(rule, body) ?? FAMILY_HOOKS[operation.base]?.refuse?.(body, this.#world, operation.role);
    if (refusal) return refusal;
    const context: WriteContext = {
      now: this.#clock.now(),
      personId,
      accountId: this.#world.account.account_id,
    };
    switch (operation.role) {
      case 'create':
        return this.#create(family, body, context);
      case 'upsert':
        return this.#upsert(family, body, context);
      case 'list':
        return this.#list(family, body);
      case 'info':
        return this.#info(family, body);
      case 'infos':
        return this.#infos(family, body);
      case 'update':
        return this.#update(family, body, context);
      case 'delete':
        return this.#delete(family, body, context);
      case 'enable':
      case 'disable':
        return this.#toggle(family, body, operation.role === 'enable', context);
    }
  }

  /**
   * Makes a record as a create would (seeding, and the models that keep a family's other rules
   * themselves): `fields` as given; `id` where the caller names it.
   */
  insert(base: string, fields: Record<string, unknown>, personId: number, id?: string | number): ResourceRecord {
    const rule = FAMILIES[base];
    if (!rule) throw new FlashdutyError(`mock: no resource family ${base}`);
    const context = { now: this.#clock.now(), personId, accountId: this.#world.account.account_id };
    return this.#add({ base, rule, path: '' }, fields, context, id);
  }

  /** Changes a record as an update would (the models that keep a family's other rules themselves). */
  change(base: string, record: ResourceRecord, fields: Record<string, unknown>, personId: number): void {
    const rule = FAMILIES[base];
    if (!rule) throw new FlashdutyError(`mock: no resource family ${base}`);
    const context = { now: this.#clock.now(), personId, accountId: this.#world.account.account_id };
    this.#change({ base, rule, path: '' }, record, fields, context);
  }

  /** The record of a family with this id, if there is one. */
  find(base: string, id: unknown): ResourceRecord | undefined {
    const rule = FAMILIES[base];
    return rule ? this.records(base).find((record) => sameId(record[rule.id], id)) : undefined;
  }

  /** A record as the API answers it (views.ts). */
  view(base: string, record: ResourceRecord): ResourceRecord {
    return viewOf(base, record, this.#world);
  }

  /** Removes a record (no checks: the caller made them). */
  remove(base: string, record: ResourceRecord): void {
    const records = this.records(base);
    const index = records.indexOf(record);
    if (index >= 0) records.splice(index, 1);
  }

  #create(family: Family, body: Record<string, unknown>, context: WriteContext): OperationResult {
    const record = this.#add(family, body, context);
    return ok(answerOf(RESPONSES[family.path]?.schema, DEFS, family.rule, this.view(family.base, record)));
  }

  #add(family: Family, body: Record<string, unknown>, context: WriteContext, given?: string | number): ResourceRecord {
    const { base, rule } = family;
    const fields = FAMILY_HOOKS[base]?.fields?.(body, this.#world) ?? body;
    const id =
      given ??
      newId(
        rule.example,
        this.#random,
        Math.floor(context.now / 1000),
        (candidate) => this.find(base, candidate) !== undefined,
      );
    const record = newRecord(rule, DEFS, fields, id, context);
    mirrorAliases(rule, record, fields);
    const hidden = Object.fromEntries(
      (rule.scope ?? []).filter((key) => !(key in record)).map((key) => [key, body[key]]),
    );
    if (Object.keys(hidden).length > 0) this.#scopes.set(record, hidden);
    this.records(base).push(record);
    FAMILY_HOOKS[base]?.written?.(this.#world, 'create', record, { ...hidden, ...record }, context);
    return record;
  }

  #upsert(family: Family, body: Record<string, unknown>, context: WriteContext): OperationResult {
    const { base, rule, path } = family;
    const id = body[rule.id];
    const keyed = requiredOf(REQUEST_SCHEMAS[path], SCHEMA_DEFS).includes(rule.id);
    const named = keyed || !(id === undefined || id === null || id === 0 || id === '');
    // Without its id, the family's own rule may name the one it changes (a team, by its name).
    const found = named
      ? { record: this.#lookup(family, body) }
      : FAMILY_HOOKS[base]?.upsertOf?.(body, this.records(base));
    if (found && 'refusal' in found) return found.refusal;
    const record = found?.record;
    if (!record && named && !keyed) return notFound(id);
    if (!record) {
      const made = this.#add(family, body, context, keyed ? (id as string | number) : undefined);
      return ok(answerOf(RESPONSES[path]?.schema, DEFS, rule, this.view(base, made)));
    }
    this.#change(family, record, body, context);
    return ok(answerOf(RESPONSES[path]?.schema, DEFS, rule, this.view(base, record)));
  }

  #update(family: Family, body: Record<string, unknown>, context: WriteContext): OperationResult {
    const record = this.#lookup(family, body);
    if (!record) return notFound(body[family.rule.id] ?? '');
    this.#change(family, record, body, context);
    return ok(answerOf(RESPONSES[family.path]?.schema, DEFS, family.rule, this.view(family.base, record)));
  }

  #change(family: Family, record: ResourceRecord, body: Record<string, unknown>, context: WriteContext): void {
    const fields = FAMILY_HOOKS[family.base]?.fields?.(body, this.#world) ?? body;
    changeRecord(family.rule, DEFS, record, fields, context);
    mirrorAliases(family.rule, record, fields);
    FAMILY_HOOKS[family.base]?.written?.(this.#world, 'update', record, this.#scoped(record), context);
  }

  #toggle(family: Family, body: Record<string, unknown>, on: boolean, context: WriteContext): OperationResult {
    const record = this.#lookup(family, body);
    if (!record) return notFound(body[family.rule.id] ?? '');
    // Its status, as the item keeps it: `status` (enabled, disabled), else `enabled`, else `disabled` (0, 1).
    const fields = itemFields(family.base);
    const toggled =
      'status' in fields
        ? { status: on ? 'enabled' : 'disabled' }
        : 'enabled' in fields
          ? { enabled: on }
          : { disabled: on ? 0 : 1 };
    changeRecord(family.rule, DEFS, record, toggled, context);
    return ok(answerOf(RESPONSES[family.path]?.schema, DEFS, family.rule, this.view(family.base, record)));
  }

  #info(family: Family, body: Record<string, unknown>): OperationResult {
    const record = this.#lookup(family, body);
    const key = body[family.rule.id] ?? Object.values(this.#keysOf(family, body))[0] ?? '';
    return record ? ok(this.view(family.base, record)) : notFound(key);
  }

  #infos(family: Family, body: Record<string, unknown>): OperationResult {
    const ids = body[`${family.rule.id}s`];
    const records = (Array.isArray(ids) ? ids : [])
      .map((id) => this.find(family.base, id))
      .filter((record): record is ResourceRecord => record !== undefined);
    return ok({ items: records.map((record) => this.view(family.base, record)) });
  }

  #list(family: Family, body: Record<string, unknown>): OperationResult {
    const { base, rule, path } = family;
    const paging = RULES[path]?.paging;
    const scoped = this.records(base).filter((record) =>
      (rule.scope ?? []).every((key) => body[key] === undefined || sameId(this.#scoped(record)[key], body[key])),
    );
    const kept = filterAndSort(scoped, body, {
      ...(rule.name ? { name: rule.name } : {}),
      ...(RULES[path]?.times ? { times: RULES[path]?.times } : {}),
      ...(paging?.cursorFields ? { cursorField: paging.cursorFields.request } : {}),
    });
    const page = pageOf(
      kept.map((record) => this.view(base, record)),
      body,
      paging,
    );
    return ok(pageAnswer(page, rule.items ?? 'items', RESPONSES[path]?.schema, DEFS, paging));
  }

  #delete(family: Family, body: Record<string, unknown>, context: WriteContext): OperationResult {
    const { base, rule } = family;
    const many = body[`${rule.id}s`];
    const targets: ResourceRecord[] = [];
    if (Array.isArray(many)) {
      for (const id of many) {
        const record = this.find(base, id);
        if (!record) return notFound(id);
        targets.push(record);
      }
    } else {
      const record = this.#lookup(family, body);
      if (!record) return notFound(body[rule.id] ?? Object.values(this.#keysOf(family, body))[0] ?? '');
      targets.push(record);
    }
    for (const record of targets) {
      const holder = this.#referrer(base, record);
      if (holder) return { code: 'ReferenceExist', key: 'referenceExist', vars: holder };
    }
    for (const record of targets) {
      for (const [childBase, child] of this.#scopedBy(base, record)) this.remove(childBase, child);
      this.remove(base, record);
      FAMILY_HOOKS[base]?.written?.(this.#world, 'delete', record, this.#scoped(record), context);
    }
    return ok(answerOf(RESPONSES[family.path]?.schema, DEFS, rule, {}));
  }

  /** The record a call names: by its id, else by the name or reference id it takes instead; within its scope. */
  #lookup(family: Family, body: Record<string, unknown>): ResourceRecord | undefined {
    const { base, rule } = family;
    const keys = this.#keysOf(family, body);
    // Without a key, a call names the one record of its scope (a war room: an incident's, of an integration).
    const scope = rule.scope ?? [];
    if (Object.keys(keys).length === 0 && (scope.length === 0 || scope.some((key) => body[key] === undefined)))
      return undefined;
    return this.records(base).find((record) => {
      const scoped = this.#scoped(record);
      return (
        Object.entries(keys).every(([key, value]) => sameId(record[key], value)) &&
        (rule.scope ?? []).every((key) => body[key] === undefined || sameId(scoped[key], body[key]))
      );
    });
  }

  /** What names one record in a call: its id; without it, its name or reference id (a team's `team_name`, `ref_id`). */
  #keysOf(family: Family, body: Record<string, unknown>): Record<string, unknown> {
    const { rule } = family;
    const id = body[rule.id];
    if (id !== undefined && id !== null && id !== '') return { [rule.id]: id };
    const properties = itemFields(family.base);
    return Object.fromEntries(
      [rule.name, 'ref_id']
        .filter((key): key is string => key !== undefined && key in properties)
        .filter((key) => typeof body[key] === 'string' && body[key] !== '')
        .map((key) => [key, body[key]]),
    );
  }

  /** A record with its scope, the part its item shows and the part only the engine keeps. */
  #scoped(record: ResourceRecord): ResourceRecord {
    return { ...record, ...this.#scopes.get(record) };
  }

  /** A call whose scope names nothing (a rule of a channel the world does not have): ResourceNotFound. */
  #scopeRefusal(rule: FamilyRule, body: Record<string, unknown>): OperationResult | undefined {
    for (const key of rule.scope ?? []) {
      const value = body[key];
      if (value === undefined || value === null) continue;
      const parent = PARENTS[key];
      if (parent && !parent(this, this.#world, value))
        return notFound(typeof value === 'number' ? value : textOf(value));
    }
    return undefined;
  }

  /** The records a record scopes (a channel's rules), by family. */
  #scopedBy(base: string, record: ResourceRecord): Array<[string, ResourceRecord]> {
    const id = FAMILIES[base]?.id;
    if (!id) return [];
    return Object.entries(FAMILIES)
      .filter(([, rule]) => rule.scope?.includes(id))
      .flatMap(([childBase]) =>
        this.records(childBase)
          .filter((child) => sameId(this.#scoped(child)[id], record[id]))
          .map((child): [string, ResourceRecord] => [childBase, child]),
      );
  }

  /** What still names a team, channel or schedule about to go (beside the records it scopes), if anything. */
  #referrer(base: string, record: ResourceRecord): { kind: string; id: string | number; by: string } | undefined {
    const rule = FAMILIES[base];
    const kind = rule && REFERENCE_FIELDS[rule.id];
    if (!rule || !kind) return undefined;
    const id = record[rule.id] as number;
    const leaving = new Set([record, ...this.#scopedBy(base, record).map(([, child]) => child)]);
    for (const [otherBase, records] of this.#world.resources) {
      const ownId = FAMILIES[otherBase]?.id;
      for (const other of records) {
        if (leaving.has(other)) continue;
        const named = referencesIn(other, new Set(ownId ? [ownId] : [])).some((r) => r.kind === kind && r.id === id);
        if (named) return { kind, id, by: `${otherBase.slice(1)} ${String(other[ownId ?? 'id'])}` };
      }
    }
    return undefined;
  }
}

/** An operation as the engine runs it: its family and its path. */
interface Family {
  base: string;
  rule: FamilyRule;
  path: string;
}

/** The fields that scope a family's records (`channel_id`, `cal_id`, `page_id`). */
const SCOPES = new Set(Object.values(FAMILIES).flatMap((rule) => rule.scope ?? []));

/**
 * How a scope field's parent is found: the incident, or the family whose id it is and that the
 * mock creates (an integration, which keys a route, is not the mock's to know).
 */
const PARENTS: Record<string, (engine: ResourceEngine, world: World, id: unknown) => boolean> = {
  incident_id: (_engine, world, id) =>
    world.incidents.some((i) => i.incident_id === String(id).toLowerCase() && !i.deleted_at),
  ...Object.fromEntries(
    Object.entries(FAMILIES)
      .filter(([, rule]) => rule.operations.create !== undefined && SCOPES.has(rule.id))
      .map(([base, rule]) => [
        rule.id,
        (engine: ResourceEngine, _world: World, id: unknown) => engine.find(base, id) !== undefined,
      ]),
  ),
};
