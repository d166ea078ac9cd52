// A command's flags, parsed before anything is sent: node:util's parseArgs, strict, so that an
// unknown flag is a usage error naming the closest known one ("did you mean"); a count outside its
// range is a usage error naming the flag and the range (help shows the same range); a value that
// starts with a dash (`--duplicate -1`) is read as the value it is, not as parseArgs' "ambiguous";
// the flags every command takes (the credential, the base URL, --json, --help), and those several
// share (--data, a window's --since and --until). No message here quotes a flag's value.
//
// node:util parseArgs, not commander or cac: the package's runtime dependencies are ky and zod
// only, parseArgs ships with Node ≥ 18.3 (nothing to install, nothing to load), and the one thing it
// lacks, "did you mean", is a dozen lines here.

import { parseArgs } from 'node:util';
import { closest } from '../internal/closest.js';
import { UsageError } from './exit.js';
import { type Range, readCount } from './values.js';

/** A flag of a command. */
export interface Flag {
  type: 'string' | 'boolean';
  /** The flag may be given several times (`--header a --header b`). */
  multiple?: boolean;
  /** What to put after the flag in help (`<url>`, `<duration>`). */
  value?: string;
  description: string;
  /** A count: a whole number in this range, checked before the command runs; help shows it. */
  range?: Range;
  /** The default, as help shows it beside the range (`1`). */
  default?: string;
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

/** `--data`, as the commands that send a body take it. */
export const DATA_FLAG: Flag = {
  type: 'string',
  value: '<json|@file|->',
  description: 'the request body: JSON, @file, or - for stdin',
};

/** `--since` and `--until`: a window of time, as the commands that read one take it. */
export const SINCE_FLAG: Flag = {
  type: 'string',
  value: '<when>',
  description: 'window start: 30m, 24h, 7d or an ISO date (default 24h)',
};
export const UNTIL_FLAG: Flag = {
  type: 'string',
  value: '<when>',
  description: 'window end: now, a duration ago or an ISO date (default now)',
};

/** The parsed flags and positionals of one command. */
export interface Parsed {
  /** A count (a flag with a range) as its number; the other flags as given. */
  values: Record<string, string | number | boolean | string[] | undefined>;
  positionals: string[];
}

/** Parses `args` by `flags` (and the global ones); a UsageError naming the closest flag for an unknown one. */
export function parseFlags(args: string[], flags: Record<string, Flag>, command: string): Parsed {
  const all = { ...flags, ...GLOBAL_FLAGS };
  let parsed: Parsed;
  try {
    const { values, positionals } = parseArgs({
      args: joinDashValues(args, all),
      options: Object.fromEntries(
        Object.entries(all).map(([name, flag]) => [name, { type: flag.type, multiple: flag.multiple ?? false }]),
      ),
      allowPositionals: true,
      strict: true,
    });
    parsed = { values: values as Parsed['values'], positionals };
  } catch (error) {
    const message = (error as Error).message;
    const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1];
    if (unknown) {
      const name = unknown.replace(/^-+/, '');
      const near = closest(name, Object.keys(all));
      throw new UsageError(`unknown flag ${unknown}${near ? ` (did you mean --${near}?)` : ''}`, command);
    }
    // A value-taking flag followed by another flag: its value is missing (parseArgs says it in three lines).
    const ambiguous = /^Option '(--[^']+)' argument is ambiguous/.exec(message)?.[1];
    if (ambiguous) throw new UsageError(`${ambiguous} needs a value`, command);
    throw new UsageError(message.replace(/\. To specify .*$/, ''), command);
  }
  for (const [name, flag] of Object.entries(all)) {
    const text = parsed.values[name];
    if (flag.range && typeof text === 'string') parsed.values[name] = readCount(text, `--${name}`, flag.range, command);
  }
  return parsed;
}

/**
 * `--flag -1` as `--flag=-1` for a flag that takes a value, when what follows it is no flag of the
 * command: parseArgs would call it "ambiguous" (and say nothing of the range a count must be in).
 */
function joinDashValues(args: string[], all: Record<string, Flag>): string[] {
  const isFlag = (word: string) =>
    word === '--' ||
    /^-[a-zA-Z]$/.test(word) ||
    (word.startsWith('--') && Object.hasOwn(all, word.slice(2).split('=')[0] as string));
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const [arg, next] = [args[i] as string, args[i + 1]];
    if (arg === '--') return [...joined, ...args.slice(i)];
    const takesValue = arg.startsWith('--') && Object.hasOwn(all, arg.slice(2)) && all[arg.slice(2)]?.type === 'string';
    if (takesValue && next !== undefined && next.length > 1 && next.startsWith('-') && !isFlag(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
}
