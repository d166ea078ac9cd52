// What the command line takes from its words, checked before anything is sent: flags by node:util's
// parseArgs (strict: an unknown flag is refused, with the closest known one suggested), durations
// (`30m`, `24h`, `7d`, `now`, or an ISO date), URLs, `--data` as JSON text, `@file` or `-` (stdin),
// and files. Every refusal is a UsageError: one line on stderr and exit 2, nothing sent.
//
// node:util parseArgs, not commander or cac: the package's runtime dependencies are ky and zod
// only, parseArgs ships with Node ≥ 18.3 (nothing to install, nothing to load), and the one thing it
// lacks, "did you mean", is a dozen lines here.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { closest } from '../internal/closest.js';

/** A mistake in the command line: exit 2, nothing sent. */
export class UsageError extends Error {
  /** The command whose `--help` explains the fix, if one was recognised. */
  readonly command: string | undefined;

  constructor(message: string, command?: string) {
    super(message);
    this.name = 'UsageError';
    this.command = command;
  }
}

/** A flag of a command. */
export interface Flag {
  type: 'string' | 'boolean';
  /** The flag may be given several times (`--header a --header b`). */
  multiple?: boolean;
  /** What to put after the flag in help (`<url>`, `<duration>`). */
  value?: string;
  description: string;
}

/** Flags every command takes. */
export const GLOBAL_FLAGS: Record<string, Flag> = {
  'app-key': {
    type: 'string',
    value: '<key>',
    description: 'the app key (default: $FLASHDUTY_APP_KEY); never printed',
  },
  'access-token': {
    type: 'string',
    value: '<token>',
    description: 'an access token instead of the app key (default: $FLASHDUTY_ACCESS_TOKEN); never printed',
  },
  'base-url': {
    type: 'string',
    value: '<url>',
    description: 'the service (default: $FLASHDUTY_BASE_URL or https://api.flashcat.cloud)',
  },
  json: { type: 'boolean', description: 'machine-readable output: one JSON object per line' },
  help: { type: 'boolean', description: 'show this help' },
};

/** The parsed flags and positionals of one command. */
export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** Parses `args` by `flags` (and the global ones); a UsageError naming the closest flag for an unknown one. */
export function parseFlags(args: string[], flags: Record<string, Flag>, command: string): Parsed {
  const all = { ...flags, ...GLOBAL_FLAGS };
  try {
    const { values, positionals } = parseArgs({
      args,
      options: Object.fromEntries(
        Object.entries(all).map(([name, flag]) => [name, { type: flag.type, multiple: flag.multiple ?? false }]),
      ),
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Parsed['values'], positionals };
  } catch (error) {
    const message = (error as Error).message;
    const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1];
    if (unknown) {
      const name = unknown.replace(/^-+/, '');
      const near = closest(name, Object.keys(all));
      throw new UsageError(`unknown flag ${unknown}${near ? ` (did you mean --${near}?)` : ''}`, command);
    }
    throw new UsageError(message.replace(/\. To specify .*$/, ''), command);
  }
}

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
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(`--header: expected 'Name: value', got ${JSON.stringify(text)}`, command);
    headers[name] = text.slice(colon + 1).trim();
  }
  return headers;
}
