// The resource families the mock keeps state for, read from the OpenAPI by one rule each, for
// src/testing/generated/families.ts (the engine in src/testing/world/ serves them). Rules owned here:
// - a family is the operations under one base path (`/channel/silence/rule`): its verb is the last
//   segment (`create`, `upsert`, `list`, `info`, `get`, `detail`, `infos`, `update`, `delete`,
//   `enable`, `disable`; `list/basic` is a list); a base with a create (or upsert) and a list (or an
//   info) is a family, unless HAND_WRITTEN names it (a model of its own keeps it);
// - its id is the field its create's answer names (`*_id` or `id`, not `account_id`) that the create
//   does not require, preferring the one named after the base's last word (`rule_id`), then `id`;
//   an upsert whose answer names none is keyed by the `*_id` its request requires (`integration_id`);
// - its scope is the other `*_id` fields both its create and its delete (else its update, info or
//   list) require: what places an item under another (a channel's rules, a calendar's events);
// - one item's schema is the info's answer, else the list's item, else the create's answer: the
//   first that has the id; its name field is `<id's word>_name`, else `name`, `title`, `summary`;
// - the list's items are where its paging rule says, else the answer itself when it is an array,
//   else its one array field;
// - the item's own times (`created_at`, `update_at`, `created_at_seconds`) are set by the mock in
//   the unit the OpenAPI's example shows (milliseconds from 10^12 on), and its `creator_id`,
//   `created_by`, `updated_by` to the member who wrote;
// - the example of the id (the create's answer's, else the info's, else the list's first item's)
//   is what the mock's new ids look like.

import type { FamilyRule, Role } from '../../src/testing/world/family.js';
import { propertiesOf, requiredOf, type FieldSchema } from './fields.js';
import type { Document, Operation } from './methods.js';
import { bodySchemaOf } from './methods.js';
import { table } from './table.js';

const VERBS: Array<[string, Role]> = [
  ['list/basic', 'list'],
  ['create', 'create'],
  ['upsert', 'upsert'],
  ['list', 'list'],
  ['info', 'info'],
  ['get', 'info'],
  ['detail', 'info'],
  ['infos', 'infos'],
  ['update', 'update'],
  ['delete', 'delete'],
  ['enable', 'enable'],
  ['disable', 'disable'],
];

/** Families a hand-written model keeps, with where: the engine leaves them alone. */
export const HAND_WRITTEN: Record<string, string> = {
  '/incident': 'src/testing/model/incident-actions.ts and stateful-operations.ts',
};

/** One family's row of the generated table: its rule, its item's schema as the OpenAPI has it, compacted here. */
export type FamilyRow = Omit<FamilyRule, 'item'> & { item: unknown };

const TIME_FIELDS = ['created_at', 'updated_at', 'create_at', 'update_at', 'created_at_seconds', 'updated_at_seconds'];
const BY_FIELDS: Record<string, 'created' | 'updated'> = {
  creator_id: 'created',
  created_by: 'created',
  create_by: 'created',
  updated_by: 'updated',
  update_by: 'updated',
};

type Resolve = (schema: FieldSchema | undefined) => FieldSchema | undefined;
/** A schema as far as its required fields go. */
interface Shaped extends FieldSchema {
  required?: string[];
  allOf?: Shaped[];
}

/**
 * The families of `document`; `compactSchema` turns an item's schema into the checker's form (its
 * `$ref`s then name the responses' shared schemas); `itemsOf` is the list's items field its paging
 * rule names, if it pages.
 */
