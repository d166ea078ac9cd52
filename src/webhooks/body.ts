// Request bodies as the adapters meet them: raw bytes or text, a stream (read by the adapter's
// reader, adapters/readers.ts, until the limit, then abandoned), or a value a framework already
// parsed; and the headers that come with them.

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
 * and the delivery's answer; measured in docs/performance.md). Call them in the async context the
 * read started in (adapters/readers.ts does, for node streams), or the handlers lose the app's
 * AsyncLocalStorage and the delivery's span. The receiver races the read against the delivery's
 * deadline, so a body that trickles in is cut off with the rest of the delivery.
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
