// What a flag's value (or an argument) means, read before anything is sent: `--data` as JSON text,
// `@file` or `-` (stdin); files of text, JSON or to upload; points in time (`now`, a duration ago
// such as `30m`, `24h`, `7d`, or an ISO date) and windows of them; durations within a range
// (`--interval 5s`); http(s) URLs; ids; counts within their range; `Name: value` headers, whose
// values HTTP can send.
// Every refusal is a UsageError naming the flag: one line on stderr and exit 2, nothing sent. A
// header's value is never quoted (it may be a secret), nor is anything of a header without a name.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { isHeaderName } from '../internal/http-header.js';
import { UsageError } from './exit.js';

/** `--data`: JSON text, `@file` or `-` (standard input), as an object or array. */
export function readData(text: string | undefined, command: string, stdin: () => string): unknown {
  if (text === undefined) return undefined;
  const source = text === '-' ? stdin() : text.startsWith('@') ? readText(text.slice(1), '--data', command) : text;
  try {
    return JSON.parse(source) as unknown;
  } catch (error) {
    throw new UsageError(`--data is not valid JSON: ${(error as Error).message}`, command);
  }
}

/** A file's text; a UsageError naming the flag when it cannot be read. */
export function readText(file: string, what: string, command: string): string {
  return readOrRefuse(() => readFileSync(file, 'utf8'), file, what, command);
}

/** A file to upload, named as on disk (the service reads an archive's kind from its name); a UsageError when it cannot be read. */
export function readFile(file: string, what: string, command: string): File {
  return new File([readOrRefuse(() => readFileSync(file), file, what, command)], basename(file));
}

function readOrRefuse<T>(read: () => T, file: string, what: string, command: string): T {
  try {
    return read();
  } catch (error) {
    throw new UsageError(
      `${what}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      command,
    );
  }
}

/** A file of JSON; a UsageError when it cannot be read or parsed. */
export function readJsonFile(file: string, what: string, command: string): unknown {
  const text = readText(file, what, command);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${what}: ${file} is not valid JSON: ${(error as Error).message}`, command);
  }
}

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A point in time: `now`, a duration ago (`30m`, `24h`, `7d`), or an ISO date; Unix ms. */
export function readTime(text: string, flag: string, command: string, now = Date.now()): number {
  if (text === 'now') return now;
  const ago = /^(\d+)([smhdw])$/.exec(text);
  if (ago) return now - Number(ago[1]) * (UNITS[ago[2] as string] as number);
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (date) {
    const ms = Date.parse(text);
    // Date.parse rolls a day that does not exist over (2026-02-30 is March 2nd): refused instead.
    const [year, month, day] = date.slice(1).map(Number) as [number, number, number];
    const real = new Date(Date.UTC(year, month - 1, day));
    const exists = real.getUTCFullYear() === year && real.getUTCMonth() === month - 1 && real.getUTCDate() === day;
    if (!Number.isNaN(ms) && exists) return ms;
  }
  throw new UsageError(
    `${flag}: expected a duration (30m, 24h, 7d), now, or an ISO date; got ${JSON.stringify(text)}`,
    command,
  );
}

const DAY_MS = 86_400_000;

/**
 * `--since` and `--until`, as Unix ms: until defaults to now, since to a day before until; since
 * must come first.
 */
export function readWindow(
  values: { since?: unknown; until?: unknown },
  command: string,
  now = Date.now(),
): { since: number; until: number } {
  const until = values.until === undefined ? now : readTime(values.until as string, '--until', command, now);
  const since = values.since === undefined ? until - DAY_MS : readTime(values.since as string, '--since', command, now);
  if (until <= since) throw new UsageError('--since must be before --until', command);
  return { since, until };
}

/** An http:// or https:// URL. */
export function readUrl(text: string | undefined, flag: string, command: string): string {
  if (text === undefined) throw new UsageError(`${flag} is required`, command);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${flag}: not a URL: ${JSON.stringify(text)}`, command);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${flag}: expected an http:// or https:// URL, got ${JSON.stringify(text)}`, command);
  return url.href;
}

/** A whole number from `min` to `max`. */
export interface Range {
  min: number;
  max: number;
}

/** A count within its range (a flag's, as help shows it). */
export function readCount(text: string, flag: string, range: Range, command: string): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || value < range.min || value > range.max)
    throw new UsageError(
      `${flag}: expected a whole number from ${range.min} to ${range.max}, got ${JSON.stringify(text)}`,
      command,
    );
  return value;
}

/** An id: a whole number ≥ 1 (an integration's). */
export function readId(text: string | undefined, flag: string, command: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1)
    throw new UsageError(`${flag}: expected an id (a whole number ≥ 1), got ${JSON.stringify(text)}`, command);
  return value;
}

/** A duration (`5s`, `2m`) within `range`, in ms. */
export function readDuration(text: string, flag: string, range: Range, command: string): number {
  const match = /^(\d+)([smhdw])$/.exec(text);
  const ms = match ? Number(match[1]) * (UNITS[match[2] as string] as number) : NaN;
  if (!(ms >= range.min && ms <= range.max))
    throw new UsageError(
      `${flag}: expected a duration from ${formatDuration(range.min)} to ${formatDuration(range.max)} (such as 5s or 1m), got ${JSON.stringify(text)}`,
      command,
    );
  return ms;
}

/** A duration in ms as a flag takes it: `5s`, `5m`, `7d`, in the largest unit (up to days) that divides it. */
export function formatDuration(ms: number): string {
  const [unit, size] = (['d', 'h', 'm', 's'] as const)
    .map((unit) => [unit, UNITS[unit] as number] as const)
    .find(([, size]) => ms % size === 0) ?? ['ms', 1];
  return `${ms / size}${unit}`;
}

/** Whether HTTP cannot carry `value` in a header: a control character but the tab (a line break ends the header). */
function unsendable(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true;
  }
  return false;
}

/**
 * `--header 'Name: value'`, several times, as an object. A value with a line break (or another
 * control character) is refused, naming the header; a header without a name, naming nothing of it.
 */
export function readHeaders(values: string[] | undefined, command: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const text of values ?? []) {
    const colon = text.indexOf(':');
    const name = colon > 0 ? text.slice(0, colon).trim() : '';
    if (!isHeaderName(name))
      throw new UsageError(
        "--header: expected 'Name: value', an HTTP header name and a colon before the value (what was given is not shown: it may hold a secret)",
        command,
      );
    const value = text.slice(colon + 1).trim();
    if (unsendable(value))
      throw new UsageError(
        `--header ${name}: its value has a line break or another control character, which HTTP cannot send; give it on one line`,
        command,
      );
    headers[name] = value;
  }
  return headers;
}
