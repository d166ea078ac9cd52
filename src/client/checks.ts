// The local checks of request params: each failure is a RequestValidationError naming the field,
// thrown before anything is sent. Messages quote the bad value briefly, never a whole object.

import { RequestValidationError } from '../core/errors.js';

export function checkType(value: unknown, type: 'boolean' | 'string', field: string): void {
  if (value !== undefined && typeof value !== type) {
    throw new RequestValidationError(field, `expected a ${type}, got ${describe(value)}`);
  }
}

export function checkArray(value: unknown, field: string, valid: (v: unknown) => boolean, expected: string): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) throw new RequestValidationError(field, `expected an array, got ${describe(value)}`);
  value.forEach((item, i) => {
    if (!valid(item)) throw new RequestValidationError(`${field}[${i}]`, `expected ${expected}, got ${describe(item)}`);
  });
}

export function checkInteger(value: unknown, field: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new RequestValidationError(field, `expected a whole number ${range}, got ${describe(value)}`);
  }
  return value;
}

/** One of the values the API defines (a request may only carry values the server knows today). */
export function checkEnum(value: unknown, field: string, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value as string)) {
    throw new RequestValidationError(
      field,
      `expected one of ${allowed.map((v) => `'${v}'`).join(', ')}, got ${describe(value)}`,
    );
  }
}

/** A page cursor (`search_after_ctx`): absent, or the non-empty string a previous page gave. */
export function checkCursor(value: unknown): void {
  if (value !== undefined && (typeof value !== 'string' || value === '')) {
    throw new RequestValidationError('search_after_ctx', 'expected the non-empty cursor string of a previous page');
  }
}

/** A plain object of params (not null, not an array). */
export function checkParams(params: unknown, expected: string): asserts params is Record<string, unknown> {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new RequestValidationError('params', `expected an object with ${expected}`);
  }
}

/** The params' defined keys, as a fresh wire body: unknown keys go through for filters this SDK does not know yet. */
export function definedFields(params: object): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const key in params) {
    const value = (params as Record<string, unknown>)[key];
    if (Object.hasOwn(params, key) && value !== undefined) wire[key] = value;
  }
  return wire;
}

export function isNumericId(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}
