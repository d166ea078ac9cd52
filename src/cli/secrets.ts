// The values the command line must never print: those of --app-key, --access-token, --token and
// --header (a header's value), and the credentials of the environment. The messages of the command
// line quote none of them; as a second guard, whatever goes to stderr (errors, hints, progress) has
// them masked, whoever wrote the line (parseArgs, node:http, fetch, the SDK). Stdout carries results,
// which are left whole (a header's value, `application/json`, may well be in them).

import type { Io } from './output.js';

/** The flags whose values are secrets (for --header, the part after the colon). */
const SECRET_FLAGS = ['--app-key', '--access-token', '--token', '--header'];
/** Shorter values are not masked: masking every `k` of a message would hide it, not a secret. */
const MIN_MASKED = 4;

/** The secret values of `argv` (as given, before parsing: a line parseArgs refuses is masked too) and `env`. */
export function secretsOf(argv: string[], env: Record<string, string | undefined>): string[] {
  const values: string[] = [];
  argv.forEach((arg, i) => {
    const flag = SECRET_FLAGS.find((name) => arg === name || arg.startsWith(`${name}=`));
    if (flag === undefined) return;
    const value = arg === flag ? argv[i + 1] : arg.slice(flag.length + 1);
    if (value === undefined) return;
    values.push(value);
    if (flag === '--header') values.push(value.slice(value.indexOf(':') + 1).trim());
  });
  for (const name of ['FLASHDUTY_APP_KEY', 'FLASHDUTY_ACCESS_TOKEN']) {
    const value = env[name]?.trim();
    if (value) values.push(value);
  }
  // Longest first: a header's whole text is masked before its value is.
  return [...new Set(values.filter((value) => value.length >= MIN_MASKED))].sort((a, b) => b.length - a.length);
}

/** `io` with every secret value on stderr written as `***`. */
export function maskingStderr(io: Io, secrets: string[]): Io {
  if (secrets.length === 0) return io;
  return { ...io, err: (text) => io.err(secrets.reduce((line, secret) => line.replaceAll(secret, '***'), text)) };
}
