// The account's A2A agents and skills in the mock (AI SRE), with the audit log that records every
// call to them, refused ones included. An agent goes disabled → enabled once; enabled → disabled,
// which an agent already disabled also answers with OK (the OpenAPI names no refusal for it); a
// skill is deleted for good. Automations are in automations.ts; the other AI SRE operations are
// answered from the OpenAPI (openapi-answers.ts).

/** An A2A agent of the mock at start. */
export interface AgentSeed {
  agent_id: string;
  enabled?: boolean;
}

/** A skill of the mock at start. */
export interface SkillSeed {
  skill_id: string;
}

/** One record of the account audit log. */
export interface AuditEntry {
  /** The request id of the call. */
  request_id: string;
  /** Unix ms, by the mock's clock. */
  time: number;
  operation: 'a2a-agent.enable' | 'a2a-agent.disable' | 'skill.delete';
  /** The agent or skill id as sent. */
  target: string;
  account_id: number;
  /** Name of the key used (never the key itself). */
  key_name: string;
  /** `OK` or the error code the call got. */
  result: string;
}

/** What a call to an agent or a skill gets: `OK`, or the error code of its refusal. */
export type ResultCode = 'OK' | 'InvalidParameter' | 'ResourceNotFound';

/** The account's A2A agents and skills, and the audit log of the calls made to them. */
export class AgentsAndSkills {
  readonly agents = new Map<string, { enabled: boolean }>();
  readonly skills = new Set<string>();
  readonly auditLog: AuditEntry[] = [];

  constructor(agents: AgentSeed[], skills: SkillSeed[]) {
    for (const agent of agents) this.agents.set(agent.agent_id, { enabled: agent.enabled === true });
    for (const skill of skills) this.skills.add(skill.skill_id);
  }

  enable(agentId: string): ResultCode {
    const agent = this.agents.get(agentId);
    if (!agent) return 'ResourceNotFound';
    if (agent.enabled) return 'InvalidParameter';
    agent.enabled = true;
    return 'OK';
  }

  disable(agentId: string): ResultCode {
    const agent = this.agents.get(agentId);
    if (!agent) return 'ResourceNotFound';
    agent.enabled = false;
    return 'OK';
  }

  deleteSkill(skillId: string): ResultCode {
    return this.skills.delete(skillId) ? 'OK' : 'ResourceNotFound';
  }

  record(entry: AuditEntry): void {
    this.auditLog.push(entry);
  }
}
