import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccessDeniedError,
  APIConnectionError,
  APIConnectionTimeoutError,
  Flashduty,
  InvalidParameterError,
  ResourceNotFoundError,
  UnauthorizedError,
} from '../../../src/index.js';
import { createMockService } from '../../../src/testing/index.js';
import { DAY, NOW, NOW_MS, rejection, startMock } from '../../helpers.js';

const h = await startMock({ incidents: 40, agents: [{ agent_id: 'a2a_demo' }, { agent_id: 'a2a_other' }] });
const window = { start_time: NOW - 7 * DAY, end_time: NOW };

/** A raw call, for what the client would refuse to send. */
function raw(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Response> {
  const key = init.key === undefined ? h.service.appKey : init.key;
  const url = `${h.server.url}${path}${key === null ? '' : `?app_key=${key}`}`;
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, ...init });
}

describe('mock service: the rules of every call', () => {
  it('refuses missing, unknown and expired keys with 401, and a key without on-call with 403', async () => {
    for (const key of [null, '', 'nope']) {
      const res = await raw('/incident/list', { key, body: JSON.stringify(window) });
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe('Unauthorized');
    }
    const expired = h.client({ appKey: h.service.keys.expired });
    expect(((await rejection(expired.listIncidents(window))) as Error).message).toMatch(/expired/);
    expect(await rejection(expired.listIncidents(window))).toBeInstanceOf(UnauthorizedError);
    const limited = h.client({ appKey: h.service.keys.noPermission });
    expect(await rejection(limited.listIncidents(window))).toBeInstanceOf(AccessDeniedError);
    await expect(limited.enableA2AAgent('a2a_other')).resolves.toBeDefined(); // no permission needed
  });

  it('answers the protocol errors with their codes, statuses and a request id header', async () => {
    const cases: Array<[string, RequestInit, number, string]> = [
      [
        '/incident/list',
        { headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(window) },
        400,
        'InvalidContentType',
      ],
      ['/incident/list', { body: '{"start_time":' }, 400, 'BadRequest'],
      ['/incident/list', { body: 'x'.repeat(1024 * 1024 + 1) }, 413, 'EntityTooLarge'],
      ['/incident/nope', { body: '{}' }, 404, 'RouteNotFound'],
      ['/incident/list', { method: 'GET' }, 405, 'MethodNotAllowed'],
      ['/incident/list', { body: JSON.stringify({ start_time: NOW }) }, 400, 'InvalidParameter'],
    ];
    for (const [path, init, status, code] of cases) {
      const res = await raw(path, init);
      const body = await res.json();
      expect([res.status, body.error.code], `${path} ${code}`).toEqual([status, code]);
      expect(body.request_id).toMatch(/^[0-9a-f]{32}$/);
      expect(res.headers.get('service-request-id')).toBe(body.request_id);
    }
  });

  it('names the field at fault, in English or Chinese by Accept-Language', async () => {
    const body = JSON.stringify({ start_time: NOW - DAY, end_time: NOW, limit: 500 });
    const en = await (await raw('/incident/list', { body })).json();
    expect(en.error.message).toBe('Parameter limit must be between 0 and 100.');
    const zh = await (
      await raw('/incident/list', {
        body,
        headers: { 'Content-Type': 'application/json', 'Accept-Language': 'zh-CN,zh;q=0.9' },
      })
    ).json();
    expect(zh.error.message).toBe('参数 limit 必须介于 0 和 100 之间。');
    const longWindow = await (
      await raw('/incident/list', { body: JSON.stringify({ start_time: NOW - 40 * DAY, end_time: NOW }) })
    ).json();
    expect(longWindow.error.message).toMatch(/31 days/);
  });

  it('runs the agent state machine and records every call in the audit log', async () => {
    const client = h.client();
    const before = h.service.auditLog.length;
    expect(h.service.agentEnabled('a2a_demo')).toBe(false);
    const { requestId } = await client.enableA2AAgent('a2a_demo');
    expect(h.service.agentEnabled('a2a_demo')).toBe(true);
    expect(await rejection(client.enableA2AAgent('a2a_demo'))).toBeInstanceOf(InvalidParameterError);
    expect(await rejection(client.enableA2AAgent('a2a_missing'))).toBeInstanceOf(ResourceNotFoundError);
    await client.deleteSkill('skill_demo');
    expect(h.service.hasSkill('skill_demo')).toBe(false);
    expect(await rejection(client.deleteSkill('skill_demo'))).toBeInstanceOf(ResourceNotFoundError);
    const entries = h.service.auditLog.slice(before);
    expect(entries.map((e) => [e.operation, e.target, e.result])).toEqual([
      ['a2a-agent.enable', 'a2a_demo', 'OK'],
      ['a2a-agent.enable', 'a2a_demo', 'InvalidParameter'],
      ['a2a-agent.enable', 'a2a_missing', 'ResourceNotFound'],
      ['skill.delete', 'skill_demo', 'OK'],
      ['skill.delete', 'skill_demo', 'ResourceNotFound'],
    ]);
    expect(entries[0]?.request_id).toBe(requestId);
    expect(entries[0]?.time).toBe(NOW_MS);
    expect(JSON.stringify(entries)).not.toContain(h.service.appKey);
  });

  it('is deterministic: the same seed gives the same incidents', () => {
    const a = createMockService({ seed: 9, incidents: 20, now: NOW_MS });
    const b = createMockService({ seed: 9, incidents: 20, now: NOW_MS });
    const c = createMockService({ seed: 10, incidents: 20, now: NOW_MS });
    expect(a.world.incidents).toEqual(b.world.incidents);
    expect(a.appKey).toBe(b.appKey);
    expect(a.world.incidents).not.toEqual(c.world.incidents);
  });

  it('keeps the progress rules in its generated data', () => {
    for (const i of h.service.world.incidents) {
      expect(i.incident_id).toMatch(/^[0-9a-f]{24}$/);
      if (i.end_time > 0) expect(i.progress).toBe('Closed'); // recovery closes
      if (i.progress !== 'Closed') expect(i.close_time).toBe(0);
      if (i.active_alert_cnt === 0) expect(i.incident_status).toBe('Ok');
      const acks = i.responders.map((r) => r.acknowledged_at).filter((t) => t > 0);
      expect(i.ack_time).toBe(acks.length ? Math.min(...acks) : 0);
    }
  });
});

