// A fast yes/no checker compiled from a zod schema's definition. `validate: 'deep'` runs it first and
// asks zod only when it says no, for zod's exact issue and path. The zod schemas stay the single
// source of truth: this walks their definitions, and any construct it does not know makes it
// decline (return undefined), so zod alone decides. It is faster than safeParse mostly because
// nothing is copied (docs/performance.md).

import type * as z from 'zod/mini';

export type Check = (value: unknown) => boolean;

interface Def {
  type: string;
  format?: string;
  checks?: Array<{ _zod: { def: { check?: string; format?: string; pattern?: RegExp } } }>;
  innerType?: Schema;
  element?: Schema;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  keyType?: Schema;
  valueType?: Schema;
}
type Schema = { _zod: { def: Def } };

export function compile(schema: z.ZodMiniType): Check | undefined {
  return compileDef((schema as unknown as Schema)._zod.def);
}

function compileDef(def: Def): Check | undefined {
  switch (def.type) {
    case 'string':
      return compileString(def);
    case 'number':
      if (def.checks?.length) return undefined;
      if (def.format === 'safeint') return (v) => Number.isSafeInteger(v);
      return def.format === undefined ? (v) => typeof v === 'number' && Number.isFinite(v) : undefined;
    case 'boolean':
      return def.checks?.length ? undefined : (v) => typeof v === 'boolean';
    case 'unknown':
    case 'any':
      return () => true;
    case 'optional': {
      const inner = def.innerType && compileDef(def.innerType._zod.def);
      return inner && ((v) => v === undefined || inner(v));
    }
    case 'nullable': {
      const inner = def.innerType && compileDef(def.innerType._zod.def);
      return inner && ((v) => v === null || inner(v));
    }
    case 'array':
      return compileArray(def);
    case 'record':
      return compileRecord(def);
    case 'object':
      return compileObject(def);
    default:
      return undefined;
  }
}

function compileString(def: Def): Check | undefined {
  const patterns: RegExp[] = [];
  for (const check of def.checks ?? []) {
    const { check: kind, format, pattern } = check._zod.def;
    if (kind !== 'string_format' || format !== 'regex' || !(pattern instanceof RegExp)) return undefined;
    patterns.push(new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')));
  }
  if (patterns.length === 0) return (v) => typeof v === 'string';
  return (v) => typeof v === 'string' && patterns.every((p) => p.test(v));
}

function compileArray(def: Def): Check | undefined {
  if (def.checks?.length || !def.element) return undefined;
  const element = compileDef(def.element._zod.def);
  if (!element) return undefined;
  return (v) => {
    if (!Array.isArray(v)) return false;
    for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
    return true;
  };
}

function compileRecord(def: Def): Check | undefined {
  const key = def.keyType?._zod.def;
  if (def.checks?.length || key?.type !== 'string' || key.checks?.length || !def.valueType) return undefined;
  const value = compileDef(def.valueType._zod.def);
  if (!value) return undefined;
  return (v) => {
    if (!isPlainObject(v)) return false;
    for (const k in v) if (Object.hasOwn(v, k) && !value(v[k])) return false;
    return true;
  };
}

function compileObject(def: Def): Check | undefined {
  // Only loose objects (unknown keys allowed) and stripping ones; a strict catchall declines.
  if (def.checks?.length || !def.shape) return undefined;
  if (def.catchall && def.catchall._zod.def.type !== 'unknown') return undefined;
  const fields: Array<[string, Check]> = [];
  for (const [name, schema] of Object.entries(def.shape)) {
    const check = compileDef(schema._zod.def);
    if (!check) return undefined;
    fields.push([name, check]);
  }
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const record = v as Record<string, unknown>;
    for (let i = 0; i < fields.length; i++) {
      const [name, check] = fields[i] as [string, Check];
      if (!check(record[name])) return false;
    }
    return true;
  };
}

/** zod's own test for records: a prototype-less object, or one whose constructor is Object-like. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const ctor = (v as { constructor?: unknown }).constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const proto = (ctor as { prototype?: unknown }).prototype;
  return typeof proto === 'object' && proto !== null && Object.hasOwn(proto, 'isPrototypeOf');
}
