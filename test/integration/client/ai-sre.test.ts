// The operations the newer OpenAPI brought that need more than a JSON body and an envelope, against
// the mock over HTTP: AI SRE's resources (`/safari/…` as client.skills, mcpServers, a2aAgents,
// sessions) beside the fixed enableA2AAgent and deleteSkill, on the same state; an upload sent as a
// form; an export answered as NDJSON lines; lists paged by `offset` and by `cursor`/`next_cursor`.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Flashduty,
  InvalidParameterError,
  RequestValidationError,
  ResourceNotFoundError,
  ResponseValidationError,
} from '../../../src/index.js';
import { rejection, startMock } from '../../helpers.js';

const h = await startMock({ rateLimits: false });
const client = h.client();

/** The wire bodies of the calls sent to `path` since `from`. */
const sentTo = (path: string, from: number) =>
  h.calls.slice(from).filter((call) => new URL(call.url).pathname === path);

describe('AI SRE resources', () => {
  it('are client.skills, mcpServers, a2aAgents and sessions; the fixed methods keep their shape', async () => {
    for (const name of ['skills', 'mcpServers', 'a2aAgents', 'sessions'] as const) {
      expect(typeof client[name], name).toBe('object');
    }
    expect(await client.enableA2AAgent('a2a_demo')).toEqual({ requestId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(await client.deleteSkill('skill_demo')).toEqual({ requestId: expect.any(String) });
  });

  it('share the mock’s state with enableA2AAgent and deleteSkill, and its audit log', async () => {
    const mock = await startMock({ agents: [{ agent_id: 'a2a_x' }], skills: [{ skill_id: 'skill_x' }] });
    const c = mock.client();
    await c.a2aAgents.enable({ agent_id: 'a2a_x' });
    expect(await rejection(c.enableA2AAgent('a2a_x'))).toBeInstanceOf(InvalidParameterError); // already enabled
    await c.a2aAgents.disable({ agent_id: 'a2a_x' });
    expect(mock.service.agentEnabled('a2a_x')).toBe(false);
    await c.enableA2AAgent('a2a_x');
    expect(await rejection(c.a2aAgents.disable({ agent_id: 'a2a_nope' }))).toBeInstanceOf(ResourceNotFoundError);
    await c.skills.delete({ skill_id: 'skill_x' });
    expect(await rejection(c.deleteSkill('skill_x'))).toBeInstanceOf(ResourceNotFoundError);
    expect(mock.service.auditLog.map((entry) => `${entry.operation} ${entry.result}`)).toEqual([
      'a2a-agent.enable OK',
      'a2a-agent.enable InvalidParameter',
      'a2a-agent.disable OK',
      'a2a-agent.enable OK',
      'a2a-agent.disable ResourceNotFound',
      'skill.delete OK',
      'skill.delete ResourceNotFound',
    ]);
  });

  it('need no on-call permission (AI SRE is its own product)', async () => {
    const limited = h.client({ appKey: h.service.keys.noPermission });
    expect((await limited.skills.list()).items).toEqual(expect.any(Array));
    expect(await limited.sessions.get({ session_id: 'sess_1' })).toMatchObject({ session: expect.any(Object) });
  });

  it('sessions.get is a plain method: the session and a window of its events', async () => {
    const detail = await client.sessions.get({ session_id: 'sess_1', limit: 2 });
    expect(detail).toMatchObject({ session: expect.any(Object), events: expect.any(Array) });
  });
});

describe('an upload: skills.upload sends multipart/form-data', () => {
  it('a File as its file part (named), the other fields as text; the answer is the skill', async () => {
    const from = h.calls.length;
    const archive = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'k8s-triage.zip', { type: 'application/zip' });
    const skill = await client.skills.upload({ file: archive, team_id: 0, replace: true });
    expect(skill).toMatchObject({ skill_id: expect.any(String), skill_name: expect.any(String) });
    const [call] = sentTo('/safari/skill/upload', from);
    expect(call?.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const form = String(call?.body);
    expect(form).toContain('name="file"; filename="k8s-triage.zip"');
    expect(form).toMatch(/name="replace"\r\n\r\ntrue\r\n/);
    expect(form).toMatch(/name="team_id"\r\n\r\n0\r\n/);
  });

  it('client.request sends the same form', async () => {
    const from = h.calls.length;
    await client.request('/safari/skill/upload', { file: new Blob(['x']), skill_id: 'skill_1' });
    expect(sentTo('/safari/skill/upload', from)[0]?.headers.get('content-type')).toMatch(/^multipart\/form-data/);
  });

  it('refuses a missing file, or text instead of one, with nothing sent', async () => {
    const from = h.calls.length;
    for (const params of [{ team_id: 0 }, { file: 'k8s-triage.zip' }]) {
      const error = await rejection(client.skills.upload(params as never));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe('file');
    }
    expect(h.calls.length).toBe(from);
  });

  it('the mock refuses an upload sent as JSON, and a form without its file', async () => {
    const url = `${h.server.url}/safari/skill/upload?app_key=${h.service.appKey}`;
    const json = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect((await json.json()).error.code).toBe('InvalidContentType');
    const form = new FormData();
    form.append('team_id', '0');
    const missing = await (await fetch(url, { method: 'POST', body: form })).json();
    expect(missing.error).toMatchObject({ code: 'InvalidParameter', message: expect.stringContaining('file') });
  });
});

describe('an export: sessions.export resolves to its NDJSON lines', () => {
  it('each line parsed, the session_meta line first; the request id from the header', async () => {
    const { data: lines, response } = await client.sessions.export({ session_id: 'sess_42' }).withResponse();
    expect(lines[0]).toEqual({ type: 'session_meta', session_id: 'sess_42', include_subagents: false });
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line).toMatchObject({ session_id: 'sess_42' });
    expect(response.requestId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('an error answer keeps its class', async () => {
    h.service.faults.add({ path: '/safari/session/export', code: 'ResourceNotFound' });
    expect(await rejection(client.sessions.export({ session_id: 'sess_gone' }))).toBeInstanceOf(ResourceNotFoundError);
  });

  it('refuses a line that is not a JSON object, and a JSON envelope where lines were promised', async () => {
    const answering = (body: string, type: string) =>
      new Flashduty({
        appKey: 'k',
        baseUrl: 'http://127.0.0.1:1',
        logLevel: 'off',
        fetch: async () => new Response(body, { headers: { 'content-type': type, 'service-request-id': 'r1' } }),
      });
    const broken = await rejection(
      answering('{"type":"session_meta"}\n\nnot json\n', 'application/x-ndjson').sessions.export({ session_id: 's' }),
    );
    expect(broken).toBeInstanceOf(ResponseValidationError);
    expect((broken as Error).message).toContain('line 3');
    const envelope = await rejection(
      answering('{"request_id":"r1","data":{}}', 'application/json').sessions.export({ session_id: 's' }),
    );
    expect(envelope).toBeInstanceOf(ResponseValidationError);
    expect((envelope as Error).message).toContain('JSON envelope instead of lines');
  });
});

describe('lists paged by other fields', () => {
  beforeAll(async () => {
    // Enough agents for pages of five: the mock lists the ones it has.
    for (let i = 0; i < 12; i++)
      await client.a2aAgents.create({
        agent_name: `agent ${i}`,
        instructions: 'help',
        card_url: 'https://agents.example.com/card',
      });
  });

  it('a2aAgents.list pages by offset: every page sends offset, never p', async () => {
    const from = h.calls.length;
    const ids: string[] = [];
    for await (const agent of client.a2aAgents.list({ limit: 5 })) ids.push(String(agent.agent_id));
    expect(new Set(ids).size).toBe(ids.length);
    const sent = sentTo('/safari/a2a-agent/list', from).map((call) => call.body as Record<string, unknown>);
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.map((body) => body.offset)).toEqual(sent.map((_, i) => i * 5));
    expect(sent.every((body) => !('p' in body))).toBe(true);
    const first = await client.a2aAgents.list({ limit: 5 });
    expect(ids.length).toBe(first.total);
  });

  it('an offset given starts the walk at its page; one that starts no page is refused', async () => {
    const all: string[] = [];
    for await (const agent of client.a2aAgents.list({ limit: 5 })) all.push(String(agent.agent_id));
    const rest: string[] = [];
    for await (const agent of client.a2aAgents.list({ limit: 5, offset: 10 })) rest.push(String(agent.agent_id));
    expect(rest).toEqual(all.slice(10));
    const error = await rejection(client.a2aAgents.list({ limit: 5, offset: 7 }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('offset');
  });

  it('monitors.targets pages by cursor: sent as cursor, read from next_cursor', async () => {
    const from = h.calls.length;
    const first = await client.monitors.targets({ limit: 5 });
    expect(first.searchAfterCtx).toBe('c5');
    const seen: string[] = [];
    for await (const target of client.monitors.targets({ limit: 5 })) seen.push(JSON.stringify(target));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(first.total);
    const sent = sentTo('/monit/targets', from).map((call) => call.body as Record<string, unknown>);
    expect(sent.slice(2).map((body) => body.cursor)).toEqual(sent.slice(2).map((_, i) => `c${(i + 1) * 5}`));
    expect(sent.every((body) => !('search_after_ctx' in body))).toBe(true);
  });
});
