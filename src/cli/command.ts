// What a command of the command line is (its words, flags, help and run), and what it is given to
// run: its parsed flags, the output, and the client, made on first use from --app-key / --base-url
// or the environment, as `new Flashduty()` reads it.

import type { Flashduty } from '../client/client.js';
import type { Flag, Parsed } from './args.js';
import type { Io } from './output.js';

/** One command: `flashduty <words…> [args] [flags]`. */
export interface Command {
  /** `['incidents', 'list']`. */
  words: string[];
  summary: string;
  /** Positional arguments as help shows them (`<event_type>`, `<incident_id…>`). */
  args?: string;
  flags: Record<string, Flag>;
  /** One example line, shown by `--help` (a generated command's is made from its body's schema when asked). */
  example: string | (() => Promise<string>);
  /** More help, loaded only for `--help` (a generated command's body fields). */
  details?(): Promise<string>;
  run(context: Context): Promise<number>;
}

/** What a command runs with. */
export interface Context extends Parsed {
  /** The command's words, for messages (`incidents list`). */
  name: string;
  json: boolean;
  io: Io;
  /** Standard input, read whole (for `--data -`). */
  stdin: () => string;
  /** The client, made once. */
  client: () => Promise<Flashduty>;
}

/** Exit codes: stable, for scripts. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
