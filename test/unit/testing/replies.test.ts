// How the mock writes its answers: the envelope with the request id, the status of each error code
// from the spec's table, the message in the caller's language, the headers every answer carries,
// NDJSON with its cursor header, and a fault's answer (raw body, code, or the code of a status).
import { describe, expect, it } from 'vitest';
import {
  answerResult,
  CORS,
  fail,
  faultResponse,
  ndjson,
  refuse,
  STATUS_OF_CODE,
  success,
} from '../../../src/testing/replies.js';

const EN = { requestId: 'r1', locale: 'en' as const };
const ZH = { requestId: 'r2', locale: 'zh' as const };

describe('replies', () => {
  it('writes a success as the envelope with data, its request id in a header too, CORS for browsers', async () => {
    const response = success(EN, { a: 1 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ request_id: 'r1', data: { a: 1 } });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('service-request-id')).toBe('r1');
    expect(response.headers.get('access-control-allow-origin')).toBe(CORS['Access-Control-Allow-Origin']);
  });

  it('writes a failure with the status of its code and the message in the caller’s language', async () => {
    const response = fail(ZH, 'ResourceNotFound', 'notFound', { id: 'x' }, { 'Retry-After': '1' });
    expect(response.status).toBe(400);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toEqual({
      request_id: 'r2',
      error: { code: 'ResourceNotFound', message: '未找到资源 x。' },
    });
    expect(fail(EN, 'SomethingNew', 'internal').status).toBe(400);
    expect(STATUS_OF_CODE).toMatchObject({ Unauthorized: 401, AccessDenied: 403, RequestTooFrequently: 429 });
  });

  it('makes a model’s result its answer, and a refusal an InvalidParameter', async () => {
    expect(await answerResult(EN, { data: null }).json()).toEqual({ request_id: 'r1', data: null });
    const refused = answerResult(EN, { code: 'Unauthorized', key: 'unauthorized' });
    expect(refused.status).toBe(401);
    const invalid = refuse(EN, { key: 'required', vars: { field: 'start_time' } });
    expect(await invalid.json()).toEqual({
      request_id: 'r1',
      error: { code: 'InvalidParameter', message: 'Parameter start_time is required.' },
    });
  });

  it('writes NDJSON, with the next page’s cursor in X-Search-After-Ctx where there is one', async () => {
    const paged = ndjson(EN, { text: '{"a":1}\n', cursor: 's20' });
    expect(paged.headers.get('content-type')).toBe('application/x-ndjson');
    expect(paged.headers.get('x-search-after-ctx')).toBe('s20');
    expect(await paged.text()).toBe('{"a":1}\n');
    expect(ndjson(EN, { text: '' }).headers.has('x-search-after-ctx')).toBe(false);
  });
});

describe('faultResponse', () => {
  it('answers a raw body as HTML, 200 unless a status is given', async () => {
    const page = faultResponse(EN, { body: '<h1>502</h1>', status: 502, headers: { 'X-A': '1' } });
    expect(page.status).toBe(502);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('x-a')).toBe('1');
    expect(await page.text()).toBe('<h1>502</h1>');
    expect(faultResponse(EN, { body: 'x' }).status).toBe(200);
  });

  it('answers a code with its status and envelope; a status alone with the spec’s code for it', async () => {
    const limited = faultResponse(EN, { code: 'RequestTooFrequently', message: 'slow down' });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      request_id: 'r1',
      error: { code: 'RequestTooFrequently', message: 'slow down' },
    });
    expect(await faultResponse(EN, { status: 503 }).json()).toMatchObject({
      error: { code: 'ServiceUnavailable', message: 'ServiceUnavailable' },
    });
    const internal = faultResponse(ZH, {});
    expect(internal.status).toBe(500);
    expect(await internal.json()).toMatchObject({
      error: { code: 'InternalError', message: '服务内部错误，已上报，请稍后重试。' },
    });
    // A status the table has several codes for takes the first the table lists.
    expect(await faultResponse(EN, { status: 400 }).json()).toMatchObject({ error: { code: 'InvalidParameter' } });
  });
});
