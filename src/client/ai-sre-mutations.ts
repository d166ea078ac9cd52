// The client's own two AI SRE methods, enableA2AAgent and deleteSkill. Each takes its id alone
// (the generated `a2aAgents.enable` and `skills.delete` take the wire body), checked before sending,
// and resolves to the request id. Both are retried
// only where the first attempt provably had no effect (see retry.ts): enabling twice would answer
// InvalidParameter, deleting twice ResourceNotFound.

import type { APIPromise } from '../core/api-promise.js';
import { RequestValidationError } from '../core/api-errors.js';
import type { Flashduty, RequestOptions } from './client.js';
import { checkCallOptions } from './client-options.js';

/** What a mutation returns: the server's request id, to quote when reporting a problem. */
export interface MutationResult {
  requestId: string;
}

export function enableA2AAgent(
  client: Flashduty,
  agentId: string,
  options?: RequestOptions,
): APIPromise<MutationResult> {
  return mutate(client, 'safari/a2a-agent/enable', () => ({ agent_id: checkId(agentId, 'agentId') }), options);
}

export function deleteSkill(client: Flashduty, skillId: string, options?: RequestOptions): APIPromise<MutationResult> {
  return mutate(client, 'safari/skill/delete', () => ({ skill_id: checkId(skillId, 'skillId') }), options);
}

/** A mutation's call: its options and its body checked (a throw rejects the call), then sent; resolves to its request id. */
function mutate(
  client: Flashduty,
  path: string,
  body: () => object,
  options: RequestOptions | undefined,
): APIPromise<MutationResult> {
  return client._call(
    () => {
      checkCallOptions(options);
      return client._request('POST', path, body(), 'mutation', options);
    },
    ({ requestId }) => ({ requestId }),
  );
}

function checkId(value: unknown, name: string): string {
  if (typeof value !== 'string') {
    throw new RequestValidationError(name, `expected a string id, got ${value === null ? 'null' : typeof value}`);
  }
  if (value.trim() === '') throw new RequestValidationError(name, 'must not be empty');
  if (value.trim() !== value) throw new RequestValidationError(name, 'must not start or end with white space');
  return value;
}
