// The client's credential: an app key (`app_key` in the query) or an access token
// (`Authorization: Bearer`, no app_key), from the options or the environment, exactly one of them;
// and an operation's own token (the automation trigger's), sent alone in place of either. Against the
// mock over HTTP, which takes either credential and judges a trigger's token; every refusal is checked
// to name the options and never to show a secret.
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, RequestValidationError, UnauthorizedError, type ClientOptions } from '../../../src/index.js';
import { DAY, NOW, rejection, startMock } from '../../helpers.js';

const h = await startMock({ incidents: 10 });
afterEach(() => {
  h.service.faults.clear();
  vi.unstubAllEnvs();
});
const window = { start_time: NOW - DAY, end_time: NOW };
const TOKEN = h.service.accessToken;

/** A client of the mock whose credential is only what `options` (and the environment) give. */
const bare = (options: ClientOptions) => h.client({ appKey: undefined, ...options });

/** Everything a user could print about an error: message, stack, causes, JSON and inspect output. */
function renderings(error: unknown): string {
  const parts: string[] = [String(error), inspect(error, { depth: 10, showHidden: true }), JSON.stringify(error)];
  for (let e: unknown = error; e instanceof Error; e = e.cause) parts.push(e.message, e.stack ?? '');
  return parts.join('\n');
}

