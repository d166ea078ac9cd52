// The account's A2A agents and skills: an agent enabled once (again is refused), disabled any time;
// a skill deleted for good; an unknown one not found; the audit log keeps what it is given.
import { describe, expect, it } from 'vitest';
import { AgentsAndSkills } from '../../../../src/testing/model/agents-and-skills.js';

describe('AgentsAndSkills', () => {
  it('enables a disabled agent once, and disables an agent whatever its state', () => {
    const registry = new AgentsAndSkills([{ agent_id: 'a' }, { agent_id: 'b', enabled: true }], []);
    expect(registry.enable('a')).toBe('OK');
    expect(registry.enable('a')).toBe('InvalidParameter');
    expect(registry.enable('b')).toBe('InvalidParameter');
    expect(registry.disable('b')).toBe('OK');
    expect(registry.disable('b')).toBe('OK'); // the OpenAPI names no refusal for it
    expect(registry.agents.get('b')).toEqual({ enabled: false });
    expect(registry.enable('zzz')).toBe('ResourceNotFound');
    expect(registry.disable('zzz')).toBe('ResourceNotFound');
  });

  it('deletes a skill for good', () => {
    const registry = new AgentsAndSkills([], [{ skill_id: 's' }]);
    expect(registry.deleteSkill('s')).toBe('OK');
    expect(registry.deleteSkill('s')).toBe('ResourceNotFound');
    expect(registry.skills.has('s')).toBe(false);
  });

  it('keeps the audit log in the order calls were recorded', () => {
    const registry = new AgentsAndSkills([], []);
    const entry = { request_id: 'r', time: 1, target: 'a', account_id: 1, key_name: 'full', result: 'OK' };
    registry.record({ ...entry, operation: 'a2a-agent.enable' });
    registry.record({ ...entry, operation: 'skill.delete' });
    expect(registry.auditLog.map((e) => e.operation)).toEqual(['a2a-agent.enable', 'skill.delete']);
  });
});
