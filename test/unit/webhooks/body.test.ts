// Request bodies as the adapters meet them (src/webhooks/body.ts, adapters/readers.ts): a header read from a `Headers` or
// a plain record (names matched whatever their case, repeated values joined); which content types
// count as JSON; a node stream read up to the limit, its rest discarded as it arrives, a failure or
// a connection closed before the end refused, its end told in the async context the read started in;
// a web stream read up to the limit and cancelled beyond.
// Real streams (node:stream and the web's ReadableStream), no sockets.
import { AsyncLocalStorage } from 'node:async_hooks';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { ByteSink } from '../../../src/internal/bytes.js';
import { nodeStreamReader, webStreamReader } from '../../../src/webhooks/adapters/readers.js';
import { type BodyReader, headerOf, isJsonContentType } from '../../../src/webhooks/body.js';

const text = (bytes: Uint8Array | 'too-large') => (typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes));
const settle = async (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/** A reader's outcome as a promise: the bytes (or 'too-large'), or what broke the read. */
const readAll = (read: BodyReader, limit: number) =>
  new Promise<Uint8Array | 'too-large'>((resolve, reject) => read(limit, resolve, reject));

describe('headerOf', () => {
  it('reads a Headers object, whatever the case of the name', () => {
    const headers = new Headers({ 'Content-Type': 'application/json', 'X-Token': 'secret' });
    expect(headerOf(headers, 'content-type')).toBe('application/json');
    expect(headerOf(headers, 'x-token')).toBe('secret');
    expect(headerOf(headers, 'x-missing')).toBeUndefined(); // Headers#get gives null: undefined here
  });

  it('reads a plain record by its exact key, or by a key of another case', () => {
    const headers = { 'content-type': 'text/plain', 'X-Flashduty-Token': 'abc' };
    expect(headerOf(headers, 'content-type')).toBe('text/plain');
    expect(headerOf(headers, 'x-flashduty-token')).toBe('abc');
    expect(headerOf(headers, 'x-missing')).toBeUndefined();
    expect(headerOf({ 'x-token': undefined }, 'x-token')).toBeUndefined();
  });

  it('joins the values of a repeated header, as HTTP does', () => {
    expect(headerOf({ 'x-token': ['one', 'two'] }, 'x-token')).toBe('one, two');
    expect(headerOf({ 'X-Token': ['only'] }, 'x-token')).toBe('only');
  });

  it('gives undefined when there are no headers', () => {
    expect(headerOf(undefined, 'content-type')).toBeUndefined();
  });
});

describe('isJsonContentType', () => {
  it('takes application/json, with parameters and in any case', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonContentType('Application/JSON;charset=UTF-8')).toBe(true);
    expect(isJsonContentType(' application/json ')).toBe(true);
  });

  it('takes any +json type', () => {
    expect(isJsonContentType('application/vnd.flashduty.event+json')).toBe(true);
    expect(isJsonContentType('application/problem+json; charset=utf-8')).toBe(true);
  });

  it('refuses other types, look-alikes and a missing one', () => {
    for (const type of [
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'application/jsonp',
      'application/json-seq',
      'application/+json',
      'application/vnd.x+json.gz',
      'multipart/form-data; boundary=application/json',
      '',
    ]) {
      expect([type, isJsonContentType(type)]).toEqual([type, false]);
    }
    expect(isJsonContentType(undefined)).toBe(false);
  });
});

