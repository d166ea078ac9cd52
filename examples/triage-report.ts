// A triage report: the open incidents of the last 7 days, grouped by severity and channel.
// Run: FLASHDUTY_APP_KEY=… npx tsx examples/triage-report.ts
import { Flashduty } from 'flashduty-sdk';

const client = new Flashduty();
const end = new Date();
const start = new Date(end.getTime() - 7 * 86_400_000);
const groups = new Map<string, Map<string, string[]>>();
for await (const incident of client.listIncidents({
  start_time: start,
  end_time: end,
  progress: ['Triggered', 'Processing'],
  limit: 100,
})) {
  const bySeverity = groups.get(incident.incident_severity) ?? new Map<string, string[]>();
  groups.set(incident.incident_severity, bySeverity);
  const channel = incident.channel_name || '(no channel)';
  bySeverity.set(channel, [
    ...(bySeverity.get(channel) ?? []),
    `${incident.num} ${incident.title}${incident.ack_time ? ' (acked)' : ''}`,
  ]);
}
const order = ['Critical', 'Warning', 'Info'];
for (const severity of [...groups.keys()].sort(
  (a, b) => ((order.indexOf(a) + 99) % 99) - ((order.indexOf(b) + 99) % 99),
)) {
  const byChannel = groups.get(severity) as Map<string, string[]>;
  const count = [...byChannel.values()].reduce((n, list) => n + list.length, 0);
  console.log(`\n${severity}: ${count} open`);
  for (const [channel, incidents] of [...byChannel].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`  ${channel} (${incidents.length})`);
    for (const line of incidents.slice(0, 5)) console.log(`    - ${line}`);
    if (incidents.length > 5) console.log(`    … and ${incidents.length - 5} more`);
  }
}
if (groups.size === 0) console.log('No open incidents in the last 7 days.');
