// The account's A2A agents and skills: an agent enabled once (again is refused), disabled any time;
// a skill deleted for good; an unknown one not found. The agents are records of the engine: one
// created through the API can be enabled, one seeded is listed.
import { describe, expect, it } from 'vitest';
import { AgentsAndSkills } from '../../../../src/testing/model/agents-and-skills.js';
import { mockState } from '../support.js';

const state = mockState({ agents: [] });
const owner = state.world.members[0]!.person_id;

describe('AgentsAndSkills', () => {
  it('enables a disabled agent once, and disables an agent whatever its state', () => {
    const registry = new AgentsAndSkills(
      [{ agent_id: 'a' }, { agent_id: 'b', enabled: true }],
      [],
      state.engine,
      owner,
    );
    expect(registry.enable('a')).toBe('OK');
    expect(registry.enable('a')).toBe('InvalidParameter');
    expect(registry.enable('b')).toBe('InvalidParameter');
    expect(registry.disable('b')).toBe('OK');
    expect(registry.disable('b')).toBe('OK'); // the OpenAPI names no refusal for it
    expect(registry.enabled('b')).toBe(false);
    expect(registry.enabled('zzz')).toBeUndefined();
    expect(registry.enable('zzz')).toBe('ResourceNotFound');
    expect(registry.disable('zzz')).toBe('ResourceNotFound');
  });

  it('knows an agent created through the API, and lists the seeded ones', () => {
    const registry = new AgentsAndSkills([{ agent_id: 'seeded' }], [], state.engine, owner);
    const created = state.engine.run(
      '/safari/a2a-agent/create',
      { agent_name: 'deploy-bot', instructions: 'roll back', card_url: 'https://agents.example.com/card' },
      owner,
    ) as { data: { agent_id: string } };
    expect(created.data.agent_id).toMatch(/^a2a_[A-Za-z0-9]{22}$/);
    expect(registry.disable(created.data.agent_id)).toBe('OK');
    expect(registry.enable(created.data.agent_id)).toBe('OK');
    const listed = state.engine.run('/safari/a2a-agent/list', {}, owner) as {
      data: { items: Array<{ agent_id: string }> };
    };
    expect(listed.data.items.map((agent) => agent.agent_id)).toEqual(
      expect.arrayContaining(['seeded', created.data.agent_id]),
    );
  });

  it('deletes a skill for good', () => {
    const registry = new AgentsAndSkills([], [{ skill_id: 's' }], state.engine, owner);
    expect(registry.deleteSkill('s')).toBe('OK');
    expect(registry.deleteSkill('s')).toBe('ResourceNotFound');
    expect(registry.skills.has('s')).toBe(false);
  });
});
