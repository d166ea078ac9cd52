// The envelope every answer of the API comes in: `data` on success, `error` (a code and a localized
// message) on failure, and the request id; its type, and its zod/mini schema for deep validation.

import * as z from 'zod/mini';
import { loose, opt, str } from './common.js';

/** The `error` object of a failure envelope. */
export interface EnvelopeError {
  /** One of the spec's error codes; the server may add new ones. */
  code: string;
  /** Human readable, localized by `Accept-Language`; may name the field at fault. */
  message: string;
}

/** Every answer of the API: `data` on success, `error` on failure (some successes also carry `error.code: "OK"`). */
export interface Envelope<T = unknown> {
  request_id: string;
  data?: T;
  error?: EnvelopeError;
}

// Lenient on purpose: a failure envelope without a message still yields its typed error, and a
// missing `request_id` can be made up for by the response headers.
/** zod/mini schema of the response {@link Envelope}. */
export const EnvelopeSchema = /* @__PURE__ */ (() =>
  loose({
    request_id: opt(str),
    data: opt(z.unknown()),
    error: opt(loose({ code: str, message: opt(str) })),
  }))();
