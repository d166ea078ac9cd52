// client.request(path, body): any operation of the vendored OpenAPI through the one request loop,
// against the mock over real HTTP; retry policy per operation from the generated table.
import { describe, expect, it } from 'vitest';
import { APIError, InternalError, RequestValidationError, ServiceUnavailableError } from '../../../src/index.js';
import { withIdempotencyKey } from '../../../src/client/resources/params.js';
import { OPERATIONS } from '../../../src/generated/operations.js';
import { RULES } from '../../../src/generated/operation-rules.js';

const ALL = Object.entries(OPERATIONS) as Array<[string, { http: string; kind: string }]>;
const READ_PATHS = new Set(ALL.filter(([, info]) => info.kind === 'read').map(([path]) => path));
const GET_PATHS = ALL.filter(([, info]) => info.http === 'GET').map(([path]) => path);
import { DAY, NOW, NOW_MS, rejection, startMock } from '../../helpers.js';

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
    const data = await client.request('/status-page/change/list', {
      page_id: 42,
      start_at_seconds: 7,
      type: 'incident',
      status: 'resolved',
    });
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

  it('keeps the path under the base URL’s path: a dot segment, raw or encoded, is refused, nothing sent', async () => {
    const prefixed = h.client({ baseUrl: `${h.server.url}/fd` });
    const before = h.calls.length;
    for (const path of [
      '/../admin/x',
      '/%2e%2e/admin/x',
      '/%2E./admin/x',
      '/./../admin/x',
      '/incident/../../admin/x',
      '/..%2fadmin/x',
      '/%252e%252e/admin/x',
      '/..\\admin/x',
      '/incident/list/.',
    ]) {
      const error = await rejection(prefixed.request(path as never, {}));
      expect(error, path).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field, path).toBe('path');
    }
    expect(h.calls.length).toBe(before);
    // A path the SDK does not know is resolved under the base URL's path; dots inside a segment are no segment.
    await rejection(prefixed.request('/incident/v1.2/...' as never, {}));
    expect(new URL(h.calls.at(-1)!.url).pathname).toBe('/fd/incident/v1.2/...');
  });

  it('refuses text that is not well-formed Unicode where it goes into the URL: RequestValidationError, not URIError', async () => {
    const before = h.calls.length;
    const lone = '\uD800';
    for (const [call, field] of [
      [() => client.request(`/incident/${lone}` as never, {}), 'path'],
      [() => client.request('/status-page/change/list', { page_id: 1, type: lone, status: 'resolved' }), 'type'],
      [
        () => client.request('/safari/automation/triggers/{trigger_id}/fire', { trigger_id: lone }, { token: 'sat_1' }),
        'trigger_id',
      ],
    ] as const) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe(field);
    }
    expect(h.calls.length).toBe(before);
  });

  it('checks the body against the OpenAPI before sending and names the field', async () => {
    const before = h.calls.length;
    const refused = async (promise: Promise<unknown>) => (await rejection(promise)) as RequestValidationError;
    const missing = await refused(client.request('/incident/ack', {} as never));
    expect(missing).toBeInstanceOf(RequestValidationError);
    expect(missing.field).toBe('incident_ids');
    const badId = await refused(client.request('/incident/ack', { incident_ids: ['0123456789abcdef01234567', 'abc'] }));
    expect(badId.field).toBe('incident_ids[1]');
    expect(badId.message).toMatch(/incident_ids\[1\]/);
    const wrongType = await refused(client.request('/channel/info', { channel_id: '7' as never }));
    expect([wrongType.field, wrongType.message]).toEqual(['channel_id', expect.stringMatching(/integer/)]);
    const tooLong = await refused(client.request('/incident/snooze', { incident_ids: [], minutes: 1441 }));
    expect(tooLong.field).toBe('minutes');
    expect(h.calls.length).toBe(before); // nothing was sent
    // The same checks through withResponse().
    expect(await rejection(client.request('/incident/ack', {} as never).withResponse())).toBeInstanceOf(
      RequestValidationError,
    );
    expect(h.calls.length).toBe(before);
  });

  it('leaves enum membership and paths it does not know to the server (forward compatible)', async () => {
    const before = h.calls.length;
    // A severity this copy of the OpenAPI does not list is sent; the mock, like the server of today, refuses it.
    const error = await rejection(
      client.request('/incident/reset', {
        incident_id: '0123456789abcdef01234567',
        incident_severity: 'Fatal' as never,
      }),
    );
    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(RequestValidationError);
    expect(h.calls.length).toBe(before + 1);
    // A resource method checks enums too: it is typed, and refuses before sending.
    const local = await rejection(
      client.incidents.reset({ incident_id: '0123456789abcdef01234567', incident_severity: 'Fatal' as never }),
    );
    expect((local as RequestValidationError).field).toBe('incident_severity');
    expect(h.calls.length).toBe(before + 1);
    // An operation the service added after this OpenAPI: sent as it is (as a mutation), whatever the body.
    await rejection(client.request('/incident/brand-new' as never, { anything: 1 } as never));
    expect(h.calls.length).toBe(before + 2);
  });

  it('classifies every operation by the documented rule', () => {
    for (const path of [
      '/incident/list',
      '/incident/info',
      '/alert/list',
      '/channel/infos',
      '/webhook/history/detail',
      '/status-page/change/list',
      '/monit/query/rows', // "Query data source rows"
      '/safari/session/export', // "Export session transcript"
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
      '/safari/skill/upload',
      '/monit/query/diagnose',
    ]) {
      expect(READ_PATHS.has(path), path).toBe(false);
    }
    expect(GET_PATHS).toHaveLength(10);
    expect(READ_PATHS.size).toBe(136);
  });

  it("fills in an idempotency_key where the operation defines one, and keeps the caller's", () => {
    expect(Object.values(RULES).filter((rule) => rule.idempotency)).toEqual([]); // none in this copy of the OpenAPI
    const keyed = withIdempotencyKey({ title: 'x' }, true) as { idempotency_key?: string };
    expect(keyed.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(withIdempotencyKey({ title: 'x' }, true)).not.toEqual(keyed); // one key per call
    expect(withIdempotencyKey({ idempotency_key: 'mine' }, true)).toEqual({ idempotency_key: 'mine' });
    const plain = { title: 'x' };
    expect(withIdempotencyKey(plain, false)).toBe(plain);
  });
});
