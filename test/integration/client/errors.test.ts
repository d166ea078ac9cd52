import { describe, expect, it } from 'vitest';
import {
  APIError,
  ERROR_CLASSES,
  FlashdutyError,
  InvalidParameterError,
  RequestTooFrequentlyError,
  ResourceNotFoundError,
  ResponseValidationError,
  UnauthorizedError,
} from '../../../src/index.js';
import { DAY, NOW, rejection, startMock } from '../../helpers.js';

const h = await startMock({ incidents: 30 });
const window = { start_time: NOW - 7 * DAY, end_time: NOW };
const client = h.client({ maxRetries: 0 });
const jsonBody = (value: unknown, headers: Record<string, string> = {}) => ({
  body: JSON.stringify(value),
  headers: { 'Content-Type': 'application/json', ...headers },
});

describe('error classes', () => {
  it.each(Object.entries(ERROR_CLASSES))('%s → %s', async (code, ErrorClass) => {
    h.service.faults.add({ code, message: `server says ${code}`, path: '/incident/list' });
    const error = await rejection(client.listIncidents(window));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(FlashdutyError);
    const apiError = error as APIError;
    expect(apiError.code).toBe(code);
    expect(apiError.message).toBe(`server says ${code}`);
    expect(apiError.name).toBe(code === 'InternalError' ? 'InternalError' : `${code}Error`);
    expect(apiError.requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(apiError.headers.get('service-request-id')).toBe(apiError.requestId);
  });

  it('follows the envelope code, not the status: ResourceNotFound at 400, an error at 200', async () => {
    h.service.faults.add({ code: 'ResourceNotFound', status: 400 });
    expect(await rejection(client.deleteSkill('skill_x'))).toBeInstanceOf(ResourceNotFoundError);
    h.service.faults.add({ code: 'Unauthorized', status: 200, message: 'key revoked' });
    const error = (await rejection(client.listIncidents(window))) as UnauthorizedError;
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.status).toBe(200);
    expect(error.message).toBe('key revoked');
  });

  it('gives an unknown code as a plain APIError that keeps the code', async () => {
    h.service.faults.add({ code: 'QuotaExhausted', status: 400, message: 'new kind of failure' });
    const error = (await rejection(client.listIncidents(window))) as APIError;
    expect(error.constructor).toBe(APIError);
    expect(error.code).toBe('QuotaExhausted');
    expect(error.status).toBe(400);
  });

  it('treats error.code "OK" beside data as a success', async () => {
    h.service.faults.add(
      jsonBody({
        request_id: 'r-ok',
        error: { code: 'OK', message: '' },
        data: { items: [], total: 0, has_next_page: false },
      }),
    );
    const page = await client.listIncidents(window);
    expect(page.items).toEqual([]);
    expect(page.requestId).toBe('r-ok');
    h.service.faults.add(jsonBody({ request_id: 'r-ok2', error: { code: 'OK' }, data: null }));
    expect(await client.enableA2AAgent('a2a_any')).toEqual({ requestId: 'r-ok2' });
  });

  it('turns an HTML error page from a proxy into an APIError with status and a short excerpt', async () => {
    const page = `<html><head><title>502 Bad Gateway</title></head><body>${'<p>upstream down</p>'.repeat(50)}</body></html>`;
    h.service.faults.add({ status: 502, body: page });
    const error = (await rejection(client.listIncidents(window))) as APIError;
    expect(error.constructor).toBe(APIError);
    expect(error.status).toBe(502);
    expect(error.code).toBeUndefined();
    expect(error.message).toMatch(/^HTTP 502: <html><head><title>502 Bad Gateway/);
    expect(error.message.length).toBeLessThan(260);
  });

  it('reports a 2xx answer that is not an envelope as ResponseValidationError', async () => {
    const cases: Array<[string, string]> = [
      ['<html>ok</html>', 'not JSON'],
      ['', 'empty body'],
      ['[1,2]', 'not an object'],
      ['{"request_id": 5, "data": {}}', 'request_id'],
      ['{"request_id": "r1", "error": "boom"}', 'error'],
      ['{"request_id": "r1", "error": {"message": "no code"}}', 'error.code'],
      ['{"data": {"items": [], "total": 0, "has_next_page": false}}', 'request_id'],
      ['{"request_id": "r1", "data": {"items": {}, "total": 0, "has_next_page": false}}', 'data.items'],
      ['{"request_id": "r1", "data": {"items": [7], "total": 0, "has_next_page": false}}', 'data.items.0'],
      ['{"request_id": "r1", "data": {"items": [], "total": "3", "has_next_page": false}}', 'data.total'],
      ['{"request_id": "r1", "data": {"items": [], "total": 3}}', 'data.has_next_page'],
    ];
    for (const [body, where] of cases) {
      h.service.faults.add({ status: 200, body, headers: { 'Content-Type': 'application/json' } });
      const error = (await rejection(client.listIncidents(window))) as ResponseValidationError;
      expect(error, body).toBeInstanceOf(ResponseValidationError);
      expect(error.status).toBe(200);
      expect(error.message, body).toContain(where);
    }
  });

  it('takes the request id from Service-Request-Id, then Flashcat-Request-Id, then the body', async () => {
    const failure = { request_id: 'from-body', error: { code: 'InvalidParameter', message: 'bad' } };
    h.service.faults.add(
      jsonBody(failure, { 'Service-Request-Id': 'from-service', 'Flashcat-Request-Id': 'from-flashcat' }),
    );
    expect(((await rejection(client.listIncidents(window))) as APIError).requestId).toBe('from-service');
    h.service.faults.add(jsonBody(failure, { 'Flashcat-Request-Id': 'from-flashcat' }));
    expect(((await rejection(client.listIncidents(window))) as APIError).requestId).toBe('from-flashcat');
    h.service.faults.add(jsonBody(failure));
    const error = (await rejection(client.listIncidents(window))) as InvalidParameterError;
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(error.requestId).toBe('from-body');
  });

  it('exposes Retry-After on RequestTooFrequentlyError, undefined without one', async () => {
    h.service.faults.add({ code: 'RequestTooFrequently', headers: { 'Retry-After': '7' } });
    expect(((await rejection(client.enableA2AAgent('a2a_demo'))) as RequestTooFrequentlyError).retryAfterMs).toBe(7000);
    h.service.faults.add({ code: 'RequestTooFrequently' });
    expect(
      ((await rejection(client.enableA2AAgent('a2a_demo'))) as RequestTooFrequentlyError).retryAfterMs,
    ).toBeUndefined();
  });

  it('serializes errors to plain JSON without headers or body', async () => {
    h.service.faults.add({ code: 'InvalidParameter', message: 'limit too large' });
    const error = (await rejection(client.listIncidents(window))) as APIError;
    const json = JSON.parse(JSON.stringify(error));
    expect(json).toMatchObject({
      name: 'InvalidParameterError',
      message: 'limit too large',
      status: 400,
      code: 'InvalidParameter',
    });
    expect(json.requestId).toBe(error.requestId);
    expect(json.url).toMatch(/\/incident\/list\?app_key=\*\*\*$/);
    expect(json.headers).toBeUndefined();
  });
});
