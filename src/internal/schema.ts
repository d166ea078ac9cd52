// A small checker for the subset of JSON Schema the OpenAPI's request schemas use: type, required,
// properties, items, enum/const, pattern, numeric and length bounds, $ref, allOf/anyOf/oneOf. It
// answers the first problem with the field's path (`incident_ids[2]`), the way the server names it.
// Unknown properties pass (the server may accept fields this copy of the OpenAPI does not list), and
// so does any `format`: both are the server's to judge. Enum membership can be left out too
// (`{ enums: false }`), for callers that must be able to send a value the service added later.
// A form's file field (`format: binary` in the OpenAPI) has the type `binary`: a Blob (or File).
import type { Problem } from '../core/problem.js';
import { oneOf } from './closest.js';

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
}

/** The first problem of `value` against `schema`, or `undefined` when it fits. */
export function checkSchema(
  value: unknown,
  schema: Schema,
  defs: Record<string, Schema>,
  rules: CheckRules = {},
  path = '',
  depth = 0,
): Problem | undefined {
  if (depth > 64) return undefined; // a recursive schema over a deep value: the server judges the rest
  if (schema.$ref !== undefined) {
    const target = defs[schema.$ref];
    return target ? checkSchema(value, target, defs, rules, path, depth + 1) : undefined;
  }
  if (value === null && schema.nullable) return undefined;
  for (const part of schema.allOf ?? []) {
    const problem = checkSchema(value, part, defs, rules, path, depth + 1);
    if (problem) return problem;
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) {
    const problems = alternatives.map((part) => checkSchema(value, part, defs, rules, path, depth + 1));
    if (problems.every(Boolean)) return problems[0];
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => fits(value, type)))
      return { path, message: `expected ${types.join(' or ')}, got ${typeOf(value)}` };
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
        const problem = checkSchema(value[i], schema.items, defs, rules, `${path}[${i}]`, depth + 1);
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
      const problem = checkSchema(record[name], sub, defs, rules, join(path, name), depth + 1);
      if (problem) return problem;
    }
  }
  return undefined;
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
