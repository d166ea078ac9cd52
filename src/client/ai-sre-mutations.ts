// The client's own two AI SRE methods, enableA2AAgent and deleteSkill. Each takes its id alone
// (the generated `a2aAgents.enable` and `skills.delete` take the wire body), checked before sending,
// and resolves to the request id. Both are retried
// only where the first attempt provably had no effect (see retry.ts): enabling twice would answer
// InvalidParameter, deleting twice ResourceNotFound.

import type { APIPromise } from '../core/api-promise.js';
import { RequestValidationError } from '../core/api-errors.js';
import type { Flashduty, RequestOptions } from './client.js';

/** What a mutation returns: the server's request id, to quote when reporting a problem. */
export interface MutationResult {
  requestId: string;
}

const toResult = ({ requestId }: { requestId: string }): MutationResult => ({ requestId });

export function enableA2AAgent(
  client: Flashduty,
  agentId: string,
  options?: RequestOptions,
): APIPromise<MutationResult> {
  return client._call(
    () =>
      client._request(
        'POST',
        'safari/a2a-agent/enable',
        { agent_id: checkId(agentId, 'agentId') },
        'mutation',
        options,
      ),
    toResult,
  );
}

export function deleteSkill(client: Flashduty, skillId: string, options?: RequestOptions): APIPromise<MutationResult> {
  return client._call(
    () =>
      client._request('POST', 'safari/skill/delete', { skill_id: checkId(skillId, 'skillId') }, 'mutation', options),
    toResult,
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
