// ByteSink and readBounded: bytes gathered from chunks up to a limit, never more than twice what
// arrived held, whatever the chunks' sizes; a single chunk handed back as it came.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteSink, readBounded } from '../../../src/internal/bytes.js';

describe('ByteSink', () => {
  it('joins any chunks in order, up to the limit, and refuses the chunk that passes it (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 1500 }),
        (chunks, limit) => {
          const sink = new ByteSink(limit);
          const taken: number[] = [];
          let refused = false;
          for (const chunk of chunks) {
            if (!sink.push(chunk)) {
              refused = true;
              break;
            }
            taken.push(...chunk);
          }
          const all = chunks.reduce((n, c) => n + c.length, 0);
          expect(refused).toBe(all > limit);
          if (!refused) expect([...sink.bytes()]).toEqual(taken);
        },
      ),
    );
  });

  it('hands a single chunk back as it came, and holds at most twice the bytes of many', () => {
    const one = Uint8Array.of(1, 2, 3);
    const single = new ByteSink(10);
    single.push(one);
    expect(single.bytes()).toBe(one);
    const sink = new ByteSink(1 << 20);
    for (let i = 0; i < 100_000; i++) sink.push(Uint8Array.of(i & 0xff));
    expect(sink.bytes().byteLength).toBe(100_000);
    expect(sink.bytes().buffer.byteLength).toBeLessThanOrEqual(2 * 100_000);
  });

  it('gathers a body of its declared length in one array of that length; a wrong declaration only costs growth', () => {
    const chunks = [new Uint8Array(100).fill(1), new Uint8Array(100).fill(2), new Uint8Array(100).fill(3)];
    const fill = (sink: ByteSink) => chunks.every((chunk) => sink.push(chunk)) && sink.bytes();
    const declared = fill(new ByteSink(1000, 300));
    expect(declared && declared.buffer.byteLength).toBe(300);
    expect(declared && [...declared]).toEqual(chunks.flatMap((chunk) => [...chunk]));
    const short = fill(new ByteSink(1000, 150)); // declared too short: grows as without one
    expect(short && [...short]).toEqual(chunks.flatMap((chunk) => [...chunk]));
    const huge = new ByteSink(1000, 1e9); // never more than the limit
    fill(huge);
    expect(huge.bytes().buffer.byteLength).toBe(1000);
  });

  it('readBounded: a stream within the limit whole, one past it cancelled', async () => {
    const stream = (parts: number[]) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const n of parts) controller.enqueue(new Uint8Array(n).fill(7));
          controller.close();
        },
      });
    expect(await readBounded(stream([3, 4, 5]).getReader(), 12)).toEqual(new Uint8Array(12).fill(7));
    expect(await readBounded(stream([3, 4, 6]).getReader(), 12)).toBe('too-large');
  });
});