describe('nodeStreamReader', () => {
  it('gathers the chunks until the end', async () => {
    const stream = new PassThrough();
    const read = readAll(nodeStreamReader(stream), 1024);
    stream.write(Buffer.from('{"event_id":'));
    stream.write(Buffer.from('"e1"'));
    stream.end(Buffer.from('}'));
    const bytes = await read;
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(text(bytes)).toBe('{"event_id":"e1"}');
  });

  it("hands the bytes over in the stream's 'end' event itself, once, whatever follows", async () => {
    const stream = new PassThrough();
    const calls: unknown[] = [];
    nodeStreamReader(stream)(
      1024,
      (bytes) => calls.push(text(bytes)),
      (error) => calls.push(error),
    );
    let seenInEnd: unknown[] | undefined;
    stream.on('end', () => (seenInEnd = [...calls])); // after the reader's own listener, in the same event
    const closed = new Promise((resolve) => stream.once('close', resolve));
    stream.end(Buffer.from('{}'));
    await closed;
    stream.emit('error', new Error('reset after the end'));
    expect(seenInEnd).toEqual(['{}']);
    expect(calls).toEqual(['{}']);
  });

  it('tells the end, a failure and too-large in the async context the read started in, not the one the event comes in', async () => {
    const context = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    const started = (stream: PassThrough, limit = 1024) =>
      context.run('the delivery', () =>
        nodeStreamReader(stream)(
          limit,
          () => seen.push(context.getStore()),
          () => seen.push(context.getStore()),
        ),
      );
    const ended = new PassThrough();
    const failing = new PassThrough();
    const over = new PassThrough();
    started(ended);
    started(failing);
    started(over, 1);
    context.run('the socket', () => {
      ended.end(Buffer.from('{}'));
      failing.destroy(new Error('reset'));
      over.write(Buffer.from('{}'));
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['the delivery', 'the delivery', 'the delivery']);
  });

  it('gives empty bytes for an empty body', async () => {
    const stream = new PassThrough();
    const read = readAll(nodeStreamReader(stream), 1024);
    stream.end();
    expect(await read).toEqual(new Uint8Array(0));
  });

  it('encodes string chunks as UTF-8, counting their bytes against the limit', async () => {
    const chunks = ['héllo ', 'wörld'];
    const size = Buffer.byteLength(chunks.join(''));
    expect(size).toBe(13); // two characters of two bytes each
    expect(text(await readAll(nodeStreamReader(Readable.from(chunks)), size))).toBe('héllo wörld');
    expect(await readAll(nodeStreamReader(Readable.from(chunks)), size - 1)).toBe('too-large');
  });

  it('takes a body of exactly the limit', async () => {
    const stream = new PassThrough();
    const read = readAll(nodeStreamReader(stream), 6);
    stream.write(Buffer.from('abc'));
    stream.end(Buffer.from('def'));
    expect(text(await read)).toBe('abcdef');
  });

  it("gives 'too-large' as soon as the bytes pass the limit, then keeps nothing that comes and discards it as it arrives", async () => {
    const push = vi.spyOn(ByteSink.prototype, 'push');
    const stream = new PassThrough();
    const read = readAll(nodeStreamReader(stream), 8);
    stream.write(Buffer.from('12345'));
    stream.write(Buffer.from('67890')); // 10 bytes: past the limit
    expect(await read).toBe('too-large');
    expect(push).toHaveBeenCalledTimes(2);
    // The rest still flows (the sender is never stalled) and is dropped: never pushed, never buffered.
    stream.write(Buffer.from('more'));
    stream.write(Buffer.from('and more'));
    const ended = new Promise((resolve) => stream.once('end', resolve));
    stream.end(Buffer.from('!'));
    await ended;
    expect(push).toHaveBeenCalledTimes(2);
    expect(stream.readableLength).toBe(0);
    // A reset while discarding is not a failure of the read: it stays 'too-large'.
    stream.emit('error', new Error('reset'));
    expect(await read).toBe('too-large');
  });

  it("rejects with the stream's error", async () => {
    const stream = new PassThrough();
    const read = settle(readAll(nodeStreamReader(stream), 1024));
    stream.write(Buffer.from('{"partial":'));
    stream.destroy(new Error('socket hang up'));
    expect(await read).toEqual({ error: new Error('socket hang up') });
  });

  it("rejects when the connection closes before the body's end", async () => {
    const stream = new PassThrough();
    const read = settle(readAll(nodeStreamReader(stream), 1024));
    stream.write(Buffer.from('{"partial":'));
    stream.destroy(); // 'close' with no 'end' and no error
    expect(await read).toEqual({ error: new Error('the connection closed mid-body') });
  });

  it("is not fooled by the 'close' that follows a normal end", async () => {
    const stream = new PassThrough();
    const read = settle(readAll(nodeStreamReader(stream), 1024));
    const closed = new Promise((resolve) => stream.once('close', resolve));
    stream.end(Buffer.from('{}'));
    await closed;
    const outcome = await read;
    expect('value' in outcome && text(outcome.value as Uint8Array)).toBe('{}');
  });
});

describe('webStreamReader', () => {
  /** A stream of these chunks, then its end; `cancelled` tells whether it was cancelled. */
  const webStream = (chunks: string[]) => {
    const state = { cancelled: false };
    const encoder = new TextEncoder();
    let next = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[next++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(encoder.encode(chunk));
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { stream, state };
  };

  it('gathers the chunks until the end', async () => {
    const { stream, state } = webStream(['{"a":', '1}']);
    expect(text(await readAll(webStreamReader(stream), 1024))).toBe('{"a":1}');
    expect(state.cancelled).toBe(false);
  });

  it('gives empty bytes when there is no stream', async () => {
    expect(await readAll(webStreamReader(null), 1024)).toEqual(new Uint8Array(0));
  });

  it("gives 'too-large' past the limit and cancels the stream, whose end never comes", async () => {
    const encoder = new TextEncoder();
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(encoder.encode('0123456789'));
      },
      cancel() {
        cancelled = true;
      },
    });
    expect(await readAll(webStreamReader(endless), 25)).toBe('too-large');
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(10); // reading stopped at the limit
  });

  it('takes a body of exactly the limit', async () => {
    const { stream } = webStream(['12345', '67890']);
    expect(text(await readAll(webStreamReader(stream), 10))).toBe('1234567890');
    const over = webStream(['12345', '67890']);
    expect(await readAll(webStreamReader(over.stream), 9)).toBe('too-large');
    expect(over.state.cancelled).toBe(true);
  });
});
