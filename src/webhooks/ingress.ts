// What a delivery must be before the pipeline takes it, read from what an adapter hands over
// (headers and a body in some form); else the answer that refuses it. Rules owned here, in order:
// - The secret header is checked first, in constant time (401), before a byte of the body is read.
// - The content type must be JSON (415), unless a framework parsed the body (then it was JSON).
// - At most `maxBodyBytes` are read (413, and reading stops there), raced against the deadline.
// - The bytes must be UTF-8 (400): ids that differ only in invalid bytes must not read as one.
// - JSON nested at most MAX_JSON_DEPTH deep (400), checked before parsing (and for a body a framework
//   parsed): deeper, a queue cannot store it (BullMQ's JSON.stringify overflows) and code that walks
//   it recursively may not either.
// - The text must be JSON (400, naming the position, never quoting the body: the service keeps
//   answers in its delivery history), then a payload the reader accepts (400 naming the path).

import { type BodySource, headerOf, type HeadersLike, isJsonContentType } from './body.js';
import { andThen, attempt, isThenable } from '../internal/maybe.js';
import type { Deadline } from './deadline.js';
import { type DeliveryKeys, type DeliveryReader, nestsDeeper, malformedAt, type ReadResult } from './kinds.js';
import { type SecretOptions, secretMatches } from './secret.js';
import type { WebhookEvent } from './types.js';

/** What ingress checks a delivery against. */
export interface IngressRules {
  secret: SecretOptions | undefined;
  maxBodyBytes: number;
  read: DeliveryReader;
}

/** A delivery let in (the body as parsed, the event and its keys), or why not. */
export type Admission =
  { ok: true; body: unknown; event: WebhookEvent; keys: DeliveryKeys } | { ok: false; status: number; reason: string };

/** Deepest nesting of objects and arrays let in (real deliveries nest about 5 deep). */
export const MAX_JSON_DEPTH = 100;

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Checks and reads one delivery, and hands what it found to `next`: at once when the body is there
 * already, else in the body's last event (no promise between the bytes and `next`). What breaks the
 * reading (the body's stream, a payload reader that cannot load, the deadline) goes to `failed`
 * instead. Exactly one of them is called, once; neither may throw.
 */
export function admit(
  rules: IngressRules,
  headers: HeadersLike | undefined,
  source: BodySource,
  deadline: Deadline,
  next: (admission: Admission) => void,
  failed: (error: unknown) => void,
): void {
  const admitting = (check: () => Admission | Promise<Admission>) => void attempt(check, next, failed);
  if (rules.secret && !secretMatches(rules.secret, headerOf(headers, rules.secret.header))) {
    return next(refuse(401, `missing or wrong ${rules.secret.header} header`));
  }
  if (source.form === 'parsed')
    return admitting(() =>
      valueTooDeep(source.value, MAX_JSON_DEPTH) ? tooDeep() : readPayload(rules, source.value, deadline),
    );
  const contentType = headerOf(headers, 'content-type');
  if (!isJsonContentType(contentType))
    return next(refuse(415, contentType ? `content type ${contentType} is not JSON` : 'no Content-Type header'));
  if (source.form === 'raw') return admitting(() => parse(rules, source.value, deadline));
  deadline.within(
    'reading the body',
    (settle) =>
      source.read(
        rules.maxBodyBytes,
        (bytes) =>
          settle(() => admitting(() => (bytes === 'too-large' ? tooLarge(rules) : parse(rules, bytes, deadline)))),
        (error) => settle(() => failed(error)),
      ),
    failed,
  );
}

/** The body's bytes or text, within the size limit and as JSON. */
function parse(rules: IngressRules, bytes: string | Uint8Array, deadline: Deadline): Admission | Promise<Admission> {
  if (overLimit(bytes, rules.maxBodyBytes)) return tooLarge(rules);
  let text: string;
  try {
    text = typeof bytes === 'string' ? bytes : decoder.decode(bytes);
  } catch {
    return refuse(400, 'the body is not UTF-8');
  }
  return andThen(textTooDeep(text, deadline), (deep) => (deep ? tooDeep() : parseText(rules, text, deadline)));
}

/** Text that is not too deep, as JSON. */
function parseText(rules: IngressRules, text: string, deadline: Deadline): Admission | Promise<Admission> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    if (text.trim() === '') return refuse(400, 'empty body');
    return andThen(deadline.race(malformedAt(text), 'loading the payload reader'), (at) =>
      refuse(400, `malformed JSON at position ${at}`),
    );
  }
  return readPayload(rules, body, deadline);
}

/**
 * The parsed body as a delivery, by the receiver's payload reader: at once, or (its code loading
 * with the first delivery that needs it) within the deadline.
 */
function readPayload(rules: IngressRules, body: unknown, deadline: Deadline): Admission | Promise<Admission> {
  const read = rules.read(body);
  return isThenable(read)
    ? andThen(deadline.race(read, 'loading the payload reader'), (loaded) => admitted(body, loaded))
    : admitted(body, read);
}

function admitted(body: unknown, read: ReadResult): Admission {
  if (read.ok) return { ok: true, body, event: read.event, keys: read.keys };
  const { path, message } = read.problem;
  return refuse(400, `invalid payload${path ? ` at ${path}` : ''}: ${message}`);
}

function tooDeep(): Admission {
  return refuse(400, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
}

function tooLarge(rules: IngressRules): Admission {
  return refuse(413, `body over ${rules.maxBodyBytes} bytes`);
}

function refuse(status: number, reason: string): Admission {
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
 * by two `indexOf` walks); text with more is counted outside strings by `depthOf`, which loads with
 * the first such body.
 */
function textTooDeep(text: string, deadline: Deadline): boolean | Promise<boolean> {
  let opening = 0;
  for (const bracket of '{[')
    for (let i = text.indexOf(bracket); i >= 0 && opening <= MAX_JSON_DEPTH; i = text.indexOf(bracket, i + 1))
      opening++;
  if (opening <= MAX_JSON_DEPTH) return false;
  return deadline.race(nestsDeeper(text, MAX_JSON_DEPTH), 'loading the payload reader');
}

/** Whether a parsed value nests more than `left` levels of objects and arrays. */
function valueTooDeep(value: unknown, left: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (left === 0) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (valueTooDeep(item, left - 1)) return true;
  return false;
}
