// One record of a resource family as the engine keeps it: an object shaped like the family's item
// schema. Rules owned here: a new record holds every field its item schema requires (the smallest
// value the schema allows) and the fields it was given that the schema names, each completed, at
// any depth, with what its schema requires there (a schedule's layers as the item describes them);
// then what the service sets itself (its id, the account, `enabled` for a status that has it, its
// times in their unit, the member who wrote it); an item that shows its id or name twice keeps the
// two alike; an answer's fields come from the record, a field the record lacks by its name (`page_name` from the page's `name`,
// `change_name` from the record's name field), else the smallest value its schema allows.

import { SCHEMA_DEFS } from '../../generated/request-schemas.js';
import type { Schema } from '../../internal/schema.js';
import { sample } from '../../internal/schema-sample.js';
import { RESPONSE_DEFS } from '../generated/responses.js';
import type { FamilyRule } from './family.js';

/** The shared schemas of the requests and the answers, which the families' schemas name. */
export const DEFS: Record<string, Schema> = { ...SCHEMA_DEFS, ...RESPONSE_DEFS };

/** A record of a resource family: the item as the API answers it. */
export type ResourceRecord = Record<string, unknown>;

/** The schema a `$ref` names, followed to its end. */
export function resolveSchema(schema: Schema | undefined, defs: Record<string, Schema>): Schema | undefined {
  let current = schema;
  for (let hops = 0; current?.$ref !== undefined && hops < 16; hops++) current = defs[current.$ref];
  return current;
}

/** The properties of an object schema, through `$ref` and `allOf`. */
export function propertiesOf(schema: Schema | undefined, defs: Record<string, Schema>): Record<string, Schema> {
  const resolved = resolveSchema(schema, defs);
  const own: Record<string, Schema> = { ...resolved?.properties };
  for (const part of resolved?.allOf ?? []) Object.assign(own, propertiesOf(part, defs));
  return own;
}

/** The required fields of an object schema, through `$ref` and `allOf`. */
export function requiredOf(schema: Schema | undefined, defs: Record<string, Schema>): string[] {
  const resolved = resolveSchema(schema, defs);
  return [...(resolved?.required ?? []), ...(resolved?.allOf ?? []).flatMap((part) => requiredOf(part, defs))];
}

/** A value as text: a string as it is, a number or boolean written out, anything else as JSON. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

/** Whether two ids are the same, whatever the wire made of them (a query parameter is text). */
export function sameId(a: unknown, b: unknown): boolean {
  return a !== undefined && a !== null && b !== undefined && b !== null && textOf(a) === textOf(b);
}

/** What a write knows besides its fields: the clock, who writes, the account. */
export interface WriteContext {
  /** Unix ms. */
  now: number;
  personId: number;
  accountId: number;
}

/** A new record of `rule` holding `fields` (those its item names), with what the service sets on creation. */
export function newRecord(
  rule: FamilyRule,
  defs: Record<string, Schema>,
  fields: Record<string, unknown>,
  id: string | number,
  context: WriteContext,
): ResourceRecord {
  const properties = propertiesOf(rule.item, defs);
  const record: ResourceRecord = {};
  for (const name of requiredOf(rule.item, defs)) record[name] = sample(properties[name] ?? {}, defs);
  const status = resolveSchema(properties.status, defs);
  if (status?.enum?.includes('enabled')) record.status = 'enabled';
  if ('account_id' in properties) record.account_id = context.accountId;
  Object.assign(record, given(rule, properties, fields, defs));
  record[rule.id] = id;
  stamp(rule, record, context, 'created');
  return record;
}

/** Changes a record by the fields given (those its item names, never its id or scope), stamped as changed. */
export function changeRecord(
  rule: FamilyRule,
  defs: Record<string, Schema>,
  record: ResourceRecord,
  fields: Record<string, unknown>,
  context: WriteContext,
): void {
  const { [rule.id]: _id, ...rest } = fields;
  for (const key of rule.scope ?? []) delete rest[key];
  Object.assign(record, given(rule, propertiesOf(rule.item, defs), rest, defs));
  stamp(rule, record, context, 'updated');
}

