import * as z from 'zod/mini';

// Building blocks shared by every resource schema. Objects are loose (the server may add fields at
// any time) and enums are open strings (it may add values); the TypeScript types list the known
// values and stay open with `(string & {})`.
//
// Every schema is built inside an IIFE marked `@__PURE__`: bundlers can then drop the schemas (and
// zod with them) from apps that never use them, which is most apps, since the default
// `validate: 'envelope'` is hand-written (shape.ts) and `'deep'` loads the schemas on demand.

/** Severity or status of incidents, alerts and events. */
export type Severity = 'Critical' | 'Warning' | 'Info' | 'Ok' | (string & {});
/** Handling progress of an incident. */
export type Progress = 'Triggered' | 'Processing' | 'Closed' | (string & {});

export const int = /* @__PURE__ */ (() => z.int())();
export const str = /* @__PURE__ */ (() => z.string())();
export const bool = /* @__PURE__ */ (() => z.boolean())();
export const openEnum = /* @__PURE__ */ (() => z.string())();
// Same pattern as HEX24 in shape.ts, which stays free of zod so the default client never loads it.
export const hexId = /* @__PURE__ */ (() => z.string().check(z.regex(/^[0-9a-fA-F]{24}$/)))();
export const labels = /* @__PURE__ */ (() => z.record(z.string(), z.string()))();
export const anyMap = /* @__PURE__ */ (() => z.record(z.string(), z.unknown()))();
export const ints = /* @__PURE__ */ (() => z.array(int))();
export const strs = /* @__PURE__ */ (() => z.array(str))();

export const opt = z.optional;
export const loose = z.looseObject;
