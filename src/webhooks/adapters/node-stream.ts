// A node stream (an IncomingMessage) read up to a limit: the body reader of the node and Fastify
// adapters. Past the limit, bytes are no longer kept: the read resolves `'too-large'` at once and
// the rest is discarded as it arrives (never buffered), so the sender reads a clean 413 instead of a
// reset connection. The listeners stay until the request is dropped (cheaper than removing them).

import { ByteSink } from '../../internal/bytes.js';
import type { BodyReader } from '../ingress.js';

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

/** @internal Reads a node stream up to the limit. */
export function nodeStreamReader(stream: NodeReadable): BodyReader {
  return (limit, deadline) =>
    new Promise((resolve, reject) => {
      const sink = new ByteSink(limit);
      let done = false;
      deadline.bound((error) => done || ((done = true), reject(error)), 'reading the body');
      stream.on('data', (chunk: Uint8Array | string) => {
        if (done || sink.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk)) return;
        done = true;
        resolve('too-large');
      });
      // Once done, nothing is made for what comes: every request's 'close' follows its 'end', and
      // an Error there (its stack trace) would cost every delivery.
      stream.on('end', () => done || ((done = true), resolve(sink.bytes())));
      stream.on('error', (error: Error) => done || ((done = true), reject(error)));
      stream.on('close', () => done || ((done = true), reject(new Error('the connection closed mid-body'))));
    });
}
