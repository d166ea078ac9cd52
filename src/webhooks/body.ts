// Request bodies as the adapters meet them: raw bytes or text (read here with a limit), a stream
// (read until the limit, then abandoned), or a value a framework already parsed.

import { ByteSink, readBounded } from '../internal/bytes.js';

/** Headers as frameworks give them: a `Headers`, or a plain object (node's `IncomingHttpHeaders`). */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

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

/** `application/json`, or any `+json` type, with or without parameters. */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  if (value === 'application/json') return true; // what the sender sends
  const type = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

/**
 * Reads a body, up to `limit` bytes, then calls `done` once: with the bytes, or `'too-large'` as
 * soon as more arrived (reading stops there); or `failed` with what broke the read. Callbacks, not a
 * promise: the receiver goes on in the body's last event, with no promise between (a stream's end
 * and the delivery's answer; measured in docs/performance.md). The receiver races the read against
 * the delivery's deadline, so a body that trickles in is cut off with the rest of the delivery.
 */
export type BodyReader = (
  limit: number,
  done: (bytes: Uint8Array | 'too-large') => void,
  failed: (error: unknown) => void,
) => void;

/** How an adapter hands a body to the receiver. */
export type BodySource =
  /** A value a framework already parsed (it was JSON). */
  | { form: 'parsed'; value: unknown }
  /** Bytes or text read already (express.raw(), express.text()). */
  | { form: 'raw'; value: string | Uint8Array }
  /** A stream still to read. */
  | { form: 'stream'; read: BodyReader };

/** A body in hand: bytes or text still to parse, or a value a framework parsed already. */
export function inHand(value: unknown): BodySource {
  return typeof value === 'string' || value instanceof Uint8Array ? { form: 'raw', value } : { form: 'parsed', value };
}

/** Reads a web ReadableStream up to the limit, cancelling it beyond. */
export function webStreamReader(stream: ReadableStream<Uint8Array> | null): BodyReader {
  return (limit, done, failed) => {
    if (stream) readBounded(stream.getReader(), limit).then(done, failed);
    else done(new Uint8Array(0));
  };
}

/** The parts of a node readable (an IncomingMessage) used here. */
export interface NodeReadable {
  /** Readable's method of that name. */
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  /** Readable's method of that name. */
  on(event: 'end' | 'close', listener: () => void): unknown;
  /** Readable's method of that name. */
  on(event: 'error', listener: (error: Error) => void): unknown;
  readableEnded?: boolean;
}

/**
 * Reads a node stream up to the limit. Past it, stops keeping bytes: the rest is discarded as it
 * arrives (never buffered) so the sender reads a clean 413 instead of a reset connection, and the
 * adapter closes the connection after the answer. The listeners stay until the request is dropped
 * (cheaper than removing them); once settled they ignore what comes.
 */
export function nodeStreamReader(stream: NodeReadable): BodyReader {
  return (limit, done, failed) => {
    const sink = new ByteSink(limit);
    let settled = false;
    stream.on('data', (chunk: Uint8Array | string) => {
      if (settled) return;
      if (!sink.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk)) {
        settled = true;
        done('too-large');
      }
    });
    stream.on('end', () => {
      if (settled) return;
      settled = true;
      done(sink.bytes());
    });
    stream.on('error', (error: Error) => {
      if (settled) return; // a reset while discarding is no longer our business
      settled = true;
      failed(error);
    });
    stream.on('close', () => {
      if (settled) return;
      settled = true;
      failed(new Error('the connection closed mid-body'));
    });
  };
}
