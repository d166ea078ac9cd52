// client.webhookHistory's params become the OpenAPI's wire bodies, checked by its rules before
// anything is sent. Loaded on first use (webhook-history.ts).

import { RequestValidationError } from '../core/errors.js';
import type {
  GetWebhookHistoryDetailRequest,
  ListWebhookHistoryParams,
  ListWebhookHistoryRequest,
} from '../schemas/webhook-history.js';
import {
  checkArray,
  checkCursor,
  checkEnum,
  checkInteger,
  checkParams,
  checkType,
  definedFields,
  describe,
  isNumericId,
} from './checks.js';

const DEFAULT_LIMIT = 20;
/** The OpenAPI's range of millisecond times: 13 digits. */
const MIN_MS = 1_000_000_000_000;
const MAX_MS = 9_999_999_999_999;
const MAX_REF_ID = 128;

/** Checks the params of `/webhook/history/detail` and gives its wire body. */
export function toDetailRequest(params: GetWebhookHistoryDetailRequest): Record<string, unknown> {
  checkParams(params, 'integration_id and event_id');
  const { integration_id, event_id } = params;
  if (integration_id === undefined) throw new RequestValidationError('integration_id', 'is required');
  checkInteger(integration_id, 'integration_id', 1, Number.MAX_SAFE_INTEGER);
  if (typeof event_id !== 'string' || event_id === '') {
    throw new RequestValidationError(
      'event_id',
      `expected the non-empty event id of a history record, got ${describe(event_id)}`,
    );
  }
  return definedFields(params);
}

/** Converts and checks params by the OpenAPI's `ListWebhookHistoryRequest`. */
export function toListRequest(params: ListWebhookHistoryParams): ListWebhookHistoryRequest {
  checkParams(params, 'at least start_time and end_time');
  const wire = definedFields(params);
  wire.start_time = toMillis(params.start_time, 'start_time');
  wire.end_time = toMillis(params.end_time, 'end_time');
  if ((wire.end_time as number) <= (wire.start_time as number)) {
    throw new RequestValidationError('end_time', 'must be greater than start_time');
  }
  wire.limit = checkInteger(wire.limit, 'limit', 1, 100) ?? DEFAULT_LIMIT;
  if (wire.integration_id !== undefined && !isNumericId(wire.integration_id)) {
    throw new RequestValidationError(
      'integration_id',
      `expected a whole number ≥ 0, got ${describe(wire.integration_id)}`,
    );
  }
  checkEnum(wire.status, 'status', ['success', 'failed']);
  checkEnum(wire.orderby, 'orderby', ['event_time']);
  checkType(wire.asc, 'boolean', 'asc');
  checkType(wire.ref_id, 'string', 'ref_id');
  if (typeof wire.ref_id === 'string' && wire.ref_id.length > MAX_REF_ID) {
    throw new RequestValidationError('ref_id', `must be at most ${MAX_REF_ID} characters`);
  }
  checkArray(wire.event_types, 'event_types', (v) => typeof v === 'string' && v !== '', 'a non-empty string');
  checkCursor(wire.search_after_ctx);
  return wire as unknown as ListWebhookHistoryRequest;
}

function toMillis(value: unknown, field: string): number {
  if (value === undefined || value === null) throw new RequestValidationError(field, 'is required');
  const ms = value instanceof Date ? value.getTime() : value;
  if (typeof ms !== 'number' || !Number.isInteger(ms)) {
    throw new RequestValidationError(
      field,
      `expected a Date or whole Unix milliseconds, got ${value instanceof Date ? 'an invalid Date' : describe(value)}`,
    );
  }
  if (ms >= 1e9 && ms < MIN_MS && !(value instanceof Date)) {
    throw new RequestValidationError(field, `${ms} looks like Unix seconds; pass Unix milliseconds or a Date`);
  }
  if (ms < MIN_MS || ms > MAX_MS) {
    throw new RequestValidationError(
      field,
      `expected a time from ${new Date(MIN_MS).toISOString()} to ${new Date(MAX_MS).toISOString()} in Unix milliseconds, got ${ms}`,
    );
  }
  return ms;
}
