// Export every incident of the last 90 days to JSONL and CSV, with a progress line. The iterator
// walks the range in 31-day windows by itself. Interrupted? Run it again: it resumes from the
// resumeToken saved after each page (in <out>.state.json).
// Run: FLASHDUTY_APP_KEY=… npx tsx examples/export-90-days.ts [out-prefix]
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Flashduty, type IncidentInfo } from 'flashduty-sdk';

const prefix = process.argv[2] ?? 'incidents';
const files = { jsonl: `${prefix}.jsonl`, csv: `${prefix}.csv`, state: `${prefix}.state.json` };
const LIMIT = 100;

interface State {
  /** The range, fixed at the first run: a resume token belongs to its params. */
  start_time: number;
  end_time: number;
  /** The resumeToken of the last page written. */
  token?: string;
  exported: number;
}

const client = new Flashduty();
const now = Math.floor(Date.now() / 1000);
let state: State = existsSync(files.state)
  ? (JSON.parse(readFileSync(files.state, 'utf8')) as State)
  : { start_time: now - 90 * 86_400, end_time: now, exported: 0 };
if (!existsSync(files.state)) {
  writeFileSync(files.jsonl, '');
  writeFileSync(files.csv, 'incident_id,num,start_time,severity,progress,channel,title\n');
}

const csvField = (value: string | number) =>
  /[",\n]/.test(String(value)) ? `"${String(value).replace(/"/g, '""')}"` : String(value);
const csvRow = (i: IncidentInfo) =>
  [
    i.incident_id,
    i.num,
    new Date(i.start_time * 1000).toISOString(),
    i.incident_severity,
    i.progress,
    i.channel_name,
    i.title,
  ]
    .map(csvField)
    .join(',');

const params = { start_time: state.start_time, end_time: state.end_time, limit: LIMIT };
for await (const page of client.listIncidents(params).pages(state.token ? { resumeFrom: state.token } : {})) {
  appendFileSync(files.jsonl, page.items.map((i) => `${JSON.stringify(i)}\n`).join(''));
  appendFileSync(files.csv, page.items.map((i) => `${csvRow(i)}\n`).join(''));
  state = { ...state, token: page.resumeToken, exported: state.exported + page.items.length };
  writeFileSync(files.state, JSON.stringify(state));
  process.stdout.write(`\rexported ${state.exported} incidents…`);
}
rmSync(files.state, { force: true });
console.log(`\ndone: ${state.exported} incidents in ${files.jsonl} and ${files.csv}`);
