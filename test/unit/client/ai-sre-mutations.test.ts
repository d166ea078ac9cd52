// The client's two AI SRE methods of their own (src/client/ai-sre-mutations.ts), in memory: each
// takes its id alone, checked before anything is sent, sends it as the wire's field, and resolves to
// the request id.
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../src/index.js';
import { rejection } from '../../helpers.js';
import { memoryClient, ok } from '../../support/responder.js';

describe('enableA2AAgent and deleteSkill', () => {
  it('send the id as the wire’s field and resolve to the request id', async () => {
    const { client, sent } = memoryClient((_, n) => ok(null, `r${n}`));
    expect(await client.enableA2AAgent('a2a_1')).toEqual({ requestId: 'r0' });
    expect(await client.deleteSkill('skill_1')).toEqual({ requestId: 'r1' });
    expect(sent.map((s) => [s.url.pathname, s.body])).toEqual([
      ['/safari/a2a-agent/enable', { agent_id: 'a2a_1' }],
      ['/safari/skill/delete', { skill_id: 'skill_1' }],
    ]);
  });

  it.each<[unknown, string]>([
    [7, 'agentId: expected a string id, got number'],
    [null, 'agentId: expected a string id, got null'],
    ['  ', 'agentId: must not be empty'],
    [' a2a ', 'agentId: must not start or end with white space'],
  ])('refuse %j before sending', async (id, message) => {
    const { client, sent } = memoryClient(() => ok(null));
    const error = await rejection(client.enableA2AAgent(id as string));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toBe(message);
    expect(sent).toHaveLength(0);
  });
});
