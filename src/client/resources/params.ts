// A method's params become its operation's wire body, by rules written once for every operation
// that has such a field (the generated RULES say which): a `Date` for a Unix-time field (seconds or
// milliseconds, as the field is; at any depth: `time_filter.start_time`, `layers[].start`), an array
// for a comma-separated one, whose values must be among those the contract lists; a number that is
// plausibly in the other unit is refused rather than sent. Then the check that needs more than one
// field: a time window ends after it starts; and a list whose OpenAPI requires `limit` gets its
// default. The body's own schema is checked after this (call.ts); an upload's checked body then
// becomes its form (toForm). Where a list's params start its walk, its paging schemes read
// (pagination/schemes/). Loaded with a client's first method call.

import { RequestValidationError } from '../../core/api-errors.js';
import { oneOf } from '../../internal/closest.js';
import type { OperationRule } from './rules.js';

/** Seconds beyond this are surely milliseconds (the year 5138); milliseconds below 1e12 are surely seconds. */
const MAX_PLAUSIBLE_SECONDS = 1e11;
const MIN_PLAUSIBLE_MS = 1e12;

/** The wire body of `params` by the operation's rules; a RequestValidationError naming the field otherwise. */
export function toWire(params: unknown, rule: OperationRule | undefined): Record<string, unknown> {
  if (params === undefined) return {};
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new RequestValidationError(
      'params',
      `expected an object (the operation’s request body), got ${quoted(params)}`,
    );
  }
  let wire = definedFields(params);
  if (!rule) return wire;
  for (const [place, unit] of Object.entries(rule.times ?? {})) {
    wire = convertAt(wire, place.split('.'), '', (value, field) => toTime(value, field, unit)) as Record<
      string,
      unknown
    >;
  }
  for (const [field, values] of Object.entries(rule.lists ?? {})) {
    const joined = toCommaList(wire[field], field, values);
    if (joined === undefined) delete wire[field];
    else wire[field] = joined;
  }
  const { start_time, end_time } = wire;
  if (
    typeof start_time === 'number' &&
    typeof end_time === 'number' &&
    rule.times?.end_time &&
    end_time <= start_time
  ) {
    throw new RequestValidationError('end_time', 'must be greater than start_time');
  }
  if (rule.paging?.limitRequired && wire.limit === undefined) wire.limit = rule.paging.limit;
  return wire;
}

/**
 * `value` with `convert` applied at a place (`['time_filter', 'start_time']`, `['layers[]', 'start']`),
 * copied along the way so that the caller's params are never changed (and not copied where nothing
 * changed: Unix times as they are). A place that is absent, or null (`layer_end: null`), is left as
 * it is; `field` names it for errors (`layers[2].start`).
 */
function convertAt(
  value: unknown,
  steps: string[],
  field: string,
  convert: (value: unknown, field: string) => unknown,
): unknown {
  const [step, ...rest] = steps;
  if (step === undefined) return value === undefined || value === null ? value : convert(value, field);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const each = step.endsWith('[]');
  const name = each ? step.slice(0, -2) : step;
  const inner = (value as Record<string, unknown>)[name];
  const at = field ? `${field}.${name}` : name;
  if (inner === undefined || (each && !Array.isArray(inner))) return value;
  const converted = each
    ? (inner as unknown[]).map((item, i) => convertAt(item, rest, `${at}[${i}]`, convert))
    : convertAt(inner, rest, at, convert);
  return converted === inner ? value : { ...value, [name]: converted };
}

function toTime(value: unknown, field: string, unit: 's' | 'ms'): unknown {
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw new RequestValidationError(field, 'is an invalid Date');
    return unit === 'ms' ? ms : Math.floor(ms / 1000);
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    const expected = unit === 'ms' ? 'whole Unix milliseconds' : 'whole Unix seconds';
    throw new RequestValidationError(field, `expected a Date or ${expected}, got ${quoted(value)}`);
  }
  if (unit === 's' && value > MAX_PLAUSIBLE_SECONDS) {
    throw new RequestValidationError(field, `${value} looks like milliseconds; pass Unix seconds or a Date`);
  }
  if (unit === 'ms' && value >= 1e9 && value < MIN_PLAUSIBLE_MS) {
    throw new RequestValidationError(field, `${value} looks like Unix seconds; pass Unix milliseconds or a Date`);
  }
  return value;
}

/**
 * An array (or the wire's comma-separated string) as the wire's string: non-empty values, no commas
 * inside, each among `allowed` where it lists any.
 */
