// The app_key travels in the query string (an access token or an operation's own token in the
// `Authorization` header), so any URL, message, header or body that came near a request may carry
// it, raw or in any form a server might echo it in: percent-encoded (either hex
// case, `+` for a space, encoded twice), JSON-escaped (`\uXXXX`, `\/`), HTML-escaped, or its UTF-8
// bytes read as Latin-1 (how a header echoes it). A password in a URL's user information
// (`https://user:secret@proxy/…`, a base URL of the user's) is scrubbed too. Everything the SDK shows
// a user passes through here first, and whole: a text is scrubbed before it is cut, so a cut cannot
// split a key from its mask.

const APP_KEY_PARAM = /(app_key=)[^&#\s"'<>]*/gi;
const URL_PASSWORD = /(\/\/[^\s/?#@:"'<>]*:)[^\s/?#@"'<>]*(@)/g;

export type Redactor = (text: string) => string;

const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;
const HTML_NAMED: Record<string, string[]> = {
  '&': ['&amp;'],
  '<': ['&lt;'],
  '>': ['&gt;'],
  '"': ['&quot;'],
  "'": ['&#39;', '&apos;'],
};

function literal(text: string): string {
  return text.replace(SYNTAX, '\\$&');
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** Every way one character of the key may be written in an echo, as regex alternatives. */
function forms(char: string): string[] {
  const code = char.codePointAt(0) as number;
  const bytes = [...new TextEncoder().encode(char)];
  const out = new Set<string>([literal(char)]);
  // Percent-encoded, once or twice (`%2B`, `%252B`); the regex is case-insensitive, so `%2b` too.
  out.add(bytes.map((b) => `%(?:25)?${hex(b, 2)}`).join(''));
  if (char === ' ') out.add('\\+');
  // JSON: \uXXXX (a surrogate pair beyond the BMP), the short escapes, and `\/`.
  out.add(
    [...char].length === 1 && char.length === 2
      ? `\\\\u${hex(char.charCodeAt(0), 4)}\\\\u${hex(char.charCodeAt(1), 4)}`
      : `\\\\u${hex(code, 4)}`,
  );
  const json = JSON.stringify(char).slice(1, -1);
  if (json !== char) out.add(literal(json));
  if (char === '/') out.add('\\\\/');
  // HTML: named and numeric entities.
  for (const entity of HTML_NAMED[char] ?? []) out.add(literal(entity));
  out.add(`&#0*${code};`);
  out.add(`&#x0*${code.toString(16)};`);
  // UTF-8 bytes decoded as Latin-1, as a Headers object shows a non-ASCII header value.
  if (bytes.length > 1) out.add(literal(String.fromCharCode(...bytes)));
  // Longest first, so that `\\` is consumed whole rather than as `\` plus a stray backslash.
  return [...out].sort((a, b) => b.length - a.length);
}

/** A regex matching `secret` in any of the forms above, each character independently. */
function secretPattern(secret: string): RegExp {
  const parts = [...secret].map((char) => `(?:${forms(char).join('|')})`);
  return new RegExp(parts.join(''), 'gi');
}

/** Scrubs `app_key=` parameters, and the secrets themselves in every form a foreign text may quote them. */
export function createRedactor(secrets: string | readonly string[] = []): Redactor {
  const each = [secrets].flat().filter((secret) => secret !== '');
  // Longest first: a secret that contains another is scrubbed whole.
  const parts = each.sort((a, b) => b.length - a.length).map((secret) => secretPattern(secret).source);
  const pattern = parts.length > 0 ? new RegExp(parts.join('|'), 'gi') : undefined;
  return (text) => {
    const out = text.replace(APP_KEY_PARAM, '$1***').replace(URL_PASSWORD, '$1***$2');
    return pattern ? out.replace(pattern, '***') : out;
  };
}

export const redact: Redactor = createRedactor();

/** A copy of parsed JSON with every string (keys included) scrubbed. */
export function scrubDeep(value: unknown, scrub: Redactor, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, scrub, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(out, scrub(key), {
      value: scrubDeep(item, scrub, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** A copy of response headers with names and values scrubbed: an echoing `Location` or debug header is common. */
export function scrubHeaders(headers: Headers, scrub: Redactor): Headers {
  const out = new Headers();
  headers.forEach((value, name) => out.append(scrub(name), scrub(value)));
  return out;
}
