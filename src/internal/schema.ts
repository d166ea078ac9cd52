// A small checker for the subset of JSON Schema the OpenAPI's request schemas use: type, required,
// properties, items, enum/const, pattern, numeric and length bounds, $ref, allOf/anyOf/oneOf. It
// answers the first problem with the field's path (`incident_ids[2]`), the way the server names it.
// Any `format` passes: it is the server's to judge. Unknown properties pass unless asked
// (`{ closed: true }`, the named methods): then a key of an object whose schema lists its properties
// (its own, its `allOf` parts' and its alternatives' together) must be one of them, so that a
// misspelt filter is refused rather than sent and ignored; an object that lists none, or says it
// takes more (`additionalProperties`), stays open. Enum membership can be left out too
// (`{ enums: false }`), for callers that must be able to send a value the service added later.
// A form's file field (`format: binary` in the OpenAPI) has the type `binary`: a Blob (or File).
import type { Problem } from '../core/problem.js';
import { closest, oneOf } from './closest.js';

/** A JSON Schema reduced to the keywords this checker reads. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  /** The name of a shared schema. */
  $ref?: string;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  nullable?: boolean;
  /** The object takes keys beyond its `properties` (the OpenAPI's `additionalProperties`). */
  additionalProperties?: true;
}

const patterns = new Map<string, RegExp>();

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (typeof Blob !== 'undefined' && value instanceof Blob) return 'binary';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function fits(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** Which rules a check applies beyond shape (types, required fields, patterns, bounds). */
export interface CheckRules {
  /** Whether a value must be one of its `enum` (default true). */
  enums?: boolean;
  /** Whether a key the object's schema does not list is refused where it lists its properties (default false). */
  closed?: boolean;
}

/** The first problem of `value` against `schema`, or `undefined` when it fits. */
export function checkSchema(
  value: unknown,
  schema: Schema,
  defs: Record<string, Schema>,
  rules: CheckRules = {},
): Problem | undefined {
  return check(value, schema, defs, rules, '', 0, false);
}

/**
 * `part`: `schema` is one of the value's `allOf` parts or alternatives, which list only some of its
 * keys: the keys are checked where the value is seen whole, against every part's together.
 */
function check(
  value: unknown,
  schema: Schema,
  defs: Record<string, Schema>,
  rules: CheckRules,
  path: string,
  depth: number,
  part: boolean,
): Problem | undefined {
  if (depth > 64) return undefined; // a recursive schema over a deep value: the server judges the rest
  if (schema.$ref !== undefined) {
    const target = defs[schema.$ref];
    return target ? check(value, target, defs, rules, path, depth + 1, part) : undefined;
  }
  if (value === null && schema.nullable) return undefined;
  if (rules.closed && !part && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const problem = unknownKey(value as Record<string, unknown>, schema, defs, path);
    if (problem) return problem;
  }
  for (const each of schema.allOf ?? []) {
    const problem = check(value, each, defs, rules, path, depth + 1, true);
    if (problem) return problem;
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) {
    const problems = alternatives.map((each) => check(value, each, defs, rules, path, depth + 1, true));
    if (problems.every(Boolean)) return problems[0];
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => fits(value, type)))
      return { path, message: `expected ${types.join(' or ')}, got ${typeOf(value)}` };
    // A type that lists null lets null in, whatever its enum lists (a nullable enum's values are the others).
    if (value === null && types.includes('null')) return undefined;
  }
  if (schema.const !== undefined && value !== schema.const)
    return { path, message: `expected ${JSON.stringify(schema.const)}` };
  if (schema.enum && rules.enums !== false && !schema.enum.includes(value))
    return { path, message: oneOf(value, schema.enum) };
  if (typeof value === 'number') return checkNumber(value, schema, path);
  if (typeof value === 'string') return checkString(value, schema, path);
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      return { path, message: `expected at least ${schema.minItems} items` };
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      return { path, message: `expected at most ${schema.maxItems} items` };
    if (schema.items) {
      for (let i = 0; i < value.length; i++) {
        const problem = check(value[i], schema.items, defs, rules, `${path}[${i}]`, depth + 1, false);
        if (problem) return problem;
      }
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (record[name] === undefined) return { path: join(path, name), message: 'is required' };
    }
    // The value's fields, not the schema's: a body names a few of the many fields a schema lists.
    const properties = schema.properties;
    if (properties === undefined) return undefined;
    for (const name of Object.keys(record)) {
      const sub = Object.hasOwn(properties, name) ? properties[name] : undefined;
      if (sub === undefined || record[name] === undefined) continue;
      const problem = check(record[name], sub, defs, rules, join(path, name), depth + 1, false);
      if (problem) return problem;
    }
  }
  return undefined;
}