describe('an access token', () => {
  it('is sent as Authorization: Bearer on every kind of call, and no app_key', async () => {
    const client = bare({ accessToken: TOKEN });
    const before = h.calls.length;
    await client.listIncidents(window); // JSON, paged
    await client.request('/status-page/subscriber/list', { page_id: 1, p: 1, limit: 5 }); // GET
    await client.skills.upload({ file: new File(['PK'], 'k8s-triage.zip') }); // a form
    await client.sessions.export({ session_id: 'sess_1' }); // NDJSON lines
    const calls = h.calls.slice(before);
    expect(calls).toHaveLength(4);
    for (const call of calls) {
      expect(call.headers.get('authorization'), call.url).toBe(`Bearer ${TOKEN}`);
      expect(new URL(call.url).searchParams.has('app_key'), call.url).toBe(false);
    }
    expect(new URL(calls[1]!.url).search).toBe('?page_id=1&p=1&limit=5');
  });

  it('is read from FLASHDUTY_ACCESS_TOKEN', async () => {
    vi.stubEnv('FLASHDUTY_APP_KEY', '');
    vi.stubEnv('FLASHDUTY_ACCESS_TOKEN', TOKEN);
    const client = bare({});
    const before = h.calls.length;
    await client.listIncidents(window);
    expect(h.calls[before]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });

  it('refused by the service is an UnauthorizedError that never shows it', async () => {
    const wrong = 'fdt_not-a-token-of-this-account';
    const { lines, logger } = collect();
    const client = bare({ accessToken: wrong, logger, logLevel: 'debug' });
    h.service.faults.add({ code: 'Unauthorized', message: `token ${wrong} is unknown` }); // a service that echoes it
    const echoed = await rejection(client.listIncidents(window));
    const refused = await rejection(client.listIncidents(window));
    expect(echoed).toBeInstanceOf(UnauthorizedError);
    expect(refused).toBeInstanceOf(UnauthorizedError);
    const shown = [renderings(echoed), renderings(refused), inspect(client), JSON.stringify(client), ...lines].join(
      '\n',
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(shown).not.toContain(wrong);
    expect(inspect(client)).toContain("accessToken: '***'");
    expect(JSON.parse(JSON.stringify(client))).toMatchObject({ accessToken: '***' });
  });
});

describe('one credential, checked at construction', () => {
  const key = 'fdk_secret_key_value';
  const token = 'fdt_secret_token_value';

  it.each<[string, ClientOptions, Record<string, string>]>([
    ['both as options', { appKey: key, accessToken: token }, {}],
    ['both from the environment', {}, { FLASHDUTY_APP_KEY: key, FLASHDUTY_ACCESS_TOKEN: token }],
  ])('both (%s): ConfigError naming both options, never their values', (_case, options, env) => {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    const error = (() => {
      try {
        bare(options);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const text = renderings(error);
    expect(text).toMatch(/appKey/);
    expect(text).toMatch(/accessToken/);
    expect(text).not.toContain(key);
    expect(text).not.toContain(token);
  });

  it('an option wins over the environment, which is then not read for a credential', async () => {
    vi.stubEnv('FLASHDUTY_ACCESS_TOKEN', 'fdt_from_the_environment');
    const before = h.calls.length;
    await bare({ appKey: h.service.appKey }).listIncidents(window);
    expect(new URL(h.calls[before]!.url).searchParams.get('app_key')).toBe(h.service.appKey);
    expect(h.calls[before]?.headers.get('authorization')).toBeNull();
    vi.stubEnv('FLASHDUTY_ACCESS_TOKEN', '');
    vi.stubEnv('FLASHDUTY_APP_KEY', 'fdk_from_the_environment');
    await bare({ accessToken: TOKEN }).listIncidents(window);
    expect(h.calls.at(-1)?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(new URL(h.calls.at(-1)!.url).searchParams.has('app_key')).toBe(false);
  });

  it.each<[string, ClientOptions, RegExp]>([
    ['neither', {}, /No credential: pass `appKey` or `accessToken`/],
    ['an empty app key', { appKey: '' }, /appKey is empty/],
    ['a blank access token', { accessToken: '  ' }, /accessToken is empty/],
    ['an access token a header cannot carry', { accessToken: 'tok en' }, /accessToken: only visible ASCII/],
    ['an access token with a line break', { accessToken: 'tok\r\nX-Evil: 1' }, /accessToken: only visible ASCII/],
  ])('%s: ConfigError', (_case, options, message) => {
    vi.stubEnv('FLASHDUTY_APP_KEY', '');
    vi.stubEnv('FLASHDUTY_ACCESS_TOKEN', '');
    expect(() => bare(options)).toThrow(ConfigError);
    expect(() => bare(options)).toThrow(message);
  });
});

describe('an operation’s own token: the automation trigger', () => {
  it('fires with the trigger’s token alone: no app key, no access token, the id in the path', async () => {
    const trigger = h.service.automations.createTrigger();
    for (const client of [h.client(), bare({ accessToken: TOKEN })]) {
      const before = h.calls.length;
      const run = await client.automations.triggers.fire(
        { trigger_id: trigger.trigger_id, text: 'deploy done' },
        { token: trigger.token },
      );
      expect(run).toMatchObject({ type: 'routine_fire', session_id: expect.stringMatching(/^sess_/) });
      const call = h.calls[before]!;
      expect(new URL(call.url).pathname).toBe(`/safari/automation/triggers/${trigger.trigger_id}/fire`);
      expect(new URL(call.url).search).toBe('');
      expect(call.headers.get('authorization')).toBe(`Bearer ${trigger.token}`);
      expect(call.body).toEqual({ text: 'deploy done' });
    }
    expect(h.service.automations.fired.slice(-2).map((run) => run.text)).toEqual(['deploy done', 'deploy done']);
  });

  it('the same through client.request, by the path as the OpenAPI writes it', async () => {
    const trigger = h.service.automations.createTrigger();
    await expect(
      h.client().request(
        '/safari/automation/triggers/{trigger_id}/fire',
        { trigger_id: trigger.trigger_id },
        {
          token: trigger.token,
        },
      ),
    ).resolves.toMatchObject({ type: 'routine_fire' });
  });

  it('an answer that echoes the token shows it scrubbed through withResponse()', async () => {
    const trigger = h.service.automations.createTrigger();
    const echoing: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const answer = await fetch(request);
      const headers = new Headers(answer.headers);
      headers.set('x-echo', request.headers.get('authorization') ?? '');
      return new Response(answer.body, { status: answer.status, headers });
    };
    const { data, response } = await h
      .client({ fetch: echoing })
      .automations.triggers.fire({ trigger_id: trigger.trigger_id }, { token: trigger.token })
      .withResponse();
    expect(data).toMatchObject({ type: 'routine_fire' });
    expect(response.headers.get('x-echo')).toBe('Bearer ***');
  });

  it('a refused token is an UnauthorizedError that never shows the token', async () => {
    const trigger = h.service.automations.createTrigger();
    const stale = `${trigger.token}x`;
    const error = await rejection(
      h.client().automations.triggers.fire({ trigger_id: trigger.trigger_id }, { token: stale }),
    );
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as UnauthorizedError).status).toBe(401);
    expect(renderings(error)).not.toContain(stale);
    expect(renderings(error)).not.toContain(h.service.appKey);
  });

  it('a missing, empty or unsendable token, or one given to an operation that takes none: refused, nothing sent', async () => {
    const client = h.client();
    const before = h.calls.length;
    const fire = (params: { trigger_id: string }, options: unknown) =>
      client.automations.triggers.fire(params, options as never);
    for (const options of [undefined, {}, { token: '' }, { token: '  ' }, { token: 'a b' }]) {
      const error = await rejection(fire({ trigger_id: 'atrig_1' }, options));
      expect(error, JSON.stringify(options)).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe('token');
    }
    const misplaced = await rejection(client.incidents.ack({ incident_ids: [] }, { token: 'sat_1' } as never));
    expect((misplaced as RequestValidationError).field).toBe('token');
    const list = await rejection(client.members.list({}, { token: 'sat_1' } as never));
    expect((list as RequestValidationError).field).toBe('token');
    expect(h.calls.length).toBe(before);
  });

  it('a path parameter missing, empty, holding a dot segment or ill-formed: RequestValidationError, nothing sent; others encoded', async () => {
    const client = h.client();
    const before = h.calls.length;
    for (const params of [
      {},
      { trigger_id: '' },
      { trigger_id: 7 },
      { trigger_id: '..' },
      { trigger_id: '.' },
      { trigger_id: '../admin' },
      { trigger_id: '%2e%2e' },
      { trigger_id: '..%2fadmin' },
      { trigger_id: 'ab\uDC00' }, // not well-formed Unicode: no URIError
    ]) {
      const error = await rejection(client.automations.triggers.fire(params as never, { token: 'sat_1' }));
      expect(error, JSON.stringify(params)).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe('trigger_id');
    }
    expect(h.calls.length).toBe(before);
    // Any other value is one path segment: a slash or a query cannot take the call elsewhere.
    const error = await rejection(client.automations.triggers.fire({ trigger_id: 'a/b?c#d' }, { token: 'sat_1' }));
    expect(new URL(h.calls[before]!.url).pathname).toBe('/safari/automation/triggers/a%2Fb%3Fc%23d/fire');
    expect(error).toMatchObject({ code: 'ResourceNotFound' });
  });
});

/** A logger that keeps every line. */
function collect() {
  const lines: string[] = [];
  const push = (...args: unknown[]) => lines.push(args.map((a) => (typeof a === 'string' ? a : inspect(a))).join(' '));
  return { lines, logger: { debug: push, info: push, warn: push, error: push } };
}
