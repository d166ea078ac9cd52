// How an HTTP answer becomes data or a typed error (src/core/envelope-reader.ts): the class follows
// the envelope's code whatever the status; `code: "OK"` beside data is a success; a body that is not
// an envelope is an APIError (non-2xx, with a short scrubbed excerpt) or a ResponseValidationError
// (2xx); the request id from the headers, then the body; NDJSON answers are lines.
import { describe, expect, it } from 'vitest';
import {
  APIError,
  InvalidParameterError,
  RequestTooFrequentlyError,
  ResourceNotFoundError,
  ResponseValidationError,
} from '../../../src/index.js';
import { checkEnvelope, interpret, interpretLines, requestIdOf } from '../../../src/core/envelope-reader.js';
import { createRedactor } from '../../../src/internal/redact.js';

const scrub = createRedactor('sekret-key');
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers(headers),
  text: typeof body === 'string' ? body : JSON.stringify(body),
  url: 'https://api.test/x?app_key=***',
});

/** What `interpret` throws for an answer. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('interpret', () => {
  it('gives the data and request id of a success, `code: "OK"` included', () => {
    expect(interpret(answer(200, { request_id: 'r1', data: { a: 1 } }), 'envelope', scrub)).toMatchObject({
      data: { a: 1 },
      requestId: 'r1',
    });
    expect(interpret(answer(200, { request_id: 'r1', data: 2, error: { code: 'OK' } }), 'envelope', scrub).data).toBe(
      2,
    );
  });

  it('picks the error class by the envelope’s code, not the HTTP status, with Retry-After read', () => {
    const notFound = thrown(() =>
      interpret(
        answer(400, { request_id: 'r', error: { code: 'ResourceNotFound', message: 'gone' } }),
        'envelope',
        scrub,
      ),
    );
    expect(notFound).toBeInstanceOf(ResourceNotFoundError);
    expect(notFound).toMatchObject({ status: 400, code: 'ResourceNotFound', message: 'gone', requestId: 'r' });
    expect(
      thrown(() => interpret(answer(200, { request_id: 'r', error: { code: 'InvalidParameter' } }), 'envelope', scrub)),
    ).toBeInstanceOf(InvalidParameterError);
    const busy = thrown(() =>
      interpret(answer(429, { error: { code: 'RequestTooFrequently' } }, { 'Retry-After': '3' }), 'envelope', scrub),
    );
    expect((busy as RequestTooFrequentlyError).retryAfterMs).toBe(3000);
    const unknown = thrown(() => interpret(answer(400, { error: { code: 'BrandNew' } }), 'envelope', scrub));
    expect([(unknown as APIError).constructor, (unknown as APIError).code]).toEqual([APIError, 'BrandNew']);
  });

  it.each(['envelope', 'deep'] as const)(
    'keeps the class of an error code whatever else the envelope holds (a null message or request_id), validate %s',
    (validate) => {
      const busy = thrown(() =>
        interpret(
          answer(
            429,
            { request_id: 'r', error: { code: 'RequestTooFrequently', message: null } },
            { 'Retry-After': '3' },
          ),
          validate,
          scrub,
        ),
      );
      expect(busy).toBeInstanceOf(RequestTooFrequentlyError);
      expect(busy).toMatchObject({ code: 'RequestTooFrequently', retryAfterMs: 3000, requestId: 'r' });
      const gone = thrown(() =>
        interpret(
          answer(
            400,
            { request_id: null, error: { code: 'ResourceNotFound', message: 'gone' } },
            { 'Service-Request-Id': 'h' },
          ),
          validate,
          scrub,
        ),
      );
      expect(gone).toBeInstanceOf(ResourceNotFoundError);
      expect(gone).toMatchObject({ code: 'ResourceNotFound', message: 'gone', requestId: 'h' });
    },
  );

  it('keeps no key in an error, scrubbed from the message, the body and the headers', () => {
    const echo = { error: { code: 'BadRequest', message: 'bad key sekret-key' }, echo: 'sekret%2Dkey' };
    const error = thrown(() => interpret(answer(400, echo, { 'X-Echo': 'sekret-key' }), 'envelope', scrub)) as APIError;
    expect(JSON.stringify([error.message, error.body, [...error.headers]])).not.toMatch(/sekret/i);
  });

  it('refuses a 2xx that is no envelope, and turns a non-2xx without one into an APIError with an excerpt', () => {
    for (const [body, why] of [
      ['', 'empty body'],
      ['<html>', 'not JSON'],
      ['[1]', 'not an object'],
      [{ data: 1 }, 'no request_id'],
      [{ request_id: 5 }, 'request_id: expected a string, got number'],
    ] as const) {
      const error = thrown(() => interpret(answer(200, body), 'envelope', scrub));
      expect(error, why).toBeInstanceOf(ResponseValidationError);
      expect((error as Error).message, why).toContain(why);
    }
    const proxy = thrown(() => interpret(answer(502, `<html>${'x'.repeat(500)} sekret-key</html>`), 'envelope', scrub));
    expect(proxy).toBeInstanceOf(APIError);
    expect((proxy as APIError).message).toMatch(/^HTTP 502: <html>x+…$/);
    expect(thrown(() => interpret(answer(500, { request_id: 'r' }), 'envelope', scrub))).toBeInstanceOf(APIError);
  });

  it('checks nothing with validate: false but that the body is an object', () => {
    expect(interpret(answer(200, { request_id: 7, data: 1 }), false, scrub).data).toBe(1);
  });
});

describe('interpretLines', () => {
  it('gives the lines of an NDJSON answer, and refuses a line that is no object or an envelope instead', () => {
    const lines = answer(200, '{"a":1}\n\n{"b":2}', {
      'Content-Type': 'application/x-ndjson',
      'Service-Request-Id': 'n',
    });
    expect(interpretLines(lines, 'envelope', scrub)).toMatchObject({ data: [{ a: 1 }, { b: 2 }], requestId: 'n' });
    expect((thrown(() => interpretLines(answer(200, '{"a":1}\n[2]'), 'envelope', scrub)) as Error).message).toBe(
      'Invalid NDJSON answer: line 2 is not a JSON object',
    );
    const envelope = answer(200, { request_id: 'r', data: {} }, { 'Content-Type': 'application/json' });
    expect(thrown(() => interpretLines(envelope, 'envelope', scrub))).toBeInstanceOf(ResponseValidationError);
    const failed = answer(400, { error: { code: 'ResourceNotFound' } }, { 'Content-Type': 'application/json' });
    expect(thrown(() => interpretLines(failed, 'envelope', scrub))).toBeInstanceOf(ResourceNotFoundError);
  });
});

describe('the envelope’s parts', () => {
  it('take the request id from Service-Request-Id, then Flashcat-Request-Id, then the body', () => {
    const both = new Headers({ 'Service-Request-Id': 's', 'Flashcat-Request-Id': 'f' });
    expect(requestIdOf(both, { request_id: 'b' })).toBe('s');
    expect(requestIdOf(new Headers({ 'Flashcat-Request-Id': 'f' }), { request_id: 'b' })).toBe('f');
    expect(requestIdOf(new Headers(), { request_id: 'b' })).toBe('b');
    expect(requestIdOf(new Headers(), { request_id: '' })).toBeUndefined();
  });

  it('check `error` as an object with a string code and message', () => {
    expect(checkEnvelope({ error: null })).toBeUndefined();
    expect(checkEnvelope({ error: 'boom' })?.path).toBe('error');
    expect(checkEnvelope({ error: { message: 'x' } })?.path).toBe('error.code');
    expect(checkEnvelope({ error: { code: 'X', message: 1 } })?.path).toBe('error.message');
  });
});
