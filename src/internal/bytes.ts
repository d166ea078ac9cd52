// Bodies read chunk by chunk (the client's responses, the webhook receiver's requests): at most a
// limit, counted as the chunks arrive, reading stopped beyond it; decoded once at the end (decoding
// chunk by chunk is slower). Chunks are copied into one buffer that grows by doubling, never kept:
// a body sent a byte at a time would otherwise hold a Buffer object per byte, where this holds at
// most twice its bytes (docs/performance.md has the figures).

/** The stream's bytes, or `'too-large'` (and the stream cancelled) as soon as more than `limit` arrived. */
export async function readBounded(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
): Promise<Uint8Array | 'too-large'> {
  const sink = new ByteSink(limit);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return sink.bytes();
    if (!sink.push(value)) {
      await reader.cancel().catch(() => {});
      return 'too-large';
    }
  }
}

/**
 * Bytes gathered from chunks, up to a limit. The first chunk is kept as it is (most bodies come in
 * one); from the second on, they are copied into one buffer that doubles as it fills.
 */
export class ByteSink {
  size = 0;
  #first: Uint8Array | undefined;
  #buffer: Uint8Array | undefined;

  constructor(readonly limit: number) {}

  /** Adds a chunk; `false` once the bytes would pass the limit (the sink then keeps nothing). */
  push(chunk: Uint8Array): boolean {
    const size = this.size + chunk.byteLength;
    if (size > this.limit) {
      this.#first = this.#buffer = undefined;
      return false;
    }
    if (this.#first === undefined && this.#buffer === undefined) this.#first = chunk;
    else {
      let buffer = this.#buffer;
      if (buffer === undefined || buffer.byteLength < size) {
        const grown = new Uint8Array(Math.min(this.limit, Math.max(size, 2 * (buffer?.byteLength ?? 0), 1024)));
        grown.set(buffer ? buffer.subarray(0, this.size) : (this.#first as Uint8Array));
        this.#first = undefined;
        buffer = this.#buffer = grown;
      }
      buffer.set(chunk, this.size);
    }
    this.size = size;
    return true;
  }

  /** What was gathered, as one array. */
  bytes(): Uint8Array {
    return this.#buffer?.subarray(0, this.size) ?? this.#first ?? new Uint8Array(0);
  }
}