export function mockFamilies(
  document: Document,
  compactSchema: (schema: unknown) => unknown,
  itemsOf: (path: string) => string | undefined,
): Record<string, FamilyRow> {
  const resolve: Resolve = (schema) => {
    let current = schema;
    for (let hops = 0; current?.$ref && hops < 16; hops++)
      current = document.components.schemas[current.$ref.replace('#/components/schemas/', '')] as FieldSchema;
    return current;
  };
  const operationOf = (path: string): Operation => {
    const methods = document.paths[path] ?? {};
    return methods.post ?? methods.get ?? {};
  };
  const dataOf = (path: string): FieldSchema | undefined => {
    const envelope = resolve(
      operationOf(path).responses?.['200']?.content?.['application/json']?.schema as FieldSchema | undefined,
    );
    return envelope?.allOf?.find((part) => part.properties?.data)?.properties?.data;
  };
  const exampleOf = (path: string): unknown =>
    operationOf(path).responses?.['200']?.content?.['application/json']?.example?.data;
  const required = (path: string): string[] => {
    const operation = operationOf(path);
    const body = bodySchemaOf(operation) as Shaped | undefined;
    if (body) return requiredOf((schema: Shaped | undefined): Shaped | undefined => resolve(schema), body);
    return (operation.parameters ?? []).filter((p) => p.required).map((p) => p.name);
  };
  const fieldsOf = (schema: FieldSchema | undefined) => propertiesOf(resolve, schema);

  const bases = new Map<string, Partial<Record<Role, string>>>();
  for (const path of Object.keys(document.paths)) {
    const verb = VERBS.find(([suffix]) => path.endsWith(`/${suffix}`));
    if (!verb) continue;
    const base = path.slice(0, -verb[0].length - 1);
    const operations = bases.get(base) ?? {};
    operations[verb[1]] ??= path;
    bases.set(base, operations);
  }

  const rows: Record<string, FamilyRow> = {};
  for (const [base, operations] of bases) {
    const making = operations.create ?? operations.upsert;
    const reading = operations.list ?? operations.info;
    if (!making || !reading || base in HAND_WRITTEN) continue;
    const word = (base.split('/').pop() ?? '').split('-').pop() ?? '';
    const madeRequired = required(making);
    const answered = Object.keys(fieldsOf(dataOf(making))).filter(
      (key) => (key === 'id' || key.endsWith('_id')) && key !== 'account_id' && !madeRequired.includes(key),
    );
    const listItem = operations.list ? listItemSchema(operations.list) : undefined;
    const candidates = [operations.info && dataOf(operations.info), listItem, dataOf(making)].filter(
      (schema): schema is FieldSchema => schema !== undefined,
    );
    let id = answered.find((key) => key === `${word}_id`) ?? answered.find((key) => key === 'id') ?? answered[0];
    // An upsert keyed by what its caller gives (a route, keyed by its integration).
    id ??= madeRequired.find((key) => key.endsWith('_id') && candidates.some((schema) => key in fieldsOf(schema)));
    if (!id) continue;
    const item = candidates.find((schema) => id in fieldsOf(schema));
    if (!item) continue;
    const properties = fieldsOf(item);
    const other = operations.delete ?? operations.update ?? operations.info ?? operations.list;
    const scope = madeRequired.filter(
      (key) => key !== id && key.endsWith('_id') && other !== undefined && required(other).includes(key),
    );
    const idWord = id === 'id' ? word : id.replace(/_id$/, '');
    const name = [`${idWord}_name`, 'name', 'title', 'summary'].find((key) => key in properties);
    const example = exampleId(id, [
      exampleOf(making),
      operations.info && exampleOf(operations.info),
      operations.list && firstItem(exampleOf(operations.list), listItemsKey(operations.list)),
    ]);
    const sampleItem =
      (operations.info && exampleOf(operations.info)) ??
      (operations.list ? firstItem(exampleOf(operations.list), listItemsKey(operations.list)) : undefined);
    const times = Object.fromEntries(
      TIME_FIELDS.filter((key) => key in properties).map((key) => [key, unitOf(key, sampleItem)]),
    );
    const by = Object.fromEntries(
      Object.entries(BY_FIELDS).filter(([key]) => [resolve(properties[key])?.type ?? []].flat().includes('integer')),
    );
    const items = operations.list ? listItemsKey(operations.list) : undefined;
    rows[base] = {
      id,
      ...(example !== undefined ? { example } : {}),
      ...(scope.length > 0 ? { scope } : {}),
      ...(name ? { name } : {}),
      ...(items !== undefined ? { items } : {}),
      ...(Object.keys(times).length > 0 ? { times } : {}),
      ...(Object.keys(by).length > 0 ? { by } : {}),
      item: compactSchema(item),
      operations,
    };
  }
  return rows;

  /** Where a list's items are in its answer: its paging rule's field, the answer itself (`''`), or its one array. */
  function listItemsKey(path: string): string | undefined {
    const paged = itemsOf(path);
    if (paged) return paged;
    const data = resolve(dataOf(path));
    if (data?.type === 'array') return '';
    const arrays = Object.entries(fieldsOf(data)).filter(([, schema]) => resolve(schema)?.type === 'array');
    return arrays.find(([key]) => key === 'items')?.[0] ?? (arrays.length === 1 ? arrays[0]?.[0] : undefined);
  }

  function listItemSchema(path: string): FieldSchema | undefined {
    const key = listItemsKey(path);
    if (key === undefined) return undefined;
    const data = resolve(dataOf(path));
    return key === '' ? data?.items : resolve(fieldsOf(data)[key])?.items;
  }
}

function firstItem(example: unknown, key: string | undefined): unknown {
  if (key === undefined) return undefined;
  const list = key === '' ? example : (example as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(list) ? list[0] : undefined;
}

function exampleId(id: string, examples: unknown[]): string | number | undefined {
  for (const example of examples) {
    const value = (example as Record<string, unknown> | undefined)?.[id];
    if (typeof value === 'number' || (typeof value === 'string' && value !== '')) return value;
  }
  return undefined;
}

/** A time's unit: seconds where its name says so, else as its example reads (milliseconds from 10^12 on). */
function unitOf(key: string, example: unknown): 's' | 'ms' {
  if (key.endsWith('_seconds')) return 's';
  const value = (example as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'number' && value >= 1e12 ? 'ms' : 's';
}

/** `src/testing/generated/families.ts`. */
export function familiesFile(rows: Record<string, FamilyRow>, header: string): string {
  return `${header}
// The resource families the mock keeps (scripts/generate/mock-families.ts says how each is read from
// the OpenAPI): for each base path, its operations by what they do, its id and what new ids look
// like, what scopes an item, its name field, where a list's items are, the times and members the mock
// sets, and the schema of one item. The engine (src/testing/world/engine.ts) serves them.

import type { FamilyRule } from '../world/family.js';

/** Every family the engine keeps, by base path. */
export const FAMILIES: Record<string, FamilyRule> = ${table(rows)};
`;
}
