// `Retry-After`, read strictly: delay-seconds (decimals accepted, as some proxies send them) or an
// IMF-fixdate. Anything else (a negative number, two merged values such as "1, 2", free text) is
// ignored, so the ordinary backoff applies: Date.parse would read "-1" or "1, 2" as some date and
// turn a broken header into a retry within milliseconds.

const SECONDS = /^\d+(?:\.\d+)?$/;
// The names of day and month are left to Date.parse, which refuses ones it does not know.
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/;

/** `Retry-After` in ms; `undefined` when absent or not one well-formed value. */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (SECONDS.test(value)) return Math.round(Number(value) * 1000);
  if (!IMF_FIXDATE.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
