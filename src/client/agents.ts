// The two AI SRE mutations. Both are retried only where the first attempt provably had no effect
// (see retry.ts): enabling twice would answer InvalidParameter, deleting twice ResourceNotFound.

import { RequestValidationError } from '../core/errors.js';
import type { Flashduty, RequestOptions } from './client.js';

/** What a mutation returns: the server's request id, to quote when reporting a problem. */
export interface MutationResult {
  requestId: string;
}

export async function enableA2AAgent(
  client: Flashduty,
  agentId: string,
  options?: RequestOptions,
): Promise<MutationResult> {
  const agent_id = checkId(agentId, 'agentId');
  const { requestId } = await client._post('safari/a2a-agent/enable', { agent_id }, 'mutation', options);
  return { requestId };
}

export async function deleteSkill(
  client: Flashduty,
  skillId: string,
  options?: RequestOptions,
): Promise<MutationResult> {
  const skill_id = checkId(skillId, 'skillId');
  const { requestId } = await client._post('safari/skill/delete', { skill_id }, 'mutation', options);
  return { requestId };
}

function checkId(value: unknown, name: string): string {
  if (typeof value !== 'string') {
    throw new RequestValidationError(name, `expected a string id, got ${value === null ? 'null' : typeof value}`);
  }
  if (value.trim() === '') throw new RequestValidationError(name, 'must not be empty');
  if (value.trim() !== value) throw new RequestValidationError(name, 'must not start or end with white space');
  return value;
}
