// Who is on which team: every team and every member of the account, through the generated methods
// (`client.teams.list`, `client.members.list`: each walks every page), as a roster.
// Run: FLASHDUTY_APP_KEY=… npx tsx examples/team-roster.ts
import { Flashduty } from 'flashduty-sdk';

const client = new Flashduty();
const names = new Map<number, string>();
for await (const member of client.members.list({ limit: 100 })) {
  names.set(member.member_id, `${member.member_name} <${member.email}>`);
}
let teams = 0;
for await (const team of client.teams.list({ limit: 100 })) {
  teams++;
  const people = team.person_ids.map((id) => names.get(id) ?? `person ${id}`);
  console.log(`${team.team_name} (${people.length}): ${people.join(', ') || 'nobody yet'}`);
}
console.log(`${teams} teams, ${names.size} members`);