describe('mock service as MSW handlers', () => {
  const service = createMockService({ seed: 3, incidents: 30, now: NOW_MS });
  const server = setupServer(...service.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('serves the client on any origin, with both paging modes and errors', async () => {
    const client = new Flashduty({ appKey: service.appKey, baseUrl: 'https://api.flashcat.cloud', logLevel: 'off' });
    const all = [];
    for await (const incident of client.listIncidents({ ...window, limit: 7 })) all.push(incident);
    expect(all.length).toBe(service.world.incidents.filter((i) => i.start_time >= window.start_time).length);
    const byNumber = [];
    for await (const incident of client.listIncidents({ ...window, limit: 7 }).items({ by: 'number' }))
      byNumber.push(incident);
    expect(byNumber.map((i) => i.incident_id)).toEqual(all.map((i) => i.incident_id));
    const other = new Flashduty({ appKey: service.appKey, baseUrl: 'http://mock.internal/api', logLevel: 'off' });
    await expect(other.enableA2AAgent('a2a_demo')).resolves.toEqual({ requestId: expect.any(String) });
    expect(await rejection(other.enableA2AAgent('a2a_demo'))).toBeInstanceOf(InvalidParameterError);
  });

  it('takes an access token, and a trigger’s own token on its path with a parameter, under a base path too', async () => {
    const byToken = new Flashduty({
      accessToken: service.accessToken,
      baseUrl: 'http://mock.internal/api',
      logLevel: 'off',
    });
    expect((await byToken.members.list({ limit: 5 })).items.length).toBe(5);
    const trigger = service.automations.createTrigger();
    const fired = await byToken.automations.triggers.fire(
      { trigger_id: trigger.trigger_id, text: 'via MSW' },
      { token: trigger.token },
    );
    expect(fired).toMatchObject({ type: 'routine_fire' });
    expect(service.automations.fired.at(-1)).toMatchObject({ trigger_id: trigger.trigger_id, text: 'via MSW' });
    const refused = await rejection(
      byToken.automations.triggers.fire({ trigger_id: trigger.trigger_id }, { token: service.accessToken }),
    );
    expect(refused).toBeInstanceOf(UnauthorizedError); // the account's token is no trigger's
  });

  it('drops a connection as a network error', async () => {
    service.faults.add({ drop: true });
    const client = new Flashduty({
      appKey: service.appKey,
      baseUrl: 'https://api.flashcat.cloud',
      maxRetries: 0,
      logLevel: 'off',
    });
    const error = await rejection(client.deleteSkill('skill_demo'));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
  });
});

describe('mock service: generated alerts and raw events', () => {
  it('are complete and consistent with their incidents', async () => {
    const { AlertInfoSchema, AlertEventItemSchema } = await import('../../../src/index.js');
    const service = createMockService({ seed: 4, incidents: 50, now: NOW_MS });
    for (const incident of service.world.incidents) {
      const alerts = service.world.alerts.get(incident.incident_id) ?? [];
      expect(alerts.length).toBe(incident.alert_cnt);
      let events = 0;
      for (const alert of alerts) {
        expect(AlertInfoSchema['~standard'].validate(alert)).not.toHaveProperty('issues');
        expect(alert.incident?.incident_id).toBe(incident.incident_id);
        const raw = service.world.events.get(alert.alert_id) ?? [];
        expect(raw).toHaveLength(alert.event_cnt);
        for (const e of raw) expect(AlertEventItemSchema['~standard'].validate(e)).not.toHaveProperty('issues');
        events += raw.length;
      }
      expect(incident.alert_event_cnt).toBe(events);
      const active = alerts.filter((a) => a.alert_status !== 'Ok').length;
      expect(incident.active_alert_cnt).toBe(active);
    }
  });
});
