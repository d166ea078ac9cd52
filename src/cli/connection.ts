// Which service a command's client asks, and with which credential: the flags before the
// environment, as the client reads them (an operation's own --token alone is enough for its call);
// the credential named by where it came from (`--app-key`, `$FLASHDUTY_APP_KEY`, …), never by its
// value. No credential, or two at once, is a usage error in the command line's words. A refusal of
// the credential (401, 403) is explained by that source and the base URL asked.

import { UsageError } from './exit.js';

/** What a client is made with, and how messages name it. */
export interface Connection {
  /** The client's options: one credential, and the base URL where one is named. */
  options: { appKey?: string; accessToken?: string; baseUrl?: string };
  /** Where the credential came from, for messages: `the app key from $FLASHDUTY_APP_KEY`. */
  source: string;
  /** The base URL asked, where messages show it (no user, query or fragment); undefined for the default. */
  baseUrl: string | undefined;
}

/** A credential and where it came from. */
type Named = { option: 'appKey' | 'accessToken'; value: string; source: string };

/**
 * The connection of a command's flags and environment. The flags win: where they name a credential
 * (`--app-key`, `--access-token`), no variable is read for it; else `$FLASHDUTY_APP_KEY` or
 * `$FLASHDUTY_ACCESS_TOKEN` (an empty one is unset); else an operation's own `--token`.
 */
export function connectionFrom(
  values: Record<string, unknown>,
  env: Record<string, string | undefined>,
  command: string,
): Connection {
  const credential = credentialOf(values, env, command);
  const baseUrl = (values['base-url'] as string | undefined) ?? env.FLASHDUTY_BASE_URL;
  // A call with its own token is authenticated by it: a refusal is that token's.
  const source = values.token === undefined ? credential.source : 'the token from --token';
  return { options: { [credential.option]: credential.value, ...(baseUrl ? { baseUrl } : {}) }, source, baseUrl };
}

function credentialOf(
  values: Record<string, unknown>,
  env: Record<string, string | undefined>,
  command: string,
): Named {
  const flag = (name: 'app-key' | 'access-token', option: Named['option'], what: string): Named | undefined => {
    const value = values[name] as string | undefined;
    if (value === undefined) return undefined;
    if (value.trim() === '') throw new UsageError(`--${name} is empty`, command);
    return { option, value, source: `the ${what} from --${name}` };
  };
  const fromFlags = [flag('app-key', 'appKey', 'app key'), flag('access-token', 'accessToken', 'access token')];
  if (fromFlags[0] && fromFlags[1])
    throw new UsageError('--app-key and --access-token are both given: a call sends one credential; give one', command);
  const named = fromFlags[0] ?? fromFlags[1];
  if (named) return named;
  const variable = (name: string, option: Named['option'], what: string): Named | undefined => {
    const value = env[name];
    return value?.trim() ? { option, value, source: `the ${what} from $${name}` } : undefined;
  };
  const fromEnv = [
    variable('FLASHDUTY_APP_KEY', 'appKey', 'app key'),
    variable('FLASHDUTY_ACCESS_TOKEN', 'accessToken', 'access token'),
  ];
  if (fromEnv[0] && fromEnv[1])
    throw new UsageError(
      '$FLASHDUTY_APP_KEY and $FLASHDUTY_ACCESS_TOKEN are both set: a call sends one credential; unset one, or name one with --app-key or --access-token',
      command,
    );
  const set = fromEnv[0] ?? fromEnv[1];
  if (set) return set;
  const token = values.token as string | undefined;
  if (token?.trim()) return { option: 'accessToken', value: token, source: 'the token from --token' };
  throw new UsageError(
    'no credential: set $FLASHDUTY_APP_KEY (or $FLASHDUTY_ACCESS_TOKEN), or pass --app-key',
    command,
  );
}

/**
 * The sentence that explains a refused credential (an error of status 401 or 403): where it came
 * from and the service asked. Undefined for any other error.
 */
export function refusalNote(error: unknown, connection: Connection, defaultBaseUrl: string): string | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  if (status !== 401 && status !== 403) return undefined;
  const why = status === 403 ? ' (it lacks a permission this call needs)' : '';
  return `${capitalized(connection.source)} was refused by ${shownUrl(connection.baseUrl ?? defaultBaseUrl)}${why}.`;
}

/** A URL as messages show it: without user, password, query or fragment (any may hold a secret). */
export function shownUrl(text: string): string {
  try {
    const url = new URL(text);
    return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return '(the base URL, which is not a URL)';
  }
}

const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
