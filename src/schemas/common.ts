// Building blocks shared by every resource schema. Objects are loose (the server may add fields at
// any time) and enums are open strings (it may add values); the TypeScript types list the known
// values and stay open with `(string & {})`.
//
// Every schema is built inside an IIFE marked `@__PURE__`: bundlers can then drop the schemas (and
// zod with them) from apps that never use them, which is most apps, since the default
// `validate: 'envelope'` is hand-written (core/envelope-reader.ts, client/pagination/page-shape.ts)
// and `'deep'` loads the schemas on demand.
//
// The TypeScript types of the resources derive from the generated OpenAPI types; the schemas state
// every field again (zod needs values), and `Agrees` fails the typecheck when a schema and its type drift.

import * as z from 'zod/mini';

/**
 * A schema as compared with the TypeScript type it checks: loose objects' `[key: string]: unknown`
 * (which only says "the server may add fields") dropped at every depth; every field and its type kept.
 * Primitives first: an open enum's `string & {}` would otherwise be mapped as an object.
 */
type Fields<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer Item)[]
    ? Fields<Item>[]
    : { [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Fields<T[K]> };

/** A type as `Agrees` compares it: its fields, and its field names (an optional field less is a drift too). */
type Compared<T> = [Fields<T>, keyof Fields<T>];

/**
 * Compile-time agreement of a zod schema with the type it is declared as (`T`, derived from the
 * generated OpenAPI types): the same field names, the schema's output is a `T` and every `T` is an
 * output of the schema. Used as `schema satisfies Agrees<typeof schema, T>` (`never`, so an error, when
 * they drift), so that a regenerated OpenAPI that adds, drops, loosens or retypes a field fails the
 * typecheck. Nested objects are compared by type; their field names by their own schema's check.
 */
export type Agrees<S extends z.ZodMiniType, T> = [Compared<z.output<S>>] extends [Compared<T>]
  ? [Compared<T>] extends [Compared<z.output<S>>]
    ? S
    : never
  : never;

/** Severity or status of incidents, alerts and events. */
export type Severity = 'Critical' | 'Warning' | 'Info' | 'Ok' | (string & {});
/** Handling progress of an incident. */
export type Progress = 'Triggered' | 'Processing' | 'Closed' | (string & {});

export const int = /* @__PURE__ */ (() => z.int())();
export const str = /* @__PURE__ */ (() => z.string())();
export const bool = /* @__PURE__ */ (() => z.boolean())();
export const openEnum = /* @__PURE__ */ (() => z.string())();
export const hexId = /* @__PURE__ */ (() => z.string().check(z.regex(/^[0-9a-fA-F]{24}$/)))();
export const labels = /* @__PURE__ */ (() => z.record(z.string(), z.string()))();
export const anyMap = /* @__PURE__ */ (() => z.record(z.string(), z.unknown()))();
export const ints = /* @__PURE__ */ (() => z.array(int))();
export const strs = /* @__PURE__ */ (() => z.array(str))();

export const opt = z.optional;
export const loose = z.looseObject;
