// What a delivery must be before the receiver takes it, read from what an adapter hands over
// (headers and a body in some form); else the refusal that answers it. Rules owned here, in order:
// - The secret header is checked first, in constant time (401), before a byte of the body is read.
// - The content type must be JSON (415); a body a framework parsed may come without one (`receive()`
//   of an object), but not with another (a form a framework parsed is no delivery), nor with a
//   Content-Length over `maxBodyBytes` (413, as its bytes would have been). The 415's reason names
//   the media type, cut short: an answer never grows with what the sender sends.
// - At most `maxBodyBytes` are read (413, and reading stops there), and only until the deadline: the
//   receiver has the adapter's reader read the body between the two checks below.
// - The bytes must be UTF-8 (400): ids that differ only in invalid bytes must not read as one.
// - JSON nested at most MAX_JSON_DEPTH deep (400), checked before parsing (and for a body a framework
//   parsed): deeper, a queue cannot store it (BullMQ's JSON.stringify overflows) and code that walks
//   it recursively may not either.
// - The text must be JSON (400, naming the position, never quoting the body: the service keeps
//   answers in its delivery history), then a payload the reader accepts (400 naming the path).

import type { Deadline } from './deadline.js';
import { jsonErrorAt, nestedDeeper } from './json-text.js';
import type { DeliveryKeys, PayloadReader } from './payload.js';
import { type SecretOptions, secretMatches } from './secret.js';
import type { WebhookEvent } from './types.js';

/** Headers as frameworks give them: a `Headers`, or a plain object (node's `IncomingHttpHeaders`). */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

/**
 * Reads a body, up to `limit` bytes and until `deadline`: resolves with the bytes, or `'too-large'`
 * as soon as more arrived (reading stops there); rejects with what broke the read, or with the
 * deadline's error when it passed first (the reader ends its own promise with it, through
 * `deadline.bound`, and stops reading). Every adapter's reader keeps to this: nothing else bounds it.
 */
export type BodyReader = (limit: number, deadline: Deadline) => Promise<Uint8Array | 'too-large'>;

/** How an adapter hands a body to the receiver. */
export type BodySource =
  /** A value a framework already parsed (it was JSON). */
  | { form: 'parsed'; value: unknown }
  /** Bytes or text read already (express.raw(), express.text()). */
  | { form: 'raw'; value: string | Uint8Array }
  /** A stream still to read. */
  | { form: 'stream'; read: BodyReader };

/** What a delivery is checked against. */
export interface IngressRules {
  secret: SecretOptions | undefined;
  maxBodyBytes: number;
  read: PayloadReader;
}

/** A delivery let in (the body as parsed, the event and its keys), or the refusal that answers it. */
export type Admission =
  | { ok: true; body: unknown; event: WebhookEvent; keys: DeliveryKeys }
  | { ok: false; status: 400 | 401 | 413 | 415; reason: string };

/** Deepest nesting of objects and arrays let in (real deliveries nest about 5 deep). */
export const MAX_JSON_DEPTH = 100;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** A body once read (or too large to read whole), or one in hand from the start. */
export type Received = Uint8Array | 'too-large' | Exclude<BodySource, { form: 'stream' }>;

/**
 * What the headers refuse before a byte of the body is read: a wrong secret (401), a content type
 * that is not JSON (415); `undefined` when the body is to be read.
 */
export function refuseUnread(
  rules: IngressRules,
  headers: HeadersLike | undefined,
  source: BodySource,
): Admission | undefined {
  if (rules.secret && !secretMatches(rules.secret, headerOf(headers, rules.secret.header)))
    return refuse(401, `missing or wrong ${rules.secret.header} header`);
  const contentType = headerOf(headers, 'content-type');
  if (source.form !== 'parsed') return isJsonContentType(contentType) ? undefined : notJson(contentType);
  // A body a framework parsed may come without a Content-Type (an object handed to `receive()`).
  if (contentType !== undefined && !isJsonContentType(contentType)) return notJson(contentType);
  if (Number(headerOf(headers, 'content-length')) > rules.maxBodyBytes) return tooLarge(rules);
  return undefined;
}

