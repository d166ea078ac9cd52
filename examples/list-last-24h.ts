// List the incidents of the last 24 hours as a table.
// Run: FLASHDUTY_APP_KEY=… npx tsx examples/list-last-24h.ts
import { Flashduty } from 'flashduty-sdk';

const client = new Flashduty(); // FLASHDUTY_APP_KEY, and FLASHDUTY_BASE_URL if you use another endpoint

const end = new Date();
const start = new Date(end.getTime() - 24 * 3600_000);
const rows = [];
for await (const incident of client.listIncidents({ start_time: start, end_time: end, limit: 100 })) {
  rows.push({
    started: new Date(incident.start_time * 1000).toISOString().slice(0, 16).replace('T', ' '),
    num: incident.num,
    severity: incident.incident_severity,
    progress: incident.progress,
    channel: incident.channel_name || '(none)',
    title: incident.title.slice(0, 50),
  });
}
console.table(rows);
console.log(`${rows.length} incidents in the last 24 hours`);
