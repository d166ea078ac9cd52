// The account's audit log (`service.auditLog`): every write, who made it and when, refused ones
// included. Rules owned here: a write is an operation the manifest calls a mutation; one reaching
// the mock through its API is recorded once it is past its credential, the limits and the
// permission, with its outcome (`OK` or the error code), under the operation's name (its path's
// words, `/channel/silence/rule/create` → `channel.silence.rule.create`, AI SRE's without `safari`);
// what a test does through `service.actions` is recorded as the console would be, with the
// operation of the API that does the same, once per thing done (creating with assignees is a create
// and an assign); what the platform does by itself (a storm, a recovery) is nobody's write.
// `POST /audit/search` reads it: the writes of its window, newest first, by operation, member or
// request id; every record of it is a write.

import { RULES } from '../../generated/operation-rules.js';
import type { KnownWebhookEventType } from '../../webhooks/types.js';
import { RESPONSE_DEFS, RESPONSES } from '../generated/responses.js';
import type { IncidentEvent } from '../model/incident-actions.js';
import type { OperationResult } from '../model/operation-result.js';
import type { World } from '../model/world.js';
import { pageAnswer, pageOf } from './list-query.js';

/** One record of the account audit log. */
export interface AuditEntry {
  /** The request id of the call (one of its own for a console action). */
  request_id: string;
  /** Unix ms, by the mock's clock. */
  time: number;
  /** The operation: its path's words (`team.upsert`, `a2a-agent.enable`, `incident.ack`). */
  operation: string;
  /** The id acted on, as sent (or made, for a create); `''` where the call names none. */
  target: string;
  account_id: number;
  /** The member who wrote. */
  person_id: number;
  /** Name of the credential used (never the key itself); `console` for `service.actions`. */
  key_name: string;
  /** `OK` or the error code the call got. */
  result: string;
}

/** The operation's name in the audit log: its path's words, without AI SRE's `safari` or path parameters. */
export function operationName(path: string): string {
  return path
    .split('/')
    .filter((word) => word !== '' && word !== 'safari' && !word.startsWith('{'))
    .join('.');
}

/** The id a write acts on: for a family's, the one it names (or made); for another, its first id field. */
export function targetOf(body: Record<string, unknown>, idField?: string, data?: unknown): string {
  if (idField) {
    const many = body[`${idField}s`];
    const id =
      body[idField] ??
      (Array.isArray(many) ? many.join(',') : undefined) ??
      (data as Record<string, unknown> | null | undefined)?.[idField];
    return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
  }
  for (const [key, value] of Object.entries(body)) {
    if ((key === 'id' || key.endsWith('_id')) && (typeof value === 'string' || typeof value === 'number'))
      return String(value);
    if (key.endsWith('_ids') && Array.isArray(value)) return value.join(',');
  }
  return '';
}

/** The API operation that does what an incident event tells. */
const OPERATION_OF_EVENT: Partial<Record<KnownWebhookEventType, string>> = {
  i_new: '/incident/create',
  i_assign: '/incident/assign',
  i_a_rspd: '/incident/responder/add',
  i_ack: '/incident/ack',
  i_unack: '/incident/unack',
  i_snooze: '/incident/snooze',
  i_wake: '/incident/wake',
  i_comm: '/incident/comment',
  i_rslv: '/incident/resolve',
  i_reopen: '/incident/reopen',
  i_merge: '/incident/merge',
  i_custom: '/incident/custom-action/do',
  i_r_title: '/incident/reset',
  i_r_desc: '/incident/reset',
  i_r_impact: '/incident/reset',
  i_r_rc: '/incident/reset',
  i_r_rsltn: '/incident/reset',
  i_r_severity: '/incident/reset',
  i_r_field: '/incident/field/reset',
};

/** The audit entry of a console action, or undefined for what the platform did by itself. */
export function consoleEntry(event: IncidentEvent, requestId: string, accountId: number): AuditEntry | undefined {
  const path = OPERATION_OF_EVENT[event.event_type];
  if (!event.person || !path) return undefined;
  return {
    request_id: requestId,
    time: event.at,
    operation: operationName(path),
    target: event.incident.incident_id,
    account_id: accountId,
    person_id: event.person.person_id,
    key_name: 'console',
    result: 'OK',
  };
}

/** `POST /audit/search` over the audit log: the writes of the window, newest first, as the service's AuditLog rows. */
export function searchAudit(log: readonly AuditEntry[], world: World, body: Record<string, unknown>): OperationResult {
  const [start, end] = [Number(body.start_time) * 1000, Number(body.end_time) * 1000];
  if (!(end > start)) return { code: 'InvalidParameter', key: 'endAfterStart' };
  const operations = Array.isArray(body.operations) && body.operations.length > 0 ? body.operations : undefined;
  const rows = log
    .filter((entry) => entry.time >= start && entry.time <= end)
    .filter((entry) => !operations || operations.includes(entry.operation))
    .filter((entry) => body.person_id === undefined || entry.person_id === body.person_id)
    .filter(
      (entry) => typeof body.request_id !== 'string' || body.request_id === '' || entry.request_id === body.request_id,
    )
    .filter(() => body.is_write !== false && body.is_dangerous !== true)
    .reverse()
    .map((entry) => ({
      created_at: entry.time,
      account_id: entry.account_id,
      member_id: entry.person_id,
      member_name: world.members.find((m) => m.person_id === entry.person_id)?.person_name ?? '',
      request_id: entry.request_id,
      ip: '127.0.0.1',
      operation: entry.operation,
      operation_name: entry.operation,
      body: '',
      params: [],
      is_dangerous: false,
      is_write: true,
    }));
  const paging = RULES['/audit/search']?.paging;
  const page = pageOf(rows, body, paging);
  return { data: pageAnswer(page, 'docs', RESPONSES['/audit/search']?.schema, RESPONSE_DEFS, paging) };
}
