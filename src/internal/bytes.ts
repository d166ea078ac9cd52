// Bodies read chunk by chunk (the client's responses, the webhook receiver's requests): at most a
// limit, counted as the chunks arrive, reading stopped beyond it; decoded once at the end (decoding
// chunk by chunk is slower). Chunks are copied into one buffer that grows by doubling, never kept:
// a body sent a byte at a time would otherwise hold a Buffer object per byte, where this holds at
// most twice its bytes. Where the body declares its length (the client's answers), the buffer is
// made that size at once: a body of that length is then one allocation and one copy of each chunk,
// as joining the chunks at the end was (growing by doubling allocates twice its size, zeroed, and
// draws the garbage collector). The buffer is not zeroed where Buffer can skip it: only the bytes
// written are read. The figures are in docs/performance.md.

/** The stream's bytes, or `'too-large'` (and the stream cancelled) as soon as more than `limit` arrived. */
export async function readBounded(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
  declared?: number,
): Promise<Uint8Array | 'too-large'> {
  const sink = new ByteSink(limit, declared);
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
 * one); from the second on, they are copied into one buffer, of the `declared` length (a number the
 * body declares, trusted up to the limit) where that holds them, doubling as it fills otherwise.
 */
export class ByteSink {
  size = 0;
  #first: Uint8Array | undefined;
  #buffer: Uint8Array | undefined;

  constructor(
    readonly limit: number,
    readonly declared = 0,
  ) {}

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
        const wanted = this.declared >= size ? this.declared : Math.max(size, 2 * (buffer?.byteLength ?? 0), 1024);
        const grown = allocate(Math.min(this.limit, wanted));
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

/** Node's, Bun's and Deno's Buffer: it makes an array without first zeroing the bytes it will overwrite. */
const NodeBuffer = (globalThis as { Buffer?: { allocUnsafeSlow(size: number): Uint8Array } }).Buffer;

/** An array of `size` bytes, to be written before it is read (a plain Uint8Array: a Buffer's methods differ). */
function allocate(size: number): Uint8Array {
  return NodeBuffer ? new Uint8Array(NodeBuffer.allocUnsafeSlow(size).buffer, 0, size) : new Uint8Array(size);
}