/** The body as a delivery: let in, or refused (413, 400). */
export function admit(rules: IngressRules, received: Received): Admission {
  if (received === 'too-large') return tooLarge(rules);
  if (!(received instanceof Uint8Array) && received.form === 'parsed')
    return valueTooDeep(received.value, MAX_JSON_DEPTH) ? tooDeep() : readPayload(rules, received.value);
  const bytes = received instanceof Uint8Array ? received : received.value;
  if (overLimit(bytes, rules.maxBodyBytes)) return tooLarge(rules);
  let text: string;
  try {
    text = typeof bytes === 'string' ? bytes : decoder.decode(bytes);
  } catch {
    return refuse(400, 'the body is not UTF-8');
  }
  if (textTooDeep(text)) return tooDeep();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(400, text.trim() === '' ? 'empty body' : `malformed JSON at position ${jsonErrorAt(text)}`);
  }
  return readPayload(rules, body);
}

/** A header's value, whatever the case of its name in a plain object; repeated values joined. */
export function headerOf(headers: HeadersLike | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  let value = record[name];
  if (value === undefined) {
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * `application/json`, or any `+json` type, with or without parameters. Of a header sent twice (which
 * `Headers` joins with a comma), the first, as node:http keeps it.
 */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  if (value === 'application/json') return true; // what the sender sends
  const type = mediaType(value).toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

/** A body in hand: bytes or text still to parse, or a value a framework parsed already. */
export function inHand(value: unknown): BodySource {
  if (value instanceof ArrayBuffer) return { form: 'raw', value: new Uint8Array(value) };
  return typeof value === 'string' || value instanceof Uint8Array ? { form: 'raw', value } : { form: 'parsed', value };
}

/** The parsed body as a delivery, by the receiver's payload reader. */
function readPayload(rules: IngressRules, body: unknown): Admission {
  const read = rules.read(body);
  if (read.ok) return { ok: true, body, event: read.event, keys: read.keys };
  const { path, message } = read.problem;
  return refuse(400, `invalid payload${path ? ` at ${path}` : ''}: ${message}`);
}

/** The media type of a Content-Type (its first, if joined), without parameters. */
function mediaType(contentType: string): string {
  return contentType.split(/[;,]/)[0]?.trim() ?? '';
}

/** 415, naming the media type (at most MAX_NAMED characters of it). */
function notJson(contentType: string | undefined): Admission {
  if (!contentType) return refuse(415, 'no Content-Type header');
  const type = mediaType(contentType);
  return refuse(415, `content type ${type.length > MAX_NAMED ? `${type.slice(0, MAX_NAMED)}…` : type} is not JSON`);
}

/** The most characters of a sender's header an answer names. */
const MAX_NAMED = 100;

function tooLarge(rules: IngressRules): Admission {
  return refuse(413, `body over ${rules.maxBodyBytes} bytes`);
}

function tooDeep(): Admission {
  return refuse(400, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
}

function refuse(status: 400 | 401 | 413 | 415, reason: string): Admission {
  return { ok: false, status, reason };
}

/** UTF-8 size over the limit? Text is measured only when its length alone cannot tell. */
function overLimit(body: string | Uint8Array, limit: number): boolean {
  if (typeof body !== 'string') return body.byteLength > limit;
  if (body.length * 3 <= limit) return false; // a UTF-16 unit is at most 3 bytes of UTF-8
  if (body.length > limit) return true; // and at least 1
  return new TextEncoder().encode(body).byteLength > limit;
}

/**
 * Whether JSON text might open more than MAX_JSON_DEPTH objects or arrays at once: text with no
 * more opening brackets than that, in strings or not, cannot (most deliveries hold about ten, told
 * by two `indexOf` walks); text with more is counted outside strings.
 */
function textTooDeep(text: string): boolean {
  let opening = 0;
  for (const bracket of '{[')
    for (let i = text.indexOf(bracket); i >= 0 && opening <= MAX_JSON_DEPTH; i = text.indexOf(bracket, i + 1))
      opening++;
  return opening > MAX_JSON_DEPTH && nestedDeeper(text, MAX_JSON_DEPTH);
}

/** Whether a parsed value nests more than `left` levels of objects and arrays. */
function valueTooDeep(value: unknown, left: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (left === 0) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (valueTooDeep(item, left - 1)) return true;
  return false;
}