/**
 * The first key of `record` (a defined one: an undefined value is never sent) that the object's
 * schema does not list, with the listed key it was likely meant as.
 */
function unknownKey(
  record: Record<string, unknown>,
  schema: Schema,
  defs: Record<string, Schema>,
  path: string,
): Problem | undefined {
  const known = keysOf(schema, defs);
  if (!known) return undefined;
  for (const name of Object.keys(record)) {
    if (known.has(name) || record[name] === undefined) continue;
    const near = closest(name, [...known]);
    return {
      path: join(path, name),
      message: `not a field of this request${near ? ` (did you mean ${near}?)` : ''}`,
    };
  }
  return undefined;
}

/** The keys each schema lists, worked out once per schema: `undefined` where it lists none, or takes any. */
const listedKeys = new WeakMap<Schema, ReadonlySet<string> | undefined>();

/**
 * The keys an object's schema lists: its properties and its `allOf` parts' and alternatives'
 * (a value of any of them may carry them). `undefined` where an object may carry any key: the
 * schema lists none, says it takes more, or has an alternative that does.
 */
function keysOf(schema: Schema, defs: Record<string, Schema>): ReadonlySet<string> | undefined {
  if (listedKeys.has(schema)) return listedKeys.get(schema);
  const keys = listed(schema, defs, 0);
  const known = keys === 'any' || keys === 'none' ? undefined : keys;
  listedKeys.set(schema, known);
  return known;
}

/** The keys a schema lists (`'none'`: it says nothing of keys; `'any'`: it takes every key). */
function listed(schema: Schema, defs: Record<string, Schema>, depth: number): Set<string> | 'none' | 'any' {
  if (depth > 16) return 'any';
  if (schema.$ref !== undefined) {
    const target = defs[schema.$ref];
    return target ? listed(target, defs, depth + 1) : 'any';
  }
  if (schema.additionalProperties) return 'any';
  let keys: Set<string> | 'none' = schema.properties ? new Set(Object.keys(schema.properties)) : 'none';
  const add = (more: Set<string>) => {
    keys = keys === 'none' ? new Set(more) : new Set([...keys, ...more]);
  };
  for (const each of schema.allOf ?? []) {
    const more = listed(each, defs, depth + 1);
    if (more === 'any') return 'any';
    if (more !== 'none') add(more);
  }
  for (const each of schema.anyOf ?? schema.oneOf ?? []) {
    const more = listed(each, defs, depth + 1);
    // An alternative that lists no key takes every key of an object, unless it is no object at all.
    if (more === 'any' || (more === 'none' && takesObjects(each, defs))) return 'any';
    if (more !== 'none') add(more);
  }
  return keys;
}

/** Whether a schema may be an object (it names no type, or names `object`). */
function takesObjects(schema: Schema, defs: Record<string, Schema>): boolean {
  const target = schema.$ref === undefined ? schema : defs[schema.$ref];
  const type = target?.type;
  return type === undefined || type === 'object' || (Array.isArray(type) && type.includes('object'));
}

function checkNumber(value: number, schema: Schema, path: string): Problem | undefined {
  if (schema.minimum !== undefined && value < schema.minimum)
    return { path, message: `must be at least ${schema.minimum}` };
  if (schema.maximum !== undefined && value > schema.maximum)
    return { path, message: `must be at most ${schema.maximum}` };
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
    return { path, message: `must be greater than ${schema.exclusiveMinimum}` };
  if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum)
    return { path, message: `must be less than ${schema.exclusiveMaximum}` };
  return undefined;
}

function checkString(value: string, schema: Schema, path: string): Problem | undefined {
  if (schema.minLength !== undefined && value.length < schema.minLength)
    return { path, message: `must be at least ${schema.minLength} character${schema.minLength === 1 ? '' : 's'}` };
  if (schema.maxLength !== undefined && value.length > schema.maxLength)
    return { path, message: `must be at most ${schema.maxLength} characters` };
  if (schema.pattern !== undefined) {
    let pattern = patterns.get(schema.pattern);
    if (!pattern) {
      try {
        pattern = new RegExp(schema.pattern, 'u');
      } catch {
        return undefined; // a pattern JavaScript cannot read: the server judges
      }
      patterns.set(schema.pattern, pattern);
    }
    if (!pattern.test(value)) return { path, message: `does not match ${schema.pattern}` };
  }
  return undefined;
}
