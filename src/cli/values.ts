// What a flag's value (or an argument) means, read before anything is sent: `--data` as JSON text,
// `@file` or `-` (stdin); files of text, JSON or to upload; points in time (`now`, a duration ago
// such as `30m`, `24h`, `7d`, or an ISO date) and windows of them; http(s) URLs; whole numbers;
// `Name: value` headers.
// Every refusal is a UsageError naming the flag: one line on stderr and exit 2, nothing sent.

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
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    const ms = Date.parse(text);
    if (!Number.isNaN(ms)) return ms;
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

/** A whole number ≥ `min`. */
export function readWhole(text: string | undefined, flag: string, command: string, min: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min)
    throw new UsageError(`${flag}: expected a whole number ≥ ${min}, got ${JSON.stringify(text)}`, command);
  return value;
}

/** `--header 'Name: value'`, several times, as an object. */
export function readHeaders(values: string[] | undefined, command: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const text of values ?? []) {
    const colon = text.indexOf(':');
    const name = colon > 0 ? text.slice(0, colon).trim() : '';
    if (!isHeaderName(name))
      throw new UsageError(`--header: expected 'Name: value', got ${JSON.stringify(text)}`, command);
    headers[name] = text.slice(colon + 1).trim();
  }
  return headers;
}