function toCommaList(value: unknown, field: string, allowed: readonly string[]): string | undefined {
  if (value === undefined) return undefined;
  const parts = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(parts)) {
    throw new RequestValidationError(field, `expected a string or an array of strings, got ${quoted(value)}`);
  }
  const clean: string[] = [];
  for (const [i, part] of parts.entries()) {
    if (typeof part !== 'string')
      throw new RequestValidationError(`${field}[${i}]`, `expected a string, got ${quoted(part)}`);
    const trimmed = part.trim();
    if (trimmed === '' || trimmed.includes(',')) {
      throw new RequestValidationError(
        typeof value === 'string' ? field : `${field}[${i}]`,
        'expected non-empty values without commas',
      );
    }
    if (allowed.length > 0 && !allowed.includes(trimmed)) {
      throw new RequestValidationError(typeof value === 'string' ? field : `${field}[${i}]`, oneOf(trimmed, allowed));
    }
    clean.push(trimmed);
  }
  return clean.length === 0 ? undefined : clean.join(',');
}

/**
 * The path of an operation with its path parameters (`{trigger_id}`) filled in from the checked body,
 * each encoded as one path segment, and the body without them; without its leading `/`. A value
 * that is or holds a dot segment (`..`, `../admin`, `%2e%2e`) would move the call to another path
 * once a server decodes it: refused; so is one that is not well-formed Unicode (it cannot be
 * encoded).
 */
export function toPath(
  template: string,
  body: Record<string, unknown>,
  names: readonly string[],
): { path: string; body: Record<string, unknown> } {
  if (names.length === 0) return { path: template.slice(1), body };
  const rest = { ...body };
  let path = template;
  for (const name of names) {
    const value = String(rest[name]);
    checkWellFormed(value, name);
    if (hasDotSegment(value))
      throw new RequestValidationError(name, 'must not be or hold a "." or ".." segment: it would name another path');
    path = path.replace(`{${name}}`, encodeURIComponent(value));
    delete rest[name];
  }
  return { path: path.slice(1), body: rest };
}

/** A `.` or `..` segment between slashes or backslashes (a URL parser reads `\` as `/` in http URLs). */
const DOT_SEGMENT = /(?:^|[/\\])\.\.?(?:[/\\]|$)/;
/** The escapes that can spell a dot segment: `.`, `/`, `\`, and `%` itself (`%252e` is `%2e` decoded once). */
const DOT_ESCAPES = /%(?:2e|2f|5c|25)/gi;

/**
 * Whether `text` (a path, or a path parameter's value) holds a `.` or `..` segment, raw or
 * percent-encoded, however many times (`/../`, `/%2e%2e/`, `/..%2f`, `%252e%252e`): a URL parser
 * or a server removes it, with the segment before it, and the call leaves the path it was meant for.
 */
export function hasDotSegment(text: string): boolean {
  for (let decoded = text, rounds = 0; rounds < 8; rounds++) {
    if (DOT_SEGMENT.test(decoded)) return true;
    const next = decoded.replace(DOT_ESCAPES, (escape) => decodeURIComponent(escape));
    if (next === decoded) return false;
    decoded = next;
  }
  return true; // encoded deeper than any server decodes: refused all the same
}

/** Refuses text with a lone UTF-16 surrogate: it cannot be percent-encoded into a URL (a URIError otherwise). */
export function checkWellFormed(text: string, field: string): void {
  if (LONE_SURROGATE.test(text)) {
    throw new RequestValidationError(
      field,
      'is not well-formed Unicode (it holds a lone UTF-16 surrogate): it cannot be sent in a URL',
    );
  }
}

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A checked body as the `multipart/form-data` form of an upload: a Blob or File as a file part (a
 * File keeps its name, which the service reads the archive's kind from), an array as one part per
 * item, an object as its JSON, anything else as its text (`team_id: 0` → `"0"`, `true` → `"true"`).
 */
export function toForm(body: Record<string, unknown>): FormData {
  const form = new FormData();
  const part = (value: unknown): string | Blob =>
    value instanceof Blob ? value : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  for (const [name, value] of Object.entries(body)) {
    if (value === null) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) form.append(name, part(item));
  }
  return form;
}

/**
 * The body with an `idempotency_key` where the operation defines one and the caller gave none: one
 * key per call, so that its retries carry the same key and the server applies the write once.
 */
export function withIdempotencyKey<B extends object>(body: B, defined: boolean): B {
  if (!defined || (body as { idempotency_key?: unknown }).idempotency_key !== undefined) return body;
  return { ...body, idempotency_key: globalThis.crypto.randomUUID() };
}

/** The params' defined keys, as a fresh wire body (the request schema's check judges the keys). */
function definedFields(params: object): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const key in params) {
    const value = (params as Record<string, unknown>)[key];
    if (Object.hasOwn(params, key) && value !== undefined) wire[key] = value;
  }
  return wire;
}

/** A value as a message quotes it: strings cut at 40 characters, objects and arrays by their kind. */
function quoted(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}
