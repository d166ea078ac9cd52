// withResponse() on every call's promise, ky's hooks passed through, and log lines on stderr.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, Flashduty, IncidentPage, InternalError, RequestValidationError } from '../../../src/index.js';
import { DAY, NOW, NOW_MS, rejection, standIn, startMock } from '../../helpers.js';

const h = await startMock({
  incidents: 10,
  skills: ['skill_demo', 'skill_a', 'skill_b', 'skill_c', 'skill_r'].map((skill_id) => ({ skill_id })),
});
const window = { start_time: NOW - DAY, end_time: NOW };

describe('withResponse()', () => {
  const client = h.client({ maxRetries: 1 });

  it('on a mutation: the result and the answer (status, headers, requestId, url)', async () => {
    const promise = client.deleteSkill('skill_demo');
    expect(promise).toBeInstanceOf(Promise);
    const { data, response } = await promise.withResponse();
    expect(data).toEqual({ requestId: response.requestId });
    expect(response.status).toBe(200);
    expect(response.headers.get('service-request-id')).toBe(response.requestId);
    expect(response.url).toBe(`${h.server.url}/safari/skill/delete?app_key=***`);
    expect(await promise).toEqual(data); // one call, both views
  });

  it('on a page promise: the first page and its answer; iteration still works', async () => {
    const pages = client.listIncidents({ ...window, limit: 3 });
    const { data, response } = await pages.withResponse();
    expect(data).toBeInstanceOf(IncidentPage);
    expect(data.requestId).toBe(response.requestId);
    expect(response.status).toBe(200);
    const before = h.calls.length;
    expect((await pages).requestId).toBe(data.requestId); // the first page is fetched once
    expect(h.calls.length).toBe(before);
  });

  it('on webhookHistory.list (a cursor page promise) and webhookHistory.detail', async () => {
    const endpoint = await standIn((req, res) => req.resume().on('end', () => res.end('ok')));
    const hook = h.service.webhooks.create({ endpoint: `${endpoint.url}/hook` });
    await h.service.actions.create({
      title: 'with response',
      incident_severity: 'Warning',
      channel_id: h.service.world.channels[0]!.channel_id,
    });
    await h.service.webhooks.idle();
    const range = { integration_id: hook.id, start_time: NOW_MS - 3_600_000, end_time: NOW_MS + 3_600_000 };
    const { data: page, response } = await client.webhookHistory.list(range).withResponse();
    expect(response.status).toBe(200);
    expect(page.requestId).toBe(response.requestId);
    const event_id = page.items[0]?.event_id as string;
    const detail = await client.webhookHistory.detail({ integration_id: hook.id, event_id }).withResponse();
    expect(detail.response.url).toBe(`${h.server.url}/webhook/history/detail?app_key=***`);
    expect(detail.data).toMatchObject({ event_id });
  });

  it('on client.request()', async () => {
    const { data, response } = await client
      .request('/incident/list', { start_time: NOW - DAY, end_time: NOW, limit: 1 })
      .withResponse();
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${h.server.url}/incident/list?app_key=***`);
    expect(data).toBeDefined();
  });

  it('on the resource methods (client.incidents, client.channels) and their lists', async () => {
    const { data: page, response: listed } = await client.channels.list().withResponse();
    expect(listed.url).toBe(`${h.server.url}/channel/list?app_key=***`);
    const channel_id = page.items[0]?.channel_id as number;
    const { data, response } = await client.channels.info({ channel_id }).withResponse();
    expect(data).toMatchObject({ channel_id });
    expect(response).toMatchObject({ status: 200, url: `${h.server.url}/channel/info?app_key=***` });
    expect(await rejection(client.incidents.ack({ incident_ids: 'x' as never }).withResponse())).toBeInstanceOf(
      RequestValidationError,
    );
  });

  it('a failed call observed only through withResponse() leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      expect(await rejection(client.deleteSkill('').withResponse())).toBeInstanceOf(RequestValidationError);
      // Node reports a rejection left unhandled once the microtasks after the macrotask it happened in
      // have run: one setImmediate later, any rejection of this call has been reported (not a sleep).
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('rejects as the call does, with the same typed errors', async () => {
    h.service.faults.add({ code: 'InternalError', times: 2 });
    expect(await rejection(client.listIncidents(window).withResponse())).toBeInstanceOf(InternalError);
    expect(await rejection(client.deleteSkill(' x').withResponse())).toBeInstanceOf(RequestValidationError);
    expect(await rejection(client.deleteSkill(' x'))).toBeInstanceOf(RequestValidationError);
  });

  it('works with Promise.all, then, catch and finally', async () => {
    const results = await Promise.all([client.deleteSkill('skill_a'), client.deleteSkill('skill_b')]);
    expect(results.map((r) => typeof r.requestId)).toEqual(['string', 'string']);
    let settled = false;
    const id = await client
      .deleteSkill('skill_c')
      .then((r) => r.requestId)
      .finally(() => (settled = true));
    expect(settled && typeof id === 'string').toBe(true);
    expect(await client.deleteSkill('').catch((e: unknown) => e)).toBeInstanceOf(RequestValidationError);
  });

  it('shows the headers scrubbed of the key', async () => {
    const key = 'fdk_with_response_key';
    const echo = await standIn((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Echo': req.url ?? '', 'X-Raw': `key ${key}` });
      res.end(JSON.stringify({ request_id: 'r-1', data: {} }));
    });
    const c = new Flashduty({ appKey: key, baseUrl: echo.url, logLevel: 'off' });
    const { response } = await c.deleteSkill('skill_1').withResponse();
    expect(response.headers.get('x-echo')).toBe('/safari/skill/delete?app_key=***');
    expect(response.headers.get('x-raw')).toBe('key ***');
  });
});

describe('hooks', () => {
  it('are passed to ky: beforeRequest and afterResponse run on every attempt', async () => {
    const seen: number[] = [];
    const client = h.client({
      maxRetries: 1,
      hooks: {
        beforeRequest: [(request) => request.headers.set('X-Trace', 'abc')],
        afterResponse: [(_request, _options, response) => void seen.push(response.status)],
      },
    });
    h.service.faults.add({ status: 503, headers: { 'Retry-After': '0' } });
    await client.listIncidents(window);
    expect(seen).toEqual([503, 200]);
    expect(h.calls.at(-1)?.headers.get('x-trace')).toBe('abc');
  });

  it('beforeRequest may answer instead of the server; afterResponse may replace the answer', async () => {
    const canned = () =>
      new Response(JSON.stringify({ request_id: 'canned', data: {} }), {
        headers: { 'Content-Type': 'application/json' },
      });
    const before = h.calls.length;
    const short = h.client({ hooks: { beforeRequest: [() => canned()] } });
    expect(await short.deleteSkill('skill_x')).toEqual({ requestId: 'canned' });
    expect(h.calls.length).toBe(before);
    const replaced = h.client({ hooks: { afterResponse: [() => canned()] } });
    expect(await replaced.deleteSkill('skill_unknown')).toEqual({ requestId: 'canned' });
  });

  it('must be arrays of functions', () => {
    expect(() => new Flashduty({ appKey: 'k', hooks: { beforeRequest: 'x' as never } })).toThrow(ConfigError);
    expect(() => new Flashduty({ appKey: 'k', hooks: { afterResponse: [1] as never } })).toThrow(
      /hooks: beforeRequest and afterResponse must be arrays of functions/,
    );
  });
});

describe('logs', () => {
  it('go to stderr by default, never into the program output on stdout', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'test/integration/processes/log-lines.ts'],
      { timeout: 30_000 },
    );
    expect(stdout).toBe('program output\n');
    expect(stderr).toMatch(/\[flashduty\] POST .*incident\/list\?app_key=\*\*\* → ServiceUnavailableError/);
    expect(stderr).toMatch(/\[flashduty\] incident\/list: ServiceUnavailableError .* retry 1\/2/);
    expect(stderr).toMatch(/→ 200 in \d+ ms/);
  });
});
