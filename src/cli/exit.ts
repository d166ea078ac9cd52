// How the command line ends, for scripts: its exit codes and the one line on stderr that says what
// went wrong. 0 done; 1 the API refused a call or a delivery failed; 2 a usage error (an unknown
// command or flag, bad JSON, an unreadable file, a malformed duration or URL, a param the OpenAPI
// refuses), with nothing sent. The line names the error's class, the envelope's code and the
// message; the SDK's errors carry no credential (they are scrubbed of it), so the line never does.

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
  io.err(`flashduty: ${name}${code}: ${e.message ?? String(error)}${request}\n`);
  // A param the OpenAPI refuses, an option the client refuses: nothing was sent, as for a usage error.
  return name === 'RequestValidationError' || name === 'ConfigError' ? EXIT.usage : EXIT.failed;
}
