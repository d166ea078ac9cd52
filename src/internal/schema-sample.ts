// The smallest value a schema (of the subset schema.ts checks) allows: required properties only,
// empty arrays where allowed, an enum's first value, a pattern's shortest fit for the id patterns the
// OpenAPI uses. The mock answers with it where the OpenAPI's example does not fit; the command line's
// examples and the tests build bodies with it.

import type { Schema } from './schema.js';

/** The smallest value `schema` allows (required properties only, empty arrays where allowed). */
export function sample(schema: Schema, defs: Record<string, Schema>, depth = 0): unknown {
  if (depth > 24) return null;
  if (schema.$ref !== undefined) {
    const target = defs[schema.$ref];
    return target ? sample(target, defs, depth + 1) : null;
  }
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.allOf) {
    const { allOf, ...rest } = schema;
    return sample(mergeAll([...allOf, rest], defs), defs, depth + 1);
  }
  const alternative = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (alternative) return sample(alternative, defs, depth + 1);
  const type =
    (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type) ??
    (schema.properties || schema.required ? 'object' : undefined);
  switch (type) {
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [name, sample(schema.properties?.[name] ?? {}, defs, depth + 1)]),
      );
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items ?? {}, defs, depth + 1));
    case 'string':
      return sampleString(schema);
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
    case 'boolean':
      return false;
    case 'binary': // a form's file (the checker's type for `format: binary`): an empty one
      return new File([], 'file');
    default:
      return null;
  }
}

/** The parts of an allOf as one object schema: every property, every required name. */
function mergeAll(parts: Schema[], defs: Record<string, Schema>): Schema {
  const merged: Schema = { type: 'object', properties: {}, required: [] };
  for (const part of parts) {
    const resolved = part.$ref !== undefined ? (defs[part.$ref] ?? {}) : part;
    if (resolved.allOf) {
      const inner = mergeAll(resolved.allOf, defs);
      Object.assign(merged.properties as object, inner.properties);
      merged.required?.push(...(inner.required ?? []));
    }
    Object.assign(merged.properties as object, resolved.properties);
    merged.required?.push(...(resolved.required ?? []));
  }
  return merged;
}

function sampleString(schema: Schema): string {
  const hex = schema.pattern ? /^\^\[0-9a-fA-F\]\{(\d+)\}\$$/.exec(schema.pattern) : null;
  if (hex) return '0'.repeat(Number(hex[1]));
  return 'x'.repeat(schema.minLength ?? 0);
}
