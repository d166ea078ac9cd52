// Export every incident of the last 90 days to JSONL and CSV, with a progress line. The iterator
// walks the range in 31-day windows by itself. Interrupted? Run it again: it resumes from the
// window and cursor saved after each page (in <out>.state.json).
// Run: FLASHDUTY_APP_KEY=… npx tsx examples/export-90-days.ts [out-prefix]
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Flashduty, type IncidentInfo, type IncidentPage } from 'flashduty-sdk';

const prefix = process.argv[2] ?? 'incidents';
const files = { jsonl: `${prefix}.jsonl`, csv: `${prefix}.csv`, state: `${prefix}.state.json` };
const LIMIT = 100;

interface State {
  /** What is left to export: newest first, so only `end_time` moves. */
  start_time: number;
  end_time: number;
  /** The window a saved cursor belongs to. */
  window?: { start_time: number; end_time: number };
  cursor?: string;
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

const csvField = (value: string | number) => (/[",\n]/.test(String(value)) ? `"${String(value).replace(/"/g, '""')}"` : String(value));
const csvRow = (i: IncidentInfo) =>
  [i.incident_id, i.num, new Date(i.start_time * 1000).toISOString(), i.incident_severity, i.progress, i.channel_name, i.title].map(csvField).join(',');

/** The rest of a saved window from its cursor, then the rest of the range. */
async function* remainingPages(): AsyncGenerator<IncidentPage> {
  const { start_time, window, cursor } = state; // `state` moves on as pages arrive
  let end = state.end_time;
  if (window && cursor) {
    yield* client.listIncidents({ ...window, search_after_ctx: cursor, limit: LIMIT }).pages();
    end = window.start_time - 1; // that window's first second is done too
  }
  if (end > start_time) yield* client.listIncidents({ start_time, end_time: end, limit: LIMIT }).pages();
}

for await (const page of remainingPages()) {
  appendFileSync(files.jsonl, page.items.map((i) => `${JSON.stringify(i)}\n`).join(''));
  appendFileSync(files.csv, page.items.map((i) => `${csvRow(i)}\n`).join(''));
  const window = { start_time: page.request.start_time, end_time: page.request.end_time };
  state = page.hasNextPage && page.searchAfterCtx
    ? { ...state, window, cursor: page.searchAfterCtx, exported: state.exported + page.items.length }
    : { start_time: state.start_time, end_time: window.start_time - 1, exported: state.exported + page.items.length };
  writeFileSync(files.state, JSON.stringify(state));
  process.stdout.write(`\rexported ${state.exported} incidents…`);
}
rmSync(files.state, { force: true });
console.log(`\ndone: ${state.exported} incidents in ${files.jsonl} and ${files.csv}`);
