// What the request loop accepts from the wire, loaded with the first call (the client's up-front
// code stays small). Redirects: a mutation follows none (a 307 loop must not send it again, a 302
// must not turn it into a GET); a read follows at most MAX_HOPS within the base URL's origin, and
// only those that keep its method and body. Bodies: counted while they stream in, decompressed, and
// given up as soon as they pass the limit, so a huge or endless answer never sits in memory; a body
// that outlasts the attempt's time is cancelled.
// Connection errors name the host and the reason.

import { APIError, ResponseTooLargeError } from '../core/api-errors.js';
import { requestIdOf } from '../core/envelope-reader.js';
import type { SanitizedCause } from '../internal/cause.js';
import type { Attempt } from '../internal/abort.js';
import { readBounded } from '../internal/bytes.js';
import type { LogFn } from '../internal/logger.js';

export { sanitizeCause } from '../internal/cause.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Redirects that keep the method and the body; the others turn a POST into a GET. */
const KEEPING = new Set([307, 308]);
const MAX_HOPS = 5;

/** A redirect answer: its status, or an opaque one a browser reports as status 0. */
export function isRedirect(response: Response): boolean {
  return REDIRECTS.has(response.status) || response.type === 'opaqueredirect';
}

/** Where a redirected call stands. */
export interface Hop {
  /** The URL that answered with the redirect (app_key included). */
  at: string;
  /** The client's base URL: no redirect leaves its origin. */
  base: string;
  method: string;
  mutation: boolean;
  /** `app_key=…` where the call sends the app key: added to a target without an `app_key` of its own. */
  appKeyParam: string | undefined;
  /** The call's URL as errors and logs show it. */
  url: string;
  /** The answer's headers as errors show them (scrubbed of the key). */
  show: (headers: Headers) => Headers;
}

/**
 * Follows `response`'s redirects as far as the rules allow and resolves to the first answer that
 * is not one; a redirect refused is an APIError with its status (not retried: it would be refused again).
 */
export async function follow(
  response: Response,
  hop: Hop,
  send: (url: string) => Promise<Response>,
  log: LogFn,
): Promise<Response> {
  for (let hops = 0, at = hop.at; isRedirect(response); hops++) {
    const next = nextHop(response, at, hop, hops);
    void response.body?.cancel().catch(() => {});
    if ('refused' in next) {
      const message = `HTTP ${response.status}: redirect not followed (${next.refused})`;
      throw new APIError(message, {
        status: response.status,
        headers: hop.show(response.headers),
        url: hop.url,
        requestId: requestIdOf(response.headers),
      });
    }
    log('debug', `${hop.method} ${hop.url} → ${response.status}, following to ${next.url}`);
    at = next.url;
    response = await send(next.url);
  }
  return response;
}

/** Where a read may go next, or why it may not: `{ url }` to follow, `{ refused }` otherwise. */
function nextHop(response: Response, from: string, hop: Hop, hops: number): { url: string } | { refused: string } {
  if (hop.mutation) return { refused: 'a mutation is never redirected' };
  if (hops >= MAX_HOPS) return { refused: `more than ${MAX_HOPS} redirects` };
  if (hop.method !== 'GET' && !KEEPING.has(response.status))
    return { refused: `a ${response.status} would turn ${hop.method} into GET` };
  const location = response.headers.get('location');
  if (!location) return { refused: 'no Location' };
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    return { refused: 'an unreadable Location' };
  }
  const { origin } = new URL(hop.base);
  if (target.origin !== origin) return { refused: `it leaves ${origin}` };
  if (hop.appKeyParam !== undefined && !target.searchParams.has('app_key'))
    target.search = target.search ? `${target.search}&${hop.appKeyParam}` : `?${hop.appKeyParam}`;
  return { url: target.href };
}

/** What a {@link readText} failure is reported with. */
export interface BodyContext {
  status: number;
  url: string;
  requestId?: string;
}

/**
 * The body as text, at most `limit` bytes after decompression, counted chunk by chunk as they
 * arrive and decoded once at the end (decoding chunk by chunk costs more). Over the limit, the
 * stream is cancelled and a ResponseTooLargeError thrown. The read is guarded by the attempt: out of
 * time or aborted, it is cancelled, which closes the connection.
 */
export function readText(response: Response, limit: number, context: BodyContext, attempt: Attempt): Promise<string> {
  const tooLarge = () => new ResponseTooLargeError(limit, { ...context, requestId: requestIdOf(response.headers) });
  // A declared length is the encoded size: conclusive only when nothing decompresses it.
  const declared = response.headers.has('content-encoding') ? 0 : Number(response.headers.get('content-length')) || 0;
  if (declared > limit) {
    void response.body?.cancel().catch(() => {});
    return Promise.reject(tooLarge());
  }
  // No stream to count (a fetch without response streams, a 204): the whole text, still on the clock.
  if (!response.body) return attempt.guard(response.text(), { timed: true });
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  const read = async () => {
    const bytes = await readBounded(reader, limit, declared);
    if (bytes === 'too-large') throw tooLarge();
    return decoder.decode(bytes);
  };
  return attempt.guard(read(), { timed: true, cancel });
}

const decoder = new TextDecoder();

/** "Connection to host failed: reason", the reason being the innermost cause's; never the URL's query. */
export function connectionMessage(baseUrl: string, cause: SanitizedCause | undefined): string {
  let reason = '';
  for (let e = cause; e; e = e.cause) {
    const code = typeof e.code === 'string' ? e.code : '';
    const text = e.message && e.message !== 'fetch failed' ? e.message : code;
    if (text) reason = code && !text.includes(code) ? `${code}: ${text}` : text;
  }
  return `Connection to ${new URL(baseUrl).host} failed${reason ? `: ${reason}` : ''}.`;
}
