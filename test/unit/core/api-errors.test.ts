// The errors of calls to the API (src/core/api-errors.ts): one class per error code of the spec,
// each named so in minified bundles; a code the SDK does not know yet is a plain APIError; every one
// a FlashdutyError whose JSON leaves out the headers and body.
import { describe, expect, it } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIError,
  ERROR_CLASSES,
  FlashdutyError,
  InternalError,
  RequestTooFrequentlyError,
  RequestValidationError,
  ResponseTooLargeError,
} from '../../../src/index.js';
import { errorFromCode } from '../../../src/core/api-errors.js';

describe('errorFromCode', () => {
  it('makes the class of each code, named after it', () => {
    for (const [code, ErrorClass] of Object.entries(ERROR_CLASSES)) {
      const error = errorFromCode('m', { status: 400, code });
      expect(error, code).toBeInstanceOf(ErrorClass);
      expect(error.name, code).toBe(code === 'InternalError' ? 'InternalError' : `${code}Error`);
    }
    expect(errorFromCode('m', { status: 500, code: 'InternalError' })).toBeInstanceOf(InternalError);
  });

  it('makes a plain APIError of a code it does not know, `toString` and `constructor` among them', () => {
    for (const code of ['QuotaExhausted', 'toString', 'constructor', undefined]) {
      const error = errorFromCode('m', { status: 400, code });
      expect(error.constructor, String(code)).toBe(APIError);
      expect(error.code).toBe(code);
    }
  });
});

describe('the errors', () => {
  it('are FlashdutyErrors that say what they carry, headers and body left out of their JSON', () => {
    const busy = new RequestTooFrequentlyError('slow down', {
      status: 429,
      code: 'RequestTooFrequently',
      retryAfterMs: 5,
      body: { big: 1 },
    });
    expect(busy).toBeInstanceOf(FlashdutyError);
    expect(busy.toJSON()).toEqual({
      name: 'RequestTooFrequentlyError',
      message: 'slow down',
      status: 429,
      code: 'RequestTooFrequently',
      retryAfterMs: 5,
    });
    expect(new RequestValidationError('end_time', 'must be greater').message).toBe('end_time: must be greater');
    expect(new APIConnectionTimeoutError(1500).message).toBe('Request timed out after 1500 ms.');
    expect(new ResponseTooLargeError(10, { status: 200 }).limit).toBe(10);
  });
});
