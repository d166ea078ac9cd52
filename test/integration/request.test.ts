// client.request(path, body): any operation of the vendored OpenAPI through the one request loop,
// against the mock over real HTTP; retry policy per operation from the generated table.
import { describe, expect, it } from 'vitest';
import { InternalError, RequestValidationError, ServiceUnavailableError } from '../../src/index.js';
import { withIdempotencyKey } from '../../src/client/request.js';
import { GET_PATHS, IDEMPOTENCY_KEY_PATHS, READ_PATHS } from '../../src/generated/operations.js';
import { DAY, NOW, NOW_MS, rejection, startMock } from '../helpers.js';

const h = await startMock({ incidents: 40, rateLimits: false });
const client = h.client();

describe('client.request', () => {
  it('sends the body to the path and resolves to data', async () => {
    const data = await client.request('/incident/list', { start_time: NOW - 20 * DAY, end_time: NOW, limit: 3 });
    expect(h.calls.at(-1)?.url).toMatch(/\/incident\/list\?app_key=/);
    expect(h.calls.at(-1)?.body).toEqual({ start_time: NOW - 20 * DAY, end_time: NOW, limit: 3 });
    expect(data?.items).toHaveLength(3);
    const history = await client.request('/webhook/history/list', {
      limit: 5,
      start_time: NOW_MS - 3_600_000,
      end_time: NOW_MS,
    });
    expect(history?.items).toEqual([]);
    expect(history?.search_after_ctx).toBe('');
  });

  it('retries reads as reads and never repeats a mutation the server may have seen', async () => {
    h.service.faults.add({ status: 503, path: '/incident/list' });
    await expect(client.request('/incident/list', { start_time: NOW - DAY, end_time: NOW })).resolves.toBeDefined();
    const before = h.calls.length;
    h.service.faults.add({ status: 500, path: '/incident/ack' });
    expect(
      await rejection(client.request('/incident/ack', { incident_ids: ['0123456789abcdef01234567'] })),
    ).toBeInstanceOf(InternalError);
    expect(h.calls.length - before).toBe(1);
    h.service.faults.add({ status: 503, path: '/channel/infos', times: 3 });
    expect(await rejection(client.request('/channel/infos', { channel_ids: [1] }))).toBeInstanceOf(
      ServiceUnavailableError,
    );
    expect(h.calls.length - before).toBe(4); // "Batch get channels" is a read: 1 + 2 retries
  });

  it('puts the params of a GET operation in the query, after the app_key', async () => {
    h.service.faults.add({
      status: 200,
      body: '{"request_id":"r","data":{"items":[]}}',
      path: '/status-page/change/list',
    });
    const data = await client.request('/status-page/change/list', { page_id: 42, start_at_seconds: 7 });
    expect(data).toEqual({ items: [] });
    const call = h.calls.at(-1)!;
    expect(call.method).toBe('GET');
    expect(call.body).toBeUndefined();
    expect(new URL(call.url).searchParams.get('page_id')).toBe('42');
    expect(new URL(call.url).searchParams.get('start_at_seconds')).toBe('7');
    expect(new URL(call.url).searchParams.get('app_key')).toBe(h.service.appKey);
  });

  it('refuses a path or a body of the wrong shape before sending', async () => {
    const before = h.calls.length;
    expect(((await rejection(client.request('incident/ack' as never, {}))) as RequestValidationError).field).toBe(
      'path',
    );
    expect(((await rejection(client.request('/incident/ack?x=1' as never, {}))) as RequestValidationError).field).toBe(
      'path',
    );
    expect(((await rejection(client.request('/incident/ack', null as never))) as RequestValidationError).field).toBe(
      'body',
    );
    expect(h.calls.length).toBe(before);
  });

  it('classifies every operation by the documented rule', () => {
    for (const path of [
      '/incident/list',
      '/incident/info',
      '/alert/list',
      '/channel/infos',
      '/webhook/history/detail',
      '/status-page/change/list',
    ]) {
      expect(READ_PATHS.has(path), path).toBe(true);
    }
    for (const path of [
      '/incident/ack',
      '/incident/create',
      '/incident/comment',
      '/channel/create',
      '/incident/remove',
      '/member/invite',
    ]) {
      expect(READ_PATHS.has(path), path).toBe(false);
    }
    expect([...GET_PATHS]).toHaveLength(5);
    expect(READ_PATHS.size).toBe(99);
  });

  it("fills in an idempotency_key where the operation defines one, and keeps the caller's", () => {
    expect([...IDEMPOTENCY_KEY_PATHS]).toEqual([]); // none in this copy of the OpenAPI
    const keyed = withIdempotencyKey({ title: 'x' }, true) as { idempotency_key?: string };
    expect(keyed.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(withIdempotencyKey({ title: 'x' }, true)).not.toEqual(keyed); // one key per call
    expect(withIdempotencyKey({ idempotency_key: 'mine' }, true)).toEqual({ idempotency_key: 'mine' });
    const plain = { title: 'x' };
    expect(withIdempotencyKey(plain, false)).toBe(plain);
  });
});
