// The adapters' body readers: a node stream (node:http, Express, Fastify) or a web ReadableStream,
// read up to a limit, then abandoned. Loaded with the adapters, not with the receiver.
//
// Rules owned here:
// - Past the limit, bytes are no longer kept: `done('too-large')` at once, the rest discarded as it
//   arrives (never buffered), so the sender reads a clean 413 instead of a reset connection (the
//   adapter closes the connection after the answer).
// - `done` and `failed` run in the async context the read started in. A node stream's events come
//   in the socket's context, where the receiver's span and any AsyncLocalStorage of the app (a
//   request id, the HTTP server's span) are lost: without this, the handlers would not see them.

import { ByteSink, readBounded } from '../../internal/bytes.js';
import type { BodyReader, NodeReadable } from '../body.js';

/** Node's AsyncResource where the runtime has one (Node, Bun, Deno), got without importing a Node module. */
const AsyncResource = (
  globalThis as {
    process?: {
      getBuiltinModule?(id: 'node:async_hooks'): typeof import('node:async_hooks') | undefined;
    };
  }
).process?.getBuiltinModule?.('node:async_hooks')?.AsyncResource;

/**
 * Reads a node stream up to the limit. The listeners stay until the request is dropped (cheaper than
 * removing them); once settled they ignore what comes.
 */
export function nodeStreamReader(stream: NodeReadable): BodyReader {
  return (limit, done, failed) => {
    const sink = new ByteSink(limit);
    // Made where the read starts, it enters that async context again for `done` or `failed` (a
    // resource costs about 60 ns; `AsyncResource.bind` costs about 9 µs).
    const scope = AsyncResource && new AsyncResource('flashduty.webhook.body');
    let settled = false;
    const settle = <T>(callback: (value: T) => void, value: T) => {
      if (settled) return;
      settled = true;
      if (scope) scope.runInAsyncScope(callback, undefined, value);
      else callback(value);
    };
    stream.on('data', (chunk: Uint8Array | string) => {
      if (!settled && !sink.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk)) {
        settle(done, 'too-large');
      }
    });
    // Once settled, nothing is made for what comes: every request's 'close' follows its 'end', and
    // an Error (its stack trace) cost a quarter of the throughput. A reset while discarding is no
    // longer our business.
    stream.on('end', () => settled || settle(done, sink.bytes()));
    stream.on('error', (error: Error) => settle(failed, error));
    stream.on('close', () => settled || settle(failed, new Error('the connection closed mid-body')));
  };
}

/** Reads a web ReadableStream up to the limit, cancelling it beyond. */
export function webStreamReader(stream: ReadableStream<Uint8Array> | null): BodyReader {
  return (limit, done, failed) => {
    if (stream) readBounded(stream.getReader(), limit).then(done, failed);
    else done(new Uint8Array(0));
  };
}
