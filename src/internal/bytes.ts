// Bodies read chunk by chunk from a web stream (the client's responses, the webhook receiver's
// requests through fetchHandler): at most a limit, counted as the chunks arrive, the stream
// cancelled beyond it; joined once at the end, so that they are decoded once (decoding chunk by
// chunk cost a call ~10%).

/** The stream's bytes, or `'too-large'` (and the stream cancelled) as soon as more than `limit` arrived. */
export async function readBounded(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
): Promise<Uint8Array | 'too-large'> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concat(chunks, size);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return 'too-large';
    }
    chunks.push(value);
  }
}

/** Node's, Bun's and Deno's Buffer: it joins without first zeroing the bytes it will overwrite. */
const NodeBuffer = (globalThis as { Buffer?: { concat(chunks: Uint8Array[], size: number): Uint8Array } }).Buffer;

/** The chunks as one array of `size` bytes; a single chunk as it is. */
export function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  if (NodeBuffer) return NodeBuffer.concat(chunks, size);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
