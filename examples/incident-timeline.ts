// An incident's timeline as a person reads it: what was done to it, by whom and when, oldest first
// (`client.incidents.feed`, every page), with the names of the people who acted
// (`client.persons.infos`). Without an argument, the latest incident of the last day.
// Run: FLASHDUTY_APP_KEY=… npx tsx examples/incident-timeline.ts [incident id or number]
import { Flashduty } from 'flashduty-sdk';

const client = new Flashduty();
const wanted = process.argv[2];
const now = new Date();
const incident = wanted
  ? await client.incidents.info(/^[0-9a-f]{24}$/i.test(wanted) ? { incident_id: wanted } : { num: wanted })
  : (await client.listIncidents({ start_time: new Date(now.getTime() - 86_400_000), end_time: now, limit: 1 }))
      .items[0];
if (!incident) {
  console.log('No incident in the last day.');
  process.exit(0);
}

const rows = [];
for await (const row of client.incidents.feed({ incident_id: incident.incident_id, asc: true })) rows.push(row);
const people = [...new Set(rows.map((row) => row.creator_id).filter((id) => id > 0))];
const persons = people.length > 0 ? ((await client.persons.infos({ person_ids: people })).items ?? []) : [];
const names = new Map(persons.map((person) => [person.person_id, person.person_name]));

/** What a row says was done, in words; a type this recipe does not know, as it is. */
function done(type: string, detail: Record<string, unknown>): string {
  const words: Record<string, string> = {
    i_new: 'created',
    i_assign: 'assigned',
    i_a_rspd: 'added a responder',
    i_ack: 'acknowledged',
    i_unack: 'withdrew the acknowledgement',
    i_snooze: `snoozed for ${String(detail.minutes)} minutes`,
    i_wake: 'woke it',
    i_comm: `commented: "${String(detail.comment)}"`,
    i_rslv: 'resolved',
    i_reopen: 'reopened',
    i_merge: 'merged incidents into it',
    i_r_title: `retitled it "${String(detail.to)}"`,
    i_r_severity: `changed the severity to ${String(detail.to)}`,
    i_wr_create: 'opened a war room',
  };
  return words[type] ?? type;
}

console.log(`#${incident.num} ${incident.title} (${incident.progress})`);
for (const row of rows) {
  const who = row.creator_id ? (names.get(row.creator_id) ?? `member ${row.creator_id}`) : 'Flashduty';
  console.log(`${new Date(row.created_at).toISOString()}  ${who}: ${done(row.type, row.detail)}`);
}
