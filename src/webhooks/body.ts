// Request bodies as the adapters meet them: raw bytes or text (read here with a limit), a stream
// (read until the limit, then abandoned), or a value a framework already parsed.

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
  const type = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

/** A body to read: `'too-large'` as soon as more than `limit` bytes arrived (reading stops there). */
export type BodyReader = (limit: number) => Promise<Uint8Array | 'too-large'>;

/** Reads a web ReadableStream up to the limit, cancelling it beyond. */
export function webStreamReader(stream: ReadableStream<Uint8Array> | null): BodyReader {
  return async (limit) => {
    if (!stream) return new Uint8Array(0);
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        return 'too-large';
      }
      chunks.push(value);
    }
    return concat(chunks, size);
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
  /** Readable's method of that name. */
  removeAllListeners?(event?: string): unknown;
  /** Readable's method of that name. */
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  /** Readable's method of that name. */
  resume(): unknown;
  readableEnded?: boolean;
}

/**
 * Reads a node stream up to the limit. Past it, stops keeping bytes: the rest is discarded as it
 * arrives (never buffered) so the sender reads a clean 413 instead of a reset connection, and the
 * adapter closes the connection after the answer.
 */
export function nodeStreamReader(stream: NodeReadable): BodyReader {
  return (limit) =>
    new Promise((resolve, reject) => {
      const chunks: Uint8Array[] = [];
      let size = 0;
      const cleanup = () => {
        stream.removeListener('data', onData);
        stream.removeListener('end', onEnd);
        stream.removeListener('error', onError);
        stream.removeListener('close', onClose);
      };
      const onData = (chunk: Uint8Array | string) => {
        const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
        size += bytes.byteLength;
        if (size > limit) {
          cleanup();
          stream.on('error', () => {}); // a reset while discarding is no longer our business
          stream.resume();
          resolve('too-large');
          return;
        }
        chunks.push(bytes);
      };
      const onEnd = () => {
        cleanup();
        resolve(concat(chunks, size));
      };
      const onError = (error: Error) => {
        cleanup();
        reject(error);
      };
      const onClose = () => {
        cleanup();
        reject(new Error('the connection closed before the body was complete'));
      };
      stream.on('data', onData);
      stream.on('end', onEnd);
      stream.on('error', onError);
      stream.on('close', onClose);
    });
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
