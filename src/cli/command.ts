// What a command of the command line is (its words, flags, help and run: one row of the table in
// commands/index.ts), and what it is given to run: its parsed flags, the output, standard input,
// the client (made on first use from the flags or the environment as `new Flashduty()` reads them,
// or for a connection the command names), and the signal of Ctrl-C for commands that run until it.

import type { Flashduty } from '../client/client.js';
import type { Connection } from './connection.js';
import type { Flag, Parsed } from './flags.js';
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
  /** Runs the command; resolves with its exit code (a UsageError or an API error thrown is reported by main). */
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
  /**
   * The client: of the flags and the environment, made once; or of `connection` (a running mock's,
   * `--via`). A refusal of its credential (401, 403) is reported with where it came from.
   */
  client: (connection?: Connection) => Promise<Flashduty>;
  /** Aborted on the first SIGINT or SIGTERM, listened for from the first call on (a command that runs until Ctrl-C). */
  stopSignal: () => AbortSignal;
}
