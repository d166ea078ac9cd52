// What the command line prints. For scripts (`--json`): one JSON object per line for lists, written
// as each page arrives so that `| jq` streams; the result as one line otherwise. For people: a
// table of the columns that matter (ids, names, titles, states, times: Unix seconds and milliseconds
// as dates) and the result as indented JSON. Progress goes to stderr, and only when stderr is a
// terminal. Stdout carries results only. Words of a command line printed to be run are quoted as a
// POSIX shell reads them.

/** Where a command writes. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** stderr is a terminal: progress may be shown there. */
  tty: boolean;
}

/**
 * The columns of a table: from each group, the first field the items have (one id, the severity,
 * the state, the type, the title or name, an email, a time); the rest of a row is left to `--json`.
 */
const COLUMN_GROUPS = [
  ['num'],
  [
    'incident_id',
    'alert_id',
    'member_id',
    'person_id',
    'team_id',
    'channel_id',
    'role_id',
    'schedule_id',
    'template_id',
    'rule_id',
    'integration_id',
    'event_id',
    'application_id',
    'issue_id',
    'id',
  ],
  ['incident_severity', 'alert_severity', 'severity'],
  ['progress', 'alert_status', 'status'],
  ['event_type', 'type'],
  [
    'title',
    'member_name',
    'person_name',
    'team_name',
    'channel_name',
    'role_name',
    'template_name',
    'schedule_name',
    'rule_name',
    'application_name',
    'name',
  ],
  ['email'],
  ['created_at', 'start_time', 'updated_at'],
];
const MAX_COLUMNS = 7;
/** Unix seconds that are times of the service's (2001 to 5138); the same in milliseconds are its times in ms. */
const SECONDS = { min: 1e9, max: 1e11 };
const MAX_CELL = 48;

/** The result of a call that is not a list. */
export function printData(io: Io, data: unknown, json: boolean): void {
  io.out(json ? `${JSON.stringify(data ?? null)}\n` : `${JSON.stringify(data ?? null, null, 2)}\n`);
}

/** Prints items as they come: JSON lines, or a table once all are in. Resolves with how many. */
export async function printItems(io: Io, items: AsyncIterable<unknown>, json: boolean): Promise<number> {
  const rows: unknown[] = [];
  let count = 0;
  for await (const item of items) {
    count++;
    if (json) io.out(`${JSON.stringify(item)}\n`);
    else rows.push(item);
    if (io.tty && count % 100 === 0) io.err(`\r${count} items…`);
  }
  if (io.tty && count >= 100) io.err('\r');
  if (!json) io.out(renderTable(rows));
  return count;
}

/** A plain-text table: of the given columns, or of the items' most telling scalar fields. */
export function renderTable(items: unknown[], only?: string[]): string {
  if (items.length === 0) return '(none)\n';
  const records = items.map((item) =>
    typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : { value: item },
  );
  const present = new Set(records.flatMap((record) => Object.keys(record).filter((key) => isScalar(record[key]))));
  const chosen = COLUMN_GROUPS.flatMap((group) => group.find((key) => present.has(key)) ?? []);
  // Items of no known shape: their first scalar fields.
  const columns =
    only?.filter((key) => present.has(key)) ??
    (chosen.length >= 2 ? chosen : [...chosen, ...[...present].filter((key) => !chosen.includes(key))]).slice(
      0,
      MAX_COLUMNS,
    );
  const cells = records.map((record) => columns.map((column) => cell(column, record[column])));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((row) => (row[i] as string).length)));
  const line = (row: string[]) =>
    `${row
      .map((text, i) => text.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd()}\n`;
  return [line(columns.map((column) => column.toUpperCase())), ...cells.map(line)].join('');
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function cell(column: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  // Unix seconds or milliseconds in fields of times read as dates: people read dates.
  if (typeof value === 'number' && /(_at|_time)$/.test(column)) {
    if (value >= SECONDS.min && value < SECONDS.max) return formatTime(value * 1000);
    if (value >= SECONDS.min * 1000 && value < SECONDS.max * 1000) return formatTime(value);
  }
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).replace(/\s+/g, ' ');
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

/** A time (Unix ms) as tables show it: `2026-11-01 00:00:05`, in UTC. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

/** A word as a POSIX shell reads it back: in single quotes, a single quote written as '\''. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** A word of a command line printed to be run: as it is where a shell reads it so, else quoted. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : shellQuote(text);
}
