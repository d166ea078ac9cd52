// The account's A2A agents and skills in the mock (AI SRE). An agent goes disabled → enabled once;
// enabled → disabled, which an agent already disabled also answers with OK (the OpenAPI names no
// refusal for it); a skill is deleted for good. The agents are records of the engine's
// `/safari/a2a-agent` family (world/engine.ts), so that one created through the API can be enabled
// and one seeded is listed; the calls to them are in the audit log (world/audit.ts). Automations
// are in automations.ts.

import type { ResourceEngine } from '../world/engine.js';

/** An A2A agent of the mock at start. */
export interface AgentSeed {
  agent_id: string;
  enabled?: boolean;
}

/** A skill of the mock at start. */
export interface SkillSeed {
  skill_id: string;
}

/** What a call to an agent or a skill gets: `OK`, or the error code of its refusal. */
export type ResultCode = 'OK' | 'InvalidParameter' | 'ResourceNotFound';

const AGENTS = '/safari/a2a-agent';

/** The account's A2A agents and skills. */
export class AgentsAndSkills {
  readonly skills = new Set<string>();
  readonly #engine: ResourceEngine;

  constructor(agents: AgentSeed[], skills: SkillSeed[], engine: ResourceEngine, ownerId: number) {
    this.#engine = engine;
    for (const { agent_id, enabled } of agents) {
      const fields = { agent_name: agent_id, status: enabled === true ? 'enabled' : 'disabled' };
      engine.insert(AGENTS, fields, ownerId, agent_id);
    }
    for (const skill of skills) this.skills.add(skill.skill_id);
  }

  /** Whether an agent is enabled; undefined for one the account does not have. */
  enabled(agentId: string): boolean | undefined {
    const agent = this.#engine.find(AGENTS, agentId);
    return agent ? agent.status === 'enabled' : undefined;
  }

  enable(agentId: string): ResultCode {
    const agent = this.#engine.find(AGENTS, agentId);
    if (!agent) return 'ResourceNotFound';
    if (agent.status === 'enabled') return 'InvalidParameter';
    agent.status = 'enabled';
    return 'OK';
  }

  disable(agentId: string): ResultCode {
    const agent = this.#engine.find(AGENTS, agentId);
    if (!agent) return 'ResourceNotFound';
    agent.status = 'disabled';
    return 'OK';
  }

  deleteSkill(skillId: string): ResultCode {
    return this.skills.delete(skillId) ? 'OK' : 'ResourceNotFound';
  }
}
