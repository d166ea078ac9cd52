// The mock's answer to every operation of the OpenAPI it does not model: the request is checked
// against the operation's request schema (InvalidParameter naming the field, as the service does),
// then answered with data that fits the operation's response schema: the OpenAPI's own example
// where it fits, else the smallest value the schema allows. Nothing is remembered.

import { SCHEMA_DEFS } from '../../generated/request-schemas.js';
import { checkSchema, type Schema } from '../../internal/schema.js';
import { RESPONSES, RESPONSE_DEFS } from '../generated/responses.js';

const DEFS: Record<string, Schema> = { ...SCHEMA_DEFS, ...RESPONSE_DEFS };

/** Paths the OpenAPI describes. */
export const OPENAPI_PATHS = Object.keys(RESPONSES);

/** Schema-valid `data` for a path's success answer. */
export function answerFor(path: string): unknown {
  const response = RESPONSES[path];
  if (!response) return null;
  if (response.example !== undefined && !checkSchema(response.example, response.schema, DEFS))
    return structuredClone(response.example);
  return sample(response.schema, 0);
}

/** The smallest value `schema` allows (required properties only, empty arrays where allowed). */
export function sample(schema: Schema, depth: number): unknown {
  if (depth > 24) return null;
  if (schema.$ref !== undefined) {
    const target = DEFS[schema.$ref];
    return target ? sample(target, depth + 1) : null;
  }
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.allOf) {
    const { allOf, ...rest } = schema;
    return sample(mergeAll([...allOf, rest]), depth + 1);
  }
  const alternative = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (alternative) return sample(alternative, depth + 1);
  const type =
    (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type) ??
    (schema.properties || schema.required ? 'object' : undefined);
  switch (type) {
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [name, sample(schema.properties?.[name] ?? {}, depth + 1)]),
      );
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items ?? {}, depth + 1));
    case 'string':
      return sampleString(schema);
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** The parts of an allOf as one object schema: every property, every required name. */
function mergeAll(parts: Schema[]): Schema {
  const merged: Schema = { type: 'object', properties: {}, required: [] };
  for (const part of parts) {
    const resolved = part.$ref !== undefined ? (DEFS[part.$ref] ?? {}) : part;
    if (resolved.allOf) {
      const inner = mergeAll(resolved.allOf);
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
