// Enable an A2A agent and delete a skill, handling the typed errors: already enabled, not found,
// rate limited (the client already waited and retried before giving up).
// Run: FLASHDUTY_APP_KEY=… npx tsx examples/agents-and-skills.ts <agent_id> <skill_id>
import {
  Flashduty,
  FlashdutyError,
  InvalidParameterError,
  RequestTooFrequentlyError,
  ResourceNotFoundError,
} from 'flashduty-sdk';

const [agentId = 'a2a_demo', skillId = 'skill_demo'] = process.argv.slice(2);
const client = new Flashduty({ maxRetries: 3 });

async function attempt(what: string, call: () => Promise<{ requestId: string }>): Promise<void> {
  try {
    const { requestId } = await call();
    console.log(`${what}: done (request ${requestId})`);
  } catch (error) {
    if (error instanceof InvalidParameterError) console.log(`${what}: refused, ${error.message} (already enabled?)`);
    else if (error instanceof ResourceNotFoundError) console.log(`${what}: not found: ${error.message}`);
    else if (error instanceof RequestTooFrequentlyError) {
      console.log(`${what}: still rate limited after retries; try again in ${error.retryAfterMs ?? 1000} ms`);
    } else if (error instanceof FlashdutyError) console.log(`${what}: ${error.name}: ${error.message}`);
    else throw error;
  }
}

await attempt(`enable agent ${agentId}`, () => client.enableA2AAgent(agentId));
await attempt(`enable agent ${agentId} again`, () => client.enableA2AAgent(agentId));
await attempt(`delete skill ${skillId}`, () => client.deleteSkill(skillId));
await attempt(`delete skill ${skillId} again`, () => client.deleteSkill(skillId));
