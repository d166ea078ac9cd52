// Which failures are retried (src/client/retry.ts): a read whatever a retry cannot make worse, a
// mutation only a 429 or a connection that provably sent nothing; the backoff doubles from 0.5 s to
// at most 8 s, with up to a quarter of jitter downwards.
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  FlashdutyError,
  RequestValidationError,
  ResponseTooLargeError,
} from '../../../src/index.js';
import { backoffDelay, isRetryable, isUnsentFailure, UnsentRequestError } from '../../../src/client/retry.js';

const http = (status: number, code?: string) => new APIError('x', { status, code });

describe('isRetryable', () => {
  it.each<[string, FlashdutyError, boolean, boolean]>([
    ['429', http(429), true, true],
    ['RequestTooFrequently on a 200', http(200, 'RequestTooFrequently'), true, true],
    ['500', http(500), true, false],
    ['502', http(502), true, false],
    ['503', http(503), true, false],
    ['504', http(504), true, false],
    ['InternalError on a 400', http(400, 'InternalError'), true, false],
    ['400', http(400, 'InvalidParameter'), false, false],
    ['404', http(404, 'ResourceNotFound'), false, false],
    ['a connection that failed', new APIConnectionError(), true, false],
    ['a timeout', new APIConnectionTimeoutError(1), true, false],
    ['a connection refused before sending', new UnsentRequestError(), true, true],
    ['a body too large', new ResponseTooLargeError(1, { status: 200 }), false, false],
    ['refused params', new RequestValidationError('p', 'x'), false, false],
  ])('%s: read %s, mutation %s', (_, error, read, mutation) => {
    expect([isRetryable(error, 'read'), isRetryable(error, 'mutation')]).toEqual([read, mutation]);
  });

  it('shows an unsent failure as an APIConnectionError', () => {
    expect(new UnsentRequestError().name).toBe('APIConnectionError');
  });
});

describe('isUnsentFailure', () => {
  it('finds the proof a few causes deep, and nowhere else', () => {
    const refused = Object.assign(new Error('connect'), { code: 'ECONNREFUSED' });
    expect(isUnsentFailure(new TypeError('fetch failed', { cause: refused }))).toBe(true);
    expect(isUnsentFailure(Object.assign(new Error('dns'), { code: 'ENOTFOUND' }))).toBe(true);
    expect(isUnsentFailure(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe(false);
    expect(isUnsentFailure('ECONNREFUSED')).toBe(false);
  });
});

describe('backoffDelay', () => {
  it('doubles from 0.5 s up to 8 s, each at most a quarter less', () => {
    for (const [retry, base] of [
      [0, 500],
      [1, 1000],
      [2, 2000],
      [4, 8000],
      [9, 8000],
    ] as const) {
      for (let i = 0; i < 20; i++) {
        const delay = backoffDelay(retry);
        expect(delay).toBeLessThanOrEqual(base);
        expect(delay).toBeGreaterThanOrEqual(base * 0.75);
      }
    }
  });
});
