// The mock's router, one Request in and its answer out (no socket): which route, the checks in the
// service's order (method, credential, rate limit, permission, content type, size, JSON), each rule's
// answer (the incident list, the request schemas, GET query and form fields typed, an operation's own
// token, agents and skills with their audit log), faults, the caller's language and the call log.
import { describe, expect, it } from 'vitest';
import { DROP, Truncated, type RouteResult } from '../../../src/testing/replies.js';
import { route, ROUTE_PATHS, STATEFUL_PATHS } from '../../../src/testing/router.js';
import { apiRequest, KEYS, mockState, NOW_MS } from './support.js';

const WINDOW = { start_time: NOW_MS / 1000 - 86_400 * 30, end_time: NOW_MS / 1000 };

function response(result: RouteResult): Response {
  if (!(result instanceof Response)) throw new Error('expected an answer');
  return result;
}

/** The answer's status and error code (or `ok`), and its message. */
async function outcome(result: RouteResult): Promise<[number, string, string?]> {
  const answer = response(result);
  const body = (await answer.json()) as { error?: { code: string; message: string } };
  return body.error ? [answer.status, body.error.code, body.error.message] : [answer.status, 'ok'];
}

describe('routes', () => {
  it('answers every path of the OpenAPI, and knows which it answers from its state', () => {
    expect(ROUTE_PATHS.length).toBeGreaterThan(280);
    expect(STATEFUL_PATHS).toEqual(
      expect.arrayContaining(['/incident/list', '/incident/ack', '/webhook/history/list']),
    );
    expect(STATEFUL_PATHS).toContain('/status-page/change/list'); // the engine's (world/engine.ts)
    expect(STATEFUL_PATHS).not.toContain('/insight/account');
  });

  it('refuses an unknown path (404) and another method (405), and answers a preflight', async () => {
    const state = mockState();
    expect(await outcome(await route(state, apiRequest('/no/such/route', {})))).toEqual([
      404,
      'RouteNotFound',
      'No route matches /no/such/route.',
    ]);
    const get = await route(state, new Request(`http://mock.test/incident/list?app_key=${KEYS.full}`));
    expect((await outcome(get)).slice(0, 2)).toEqual([405, 'MethodNotAllowed']);
    const preflight = response(
      await route(state, new Request('http://mock.test/incident/list', { method: 'OPTIONS' })),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
  });
});

describe('the credential', () => {
  it('is the app key or an access token; a missing, unknown or expired one is Unauthorized', async () => {
    const state = mockState();
    const list = (options: Parameters<typeof apiRequest>[2]) =>
      route(state, apiRequest('/incident/list', WINDOW, options));
    expect((await outcome(await list({})))[1]).toBe('ok');
    expect((await outcome(await list({ key: null, headers: { Authorization: `Bearer ${KEYS.token}` } })))[1]).toBe(
      'ok',
    );
    expect(await outcome(await list({ key: null }))).toEqual([401, 'Unauthorized', 'You are unauthorized.']);
    expect((await outcome(await list({ key: 'fdk_unknown' })))[1]).toBe('Unauthorized');
    expect(await outcome(await list({ key: KEYS.expired }))).toEqual([401, 'Unauthorized', 'The app_key has expired.']);
  });

  it('needs the on-call permission for on-call operations, not for AI SRE’s', async () => {
    const state = mockState();
    expect(await outcome(await route(state, apiRequest('/incident/list', WINDOW, { key: KEYS.noPermission })))).toEqual(
      [403, 'AccessDenied', 'Access Denied: the app_key lacks the on-call permission.'],
    );
    const agents = await route(
      state,
      apiRequest('/safari/a2a-agent/enable', { agent_id: 'a2a_demo' }, { key: KEYS.noPermission }),
    );
    expect((await outcome(agents))[1]).toBe('ok');
  });
});

describe('rate limits', () => {
  it('count on-call calls per account and AI SRE calls per key, 429 with Retry-After beyond', async () => {
    const state = mockState({ rateLimits: { perSecond: 1, perMinute: 100 } });
    expect(response(await route(state, apiRequest('/incident/list', WINDOW))).status).toBe(200);
    const limited = response(await route(state, apiRequest('/channel/list', {})));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect((await outcome(limited)).slice(1)).toEqual(['RequestTooFrequently', 'Request too frequently.']);
    // AI SRE has a bucket of its own.
    expect(response(await route(state, apiRequest('/safari/a2a-agent/disable', { agent_id: 'a2a_demo' }))).status).toBe(
      200,
    );
  });
});

describe('bodies', () => {
  it('refuses another content type, a body too large, one that is not JSON and one that is not an object', async () => {
    const state = mockState();
    const text = new Request(`http://mock.test/incident/list?app_key=${KEYS.full}`, { method: 'POST', body: '{}' });
    expect((await outcome(await route(state, text))).slice(0, 2)).toEqual([400, 'InvalidContentType']);
    expect((await outcome(await route(state, apiRequest('/incident/list', 'x'.repeat(2_000))))).slice(0, 2)).toEqual([
      413,
      'EntityTooLarge',
    ]);
    expect((await outcome(await route(state, apiRequest('/incident/list', '{')))).slice(0, 2)).toEqual([
      400,
      'BadRequest',
    ]);
    expect((await outcome(await route(state, apiRequest('/incident/list', [1])))).slice(0, 2)).toEqual([
      400,
      'BadRequest',
    ]);
  });

  it('checks an operation’s body against its request schema, naming the field', async () => {
    const state = mockState();
    const [status, code, message] = await outcome(await route(state, apiRequest('/channel/create', { team_id: 'x' })));
    expect([status, code]).toEqual([400, 'InvalidParameter']);
    expect(message).toMatch(/^Parameter (team_id|channel_name) is invalid: [^{]+\.$/); // why, filled in
  });

  it('reads a GET operation’s query and an upload’s form fields as the schema types them', async () => {
    const state = mockState();
    const page = state.engine.insert('/status-page', { name: 'Status' }, state.world.members[0]!.person_id);
    const url = `http://mock.test/status-page/change/list?app_key=${KEYS.full}&page_id=${String(page.page_id)}&type=incident&status=resolved`;
    expect((await outcome(await route(state, new Request(url))))[1]).toBe('ok');
    const typeless = `http://mock.test/status-page/change/list?app_key=${KEYS.full}&page_id=seven&type=incident&status=resolved`;
    expect((await outcome(await route(state, new Request(typeless)))).slice(0, 2)).toEqual([400, 'InvalidParameter']);
    const form = new FormData();
    form.set('file', new File(['PK'], 'skill.zip'));
    form.set('team_id', String(state.world.teams[0]!.team_id)); // a team of the world's: a write names only what exists
    form.set('replace', 'true');
    const upload = new Request(`http://mock.test/safari/skill/upload?app_key=${KEYS.full}`, {
      method: 'POST',
      body: form,
    });
    expect((await outcome(await route(state, upload)))[1]).toBe('ok');
    const json = await route(state, apiRequest('/safari/skill/upload', { team_id: 3 }));
    expect((await outcome(json)).slice(0, 2)).toEqual([400, 'InvalidContentType']);
  });
});

describe('the rules of each route', () => {
  it('lists incidents by the request table’s rules', async () => {
    const state = mockState();
    const page = response(await route(state, apiRequest('/incident/list', { ...WINDOW, limit: 5 })));
    const { data } = (await page.json()) as { data: { items: unknown[]; total: number } };
    expect(data.items).toHaveLength(5);
    expect(data.total).toBeGreaterThan(5);
    expect(await outcome(await route(state, apiRequest('/incident/list', { end_time: 1 })))).toEqual([
      400,
      'InvalidParameter',
      'Parameter start_time is required.',
    ]);
  });

  it('fires an automation trigger with its own token only, its path parameter read from the path', async () => {
    const state = mockState();
    const trigger = state.automations.createTrigger(state.world.members[0]!.person_id);
    const fire = (headers: Record<string, string>, key: string | null = null) =>
      route(
        state,
        apiRequest(`/safari/automation/triggers/${trigger.trigger_id}/fire`, { text: 'go' }, { key, headers }),
      );
    expect((await outcome(await fire({ Authorization: `Bearer ${trigger.token}` })))[1]).toBe('ok');
    expect(state.automations.fired).toEqual([expect.objectContaining({ trigger_id: trigger.trigger_id, text: 'go' })]);
    expect((await outcome(await fire({}, KEYS.full))).slice(0, 2)).toEqual([401, 'Unauthorized']);
    expect((await outcome(await fire({ Authorization: 'Bearer sat_wrong' }))).slice(0, 2)).toEqual([
      401,
      'Unauthorized',
    ]);
  });

  it('enables an agent once, deletes a skill once, refuses a missing id, and audits every call', async () => {
    const state = mockState();
    const call = (path: string, body: object) => route(state, apiRequest(path, body));
    expect((await outcome(await call('/safari/a2a-agent/enable', { agent_id: 'a2a_demo' })))[1]).toBe('ok');
    expect(await outcome(await call('/safari/a2a-agent/enable', { agent_id: 'a2a_demo' }))).toEqual([
      400,
      'InvalidParameter',
      'A2A agent a2a_demo is already enabled.',
    ]);
    expect((await outcome(await call('/safari/a2a-agent/disable', { agent_id: 'nope' })))[1]).toBe('ResourceNotFound');
    expect((await outcome(await call('/safari/skill/delete', { skill_id: 'skill_demo' })))[1]).toBe('ok');
    expect(await outcome(await call('/safari/skill/delete', { skill_id: 'skill_demo' }))).toEqual([
      400,
      'ResourceNotFound',
      'Skill skill_demo was not found.',
    ]);
    expect(await outcome(await call('/safari/a2a-agent/enable', {}))).toEqual([
      400,
      'InvalidParameter',
      'Parameter agent_id is required.',
    ]);
    expect((await outcome(await call('/safari/a2a-agent/enable', { agent_id: 7 })))[2]).toBe(
      'Parameter agent_id must be a string.',
    );
    expect(state.auditLog.map((entry) => [entry.operation, entry.target, entry.result])).toEqual([
      ['a2a-agent.enable', 'a2a_demo', 'OK'],
      ['a2a-agent.enable', 'a2a_demo', 'InvalidParameter'],
      ['a2a-agent.disable', 'nope', 'ResourceNotFound'],
      ['skill.delete', 'skill_demo', 'OK'],
      ['skill.delete', 'skill_demo', 'ResourceNotFound'],
      ['a2a-agent.enable', 'null', 'InvalidParameter'],
      ['a2a-agent.enable', '7', 'InvalidParameter'],
    ]);
    expect(state.auditLog[0]).toMatchObject({
      key_name: 'full',
      time: NOW_MS,
      person_id: state.world.members[0]!.person_id,
    });
  });

  it('answers an NDJSON operation with lines', async () => {
    const answer = response(await route(mockState(), apiRequest('/safari/session/export', { session_id: 'sess_1' })));
    expect(answer.headers.get('content-type')).toBe('application/x-ndjson');
    expect(JSON.parse((await answer.text()).split('\n')[0] as string)).toMatchObject({
      type: 'session_meta',
      session_id: 'sess_1',
    });
  });
});

describe('faults', () => {
  it('answer with a code instead of the operation, on the next matching call only', async () => {
    const state = mockState();
    state.faults.add({ path: '/incident/list', code: 'InternalError', message: 'boom' });
    expect(await outcome(await route(state, apiRequest('/incident/list', WINDOW)))).toEqual([
      500,
      'InternalError',
      'boom',
    ]);
    expect((await outcome(await route(state, apiRequest('/incident/list', WINDOW))))[1]).toBe('ok');
  });

  it('drop the connection before the call takes effect, or after (the answer lost), or cut the body', async () => {
    const state = mockState();
    const [incident] = state.world.incidents.filter((i) => i.progress === 'Triggered');
    const ack = () => route(state, apiRequest('/incident/ack', { incident_ids: [incident?.incident_id] }));
    state.faults.add({ drop: true });
    expect(await ack()).toBe(DROP);
    expect(state.world.incidents.find((i) => i.incident_id === incident?.incident_id)?.progress).toBe('Triggered');
    state.faults.add({ dropAfter: true });
    expect(await ack()).toBe(DROP);
    expect(state.world.incidents.find((i) => i.incident_id === incident?.incident_id)?.progress).toBe('Processing');
    state.faults.add({ truncate: true });
    const cut = await ack();
    expect(cut).toBeInstanceOf(Truncated);
    expect((cut as Truncated).response.status).toBe(200);
    expect(state.callLog.map((entry) => entry.status)).toEqual([0, 0, 200]);
  });
});

describe('the caller and the call log', () => {
  it('answers in the caller’s language', async () => {
    const state = mockState();
    const answer = await route(state, apiRequest('/incident/list', {}, { headers: { 'Accept-Language': 'zh-CN' } }));
    expect(await outcome(answer)).toEqual([400, 'InvalidParameter', '参数 start_time 为必填项。']);
  });

  it('records each call: its route, the name of its key (never the key), its status and request id', async () => {
    const state = mockState();
    const answer = response(await route(state, apiRequest('/api/incident/list', WINDOW)));
    await route(state, apiRequest('/incident/list', WINDOW, { key: 'fdk_unknown' }));
    expect(state.callLog).toEqual([
      {
        time: expect.any(Number),
        path: '/incident/list',
        key_name: 'full',
        status: 200,
        request_id: answer.headers.get('service-request-id'),
      },
      expect.objectContaining({ path: '/incident/list', key_name: undefined, status: 401 }),
    ]);
    expect(state.callLog[0]?.request_id).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(state.callLog)).not.toContain(KEYS.full);
  });
});
