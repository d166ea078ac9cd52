// The values the command line must never print: those of --app-key, --access-token, --token and
// --header (a header's value), the credentials of the environment, and a password in a base URL. The messages of the command
// line quote none of them; as a second guard, whatever goes to stderr (errors, hints, progress) has
// them masked, whoever wrote the line (parseArgs, node:http, fetch, the SDK). Stdout carries results,
// which are left whole (a header's value, `application/json`, may well be in them).

import type { Io } from './output.js';

/** The flags whose whole values are secrets. */
const SECRET_FLAGS = ['--app-key', '--access-token', '--token'];
/** Shorter values are not masked: masking every `k` of a message would hide it, not a secret. */
const MIN_MASKED = 4;

/**
 * The secret values of `argv` (as given, before parsing: a line parseArgs refuses is masked too) and
 * `env`: the secret flags' values, a header's value and whole text, a password in a base URL (an
 * error may quote the URL), the environment's credentials.
 */
export function secretsOf(argv: string[], env: Record<string, string | undefined>): string[] {
  const valuesOf = (flag: string) =>
    argv.flatMap((arg, i) =>
      arg === flag ? (argv[i + 1] ?? []) : arg.startsWith(`${flag}=`) ? arg.slice(flag.length + 1) : [],
    );
  const values = SECRET_FLAGS.flatMap(valuesOf);
  for (const header of valuesOf('--header')) values.push(header, header.slice(header.indexOf(':') + 1).trim());
  for (const url of [...valuesOf('--base-url'), env.FLASHDUTY_BASE_URL ?? ''])
    if (URL.canParse(url)) values.push(new URL(url).password);
  for (const name of ['FLASHDUTY_APP_KEY', 'FLASHDUTY_ACCESS_TOKEN']) values.push(env[name]?.trim() ?? '');
  // Longest first: a header's whole text is masked before its value is.
  return [...new Set(values.filter((value) => value.length >= MIN_MASKED))].sort((a, b) => b.length - a.length);
}

/** `io` with every secret value on stderr written as `***`. */
export function maskingStderr(io: Io, secrets: string[]): Io {
  if (secrets.length === 0) return io;
  return { ...io, err: (text) => io.err(secrets.reduce((line, secret) => line.replaceAll(secret, '***'), text)) };
}
