// Every operation of the vendored OpenAPI (the one description scripts/generate/merge.ts makes of its
// files) as a test calls it through its generated method: the method found on a client by its
// dotted name, and a body the operation accepts (the OpenAPI's own request example where it fits the
// request schema, else the smallest body the schema allows: an upload's file is an empty File). An
// operation that takes a token of its own is called with the trigger a test gives it.
import type { Flashduty } from '../../../src/index.js';
import { OPERATIONS } from '../../../src/generated/operations.js';
import { RULES } from '../../../src/generated/operation-rules.js';
import { REQUEST_SCHEMAS, SCHEMA_DEFS } from '../../../src/generated/request-schemas.js';
import { checkSchema } from '../../../src/internal/schema.js';
import { sample } from '../../../src/internal/schema-sample.js';
import type { OperationInfo } from '../../../src/operations.js';
import { requestExample } from '../../openapi.js';

export interface OperationCase {
  path: string;
  info: OperationInfo;
  /** A body the operation's request schema accepts. */
  body: Record<string, unknown>;
}

/**
 * A body the schema accepts: the OpenAPI's example where it fits (five do not), else the schema's
 * smallest; a time window in it is the last day (the smallest would be empty, 0 to 0).
 */
function bodyFor(path: string): Record<string, unknown> {
  const example = requestExample(path);
  const schema = REQUEST_SCHEMAS[path];
  if (!schema) return {};
  const body = (
    example !== undefined && !checkSchema(example, schema, SCHEMA_DEFS)
      ? structuredClone(example)
      : sample(schema, SCHEMA_DEFS)
  ) as Record<string, unknown>;
  const times = RULES[path]?.times;
  const unit = times?.end_time === 'ms' ? 1000 : 1;
  if (times?.start_time && times.end_time && !((body.end_time as number) > (body.start_time as number))) {
    body.end_time = Math.floor(Date.now() / 1000) * unit;
    body.start_time = (body.end_time as number) - 86_400 * unit;
  }
  return body;
}

export const OPERATION_CASES: OperationCase[] = Object.entries(OPERATIONS).map(([path, info]) => ({
  path,
  info: info,
  body: bodyFor(path),
}));

/** The client's method of a dotted name (`'channels.escalateRules.list'`); undefined where it has none. */
export function methodOf(
  client: Flashduty,
  method: string,
): ((body: unknown, options?: unknown) => unknown) | undefined {
  let target: unknown = client;
  for (const part of method.split('.')) target = (target as Record<string, unknown> | undefined)?.[part];
  return typeof target === 'function' ? (target as (body: unknown, options?: unknown) => unknown) : undefined;
}

/** A trigger to fire an operation that takes a token of its own with: its id and its token. */
export interface TriggerForTest {
  trigger_id: string;
  token: string;
}

/**
 * Calls the client's method of a dotted name with `body`; an operation that takes a token of its own
 * gets `trigger`'s id in its body and its token as the option.
 */
export function callMethod(client: Flashduty, method: string, body: unknown, trigger?: TriggerForTest): unknown {
  const fn = methodOf(client, method);
  if (!fn) throw new Error(`client.${method} is not a method`);
  const path = Object.entries(OPERATIONS).find(([, info]) => info.method === method)?.[0] ?? '';
  if (!RULES[path]?.token) return fn(body);
  if (!trigger) throw new Error(`client.${method} takes a token of its own: give the test a trigger`);
  return fn({ ...(body as object), trigger_id: trigger.trigger_id }, { token: trigger.token });
}

/** The path a call of an operation reaches: its path parameters filled in from `trigger` where it has one. */
export function pathOf(path: string, trigger?: TriggerForTest): string {
  return trigger ? path.replace('{trigger_id}', trigger.trigger_id) : path;
}
