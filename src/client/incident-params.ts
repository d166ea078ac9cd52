// listIncidents' params become the spec's wire body, and every local rule of the spec is checked
// here, before anything is sent. Loaded on the first page (incidents.ts).

import { RequestValidationError } from '../core/errors.js';
import { HEX24 } from '../schemas/shape.js';
import type { ListIncidentsParams, ListIncidentsRequest } from '../schemas/list.js';
import {
  checkArray,
  checkCursor,
  checkInteger,
  checkParams,
  checkType,
  definedFields,
  describe,
  isNumericId,
} from './checks.js';
import { MAX_PAGE_DEPTH } from './pagination.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
/** Seconds beyond this are surely milliseconds (the year 5138). */
const MAX_PLAUSIBLE_SECONDS = 1e11;

const BOOLEAN_FIELDS = ['asc', 'is_snoozed', 'is_my_team', 'is_my_channel', 'ever_muted', 'is_rare'] as const;
const MEMBER_ID_FIELDS = [
  'channel_ids',
  'team_ids',
  'responder_ids',
  'acker_ids',
  'creator_ids',
  'closer_ids',
] as const;

/** Converts and checks params; the 31-day limit is left to the caller, since iteration splits windows. */
export function toWireRequest(params: ListIncidentsParams): ListIncidentsRequest {
  checkParams(params, 'at least start_time and end_time');
  const wire = definedFields(params);
  wire.start_time = toSeconds(params.start_time, 'start_time');
  wire.end_time = toSeconds(params.end_time, 'end_time');
  if ((wire.end_time as number) <= (wire.start_time as number)) {
    throw new RequestValidationError('end_time', 'must be greater than start_time');
  }
  for (const field of BOOLEAN_FIELDS) checkType(wire[field], 'boolean', field);
  checkType(wire.query, 'string', 'query');
  for (const field of ['progress', 'incident_severity'] as const) {
    const joined = toCommaList(wire[field], field);
    if (joined === undefined) delete wire[field];
    else wire[field] = joined;
  }
  for (const field of MEMBER_ID_FIELDS) checkArray(wire[field], field, isNumericId, 'a whole number ≥ 0');
  checkArray(
    wire.incident_ids,
    'incident_ids',
    (v) => typeof v === 'string' && HEX24.test(v),
    '24 hexadecimal characters',
  );
  checkArray(wire.nums, 'nums', (v) => typeof v === 'string' && v !== '', 'a non-empty string');
  const limit = checkInteger(wire.limit, 'limit', 0, MAX_LIMIT);
  const page = checkInteger(wire.p, 'p', 0, Number.MAX_SAFE_INTEGER);
  const effectiveLimit = limit || DEFAULT_LIMIT;
  if (page !== undefined && page * effectiveLimit > MAX_PAGE_DEPTH) {
    throw new RequestValidationError(
      'p',
      `p × limit must not exceed ${MAX_PAGE_DEPTH} (got ${page} × ${effectiveLimit}); page by cursor to go further`,
    );
  }
  checkCursor(wire.search_after_ctx);
  return wire as unknown as ListIncidentsRequest;
}

function toSeconds(value: unknown, field: string): number {
  if (value === undefined || value === null) throw new RequestValidationError(field, 'is required');
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw new RequestValidationError(field, 'is an invalid Date');
    return Math.floor(ms / 1000);
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new RequestValidationError(field, `expected a Date or whole Unix seconds ≥ 0, got ${describe(value)}`);
  }
  if (value > MAX_PLAUSIBLE_SECONDS) {
    throw new RequestValidationError(field, `${value} looks like milliseconds; pass Unix seconds or a Date`);
  }
  return value;
}

function toCommaList(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  const parts = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(parts))
    throw new RequestValidationError(field, `expected a string or an array of strings, got ${describe(value)}`);
  const clean: string[] = [];
  for (const [i, part] of parts.entries()) {
    if (typeof part !== 'string')
      throw new RequestValidationError(`${field}[${i}]`, `expected a string, got ${describe(part)}`);
    const trimmed = part.trim();
    if (trimmed === '' || trimmed.includes(',')) {
      throw new RequestValidationError(
        typeof value === 'string' ? field : `${field}[${i}]`,
        'expected non-empty values without commas',
      );
    }
    clean.push(trimmed);
  }
  return clean.length === 0 ? undefined : clean.join(',');
}
