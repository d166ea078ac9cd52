// Request bodies as the adapters meet them (src/webhooks/ingress.ts, adapters/node.ts): a header read from a `Headers`
// or a plain record (names matched whatever their case, repeated values joined); which content types
// count as JSON; a node stream read up to the limit, its rest discarded as it arrives, a failure or
// a connection closed before the end refused, what follows the read awaited in the async context it
// started in. Real streams (node:stream), no sockets.
import { AsyncLocalStorage } from 'node:async_hooks';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { leaveFakeClock } from '../../helpers.js';
import { ByteSink } from '../../../src/internal/bytes.js';
import { nodeStreamReader } from '../../../src/webhooks/adapters/node-stream.js';
import { Deadline, DeadlineExceededError } from '../../../src/webhooks/deadline.js';
import { type BodyReader, headerOf, isJsonContentType } from '../../../src/webhooks/ingress.js';

const text = (bytes: Uint8Array | 'too-large') => (typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes));
const settle = async (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/** A reader's outcome, with a deadline far off: the bytes (or 'too-large'), or what broke the read. */
const readAll = async (read: BodyReader, limit: number) => {
  const deadline = new Deadline(60_000);
  try {
    return await read(limit, deadline);
  } finally {
    deadline.dispose();
  }
};

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

  it('settles once, with the bytes, whatever the stream does after its end', async () => {
    const stream = new PassThrough();
    const read = settle(readAll(nodeStreamReader(stream), 1024));
    const closed = new Promise((resolve) => stream.once('close', resolve));
    stream.end(Buffer.from('{}'));
    await closed;
    stream.emit('error', new Error('reset after the end'));
    const outcome = await read;
    expect('value' in outcome && text(outcome.value as Uint8Array)).toBe('{}');
  });

  it('goes on after the read in the async context the read started in, not the one the stream events come in', async () => {
    const context = new AsyncLocalStorage<string>();
    const started = (stream: PassThrough, limit = 1024) =>
      context.run('the delivery', async () => {
        await settle(readAll(nodeStreamReader(stream), limit));
        return context.getStore();
      });
    const ended = new PassThrough();
    const failing = new PassThrough();
    const over = new PassThrough();
    const seen = Promise.all([started(ended), started(failing), started(over, 1)]);
    context.run('the socket', () => {
      ended.end(Buffer.from('{}'));
      failing.destroy(new Error('reset'));
      over.write(Buffer.from('{}'));
    });
    expect(await seen).toEqual(['the delivery', 'the delivery', 'the delivery']);
  });

  it('rejects at the deadline a body that has not ended by then, and takes nothing after', async () => {
    vi.useFakeTimers();
    onTestFinished(leaveFakeClock);
    const stream = new PassThrough();
    const deadline = new Deadline(100);
    const read = settle(nodeStreamReader(stream)(1024, deadline));
    stream.write(Buffer.from('{"partial":'));
    await vi.advanceTimersByTimeAsync(110);
    const outcome = await read;
    expect('error' in outcome && outcome.error).toBeInstanceOf(DeadlineExceededError);
    expect((outcome as { error: Error }).error.message).toMatch(/^reading the body did not finish/);
    stream.end(Buffer.from('1}')); // after: nothing
    deadline.dispose();
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