/** The fields of a request the item names, as given, completed to what the item's schema requires of them. */
function given(
  rule: FamilyRule,
  properties: Record<string, Schema>,
  fields: Record<string, unknown>,
  defs: Record<string, Schema>,
) {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([key, value]) => key in properties && value !== undefined && key !== rule.id)
      .map(([key, value]) => [key, completed(structuredClone(value), properties[key], defs)]),
  );
}

/** `value` with what `schema` requires added where it lacks it, at any depth (the smallest value allowed). */
function completed(value: unknown, schema: Schema | undefined, defs: Record<string, Schema>, depth = 0): unknown {
  const resolved = resolveSchema(schema, defs);
  if (!resolved || depth > 16) return value;
  if (Array.isArray(value))
    return resolved.items ? value.map((item) => completed(item, resolved.items, defs, depth + 1)) : value;
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  const properties = propertiesOf(resolved, defs);
  for (const name of requiredOf(resolved, defs))
    if (!(name in object)) object[name] = sample(properties[name] ?? {}, defs);
  for (const [name, child] of Object.entries(object))
    object[name] = completed(child, properties[name], defs, depth + 1);
  return object;
}

/** Sets the record's times (all of them on creation, the others on change) and who wrote it. */
function stamp(rule: FamilyRule, record: ResourceRecord, context: WriteContext, when: 'created' | 'updated'): void {
  for (const [field, unit] of Object.entries(rule.times ?? {})) {
    if (when === 'updated' && /^create/.test(field)) continue;
    record[field] = unit === 'ms' ? context.now : Math.floor(context.now / 1000);
  }
  for (const [field, by] of Object.entries(rule.by ?? {}))
    if (when === 'created' || by === 'updated') record[field] = context.personId;
}

/**
 * An answer of `schema` made from a record: each field from the record; one the record lacks by
 * its name (`page_name` → the record's `name` for the family whose id is `page_id`; any `*_name` →
 * the record's name field); else the smallest value its schema allows. A schema of no fields
 * answers `{}`; of `null`, `null`.
 */
export function answerOf(
  schema: Schema | undefined,
  defs: Record<string, Schema>,
  rule: FamilyRule,
  record: ResourceRecord,
): unknown {
  const resolved = resolveSchema(schema, defs);
  if (!resolved || resolved.type === 'null') return resolved ? null : {};
  const properties = propertiesOf(resolved, defs);
  const word = rule.id === 'id' ? '' : rule.id.replace(/_id$/, '_');
  const answer: Record<string, unknown> = {};
  const required = new Set(requiredOf(resolved, defs));
  for (const [field, fieldSchema] of Object.entries(properties)) {
    const alias = word && field.startsWith(word) ? field.slice(word.length) : undefined;
    const value =
      record[field] ??
      (alias !== undefined ? record[alias] : undefined) ??
      (field.endsWith('_name') && rule.name ? record[rule.name] : undefined);
    if (value !== undefined) answer[field] = structuredClone(value);
    else if (required.has(field)) answer[field] = sample(fieldSchema, defs);
  }
  return answer;
}

/**
 * An item that shows its id or its name twice (a schedule's `id` and `schedule_id`, `name` and
 * `schedule_name`): the two agree, the one a write gave winning.
 */
export function mirrorAliases(rule: FamilyRule, record: ResourceRecord, fields: Record<string, unknown>): void {
  if (rule.id !== 'id' && 'id' in record) record.id = record[rule.id];
  const name = rule.name;
  if (!name || name === 'name' || !('name' in record)) return;
  if (typeof fields[name] !== 'string' && typeof fields.name === 'string') record[name] = fields.name;
  else record.name = record[name];
}
