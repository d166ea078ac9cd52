// How the command line ends, for scripts: its exit codes and the one line on stderr that says what
// went wrong. 0 done; 1 the API refused a call or a delivery failed; 2 a usage error (an unknown
// command or flag, bad JSON, an unreadable file, a malformed duration or URL, a param the OpenAPI
// refuses), with nothing sent. The line names the error's class, the envelope's code and the
// message, and a note where the command line knows more (the path it meant, where a refused
// credential came from); the SDK's errors carry no credential (they are scrubbed of it), so the line
// never does.

import type { Io } from './output.js';

/** Exit codes: stable, for scripts. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

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

/** Notes of errors thrown through the command line, kept beside them (an SDK error is not changed). */
const NOTES = new WeakMap<object, string>();

/**
 * Adds a sentence to the line {@link reportError} prints for `error` (the path meant by a route
 * that is not found, where a refused credential came from); returns the error, to be thrown on.
 */
export function addNote(error: unknown, note: string): unknown {
  if (typeof error === 'object' && error !== null) NOTES.set(error, note);
  return error;
}

/** One line on stderr for what went wrong; the exit code for it. */
export function reportError(error: unknown, io: Io): number {
  if (error instanceof UsageError) {
    io.err(`flashduty: ${error.message}${error.command ? ` (see flashduty ${error.command} --help)` : ''}\n`);
    return EXIT.usage;
  }
  const e = error as { name?: string; message?: string; code?: string; requestId?: string };
  const name = e.name ?? 'Error';
  const code = e.code ? ` (${e.code})` : '';
  const request = e.requestId ? ` (request ${e.requestId})` : '';
  const note = typeof error === 'object' && error !== null ? NOTES.get(error) : undefined;
  io.err(`flashduty: ${name}${code}: ${e.message ?? String(error)}${request}${note ? ` ${note}` : ''}\n`);
  // A param the OpenAPI refuses, an option the client refuses: nothing was sent, as for a usage error.
  return name === 'RequestValidationError' || name === 'ConfigError' ? EXIT.usage : EXIT.failed;
}
