import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  DEFAULT_BASE_URL,
  ConfigError,
  Flashduty,
  FlashdutyError,
  type RequestOptions,
} from '../../../src/index.js';
import { DAY, NOW, rejection, startMock } from '../../helpers.js';

const h = await startMock({ incidents: 10 });
afterEach(() => {
  h.service.faults.clear();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
const window = { start_time: NOW - DAY, end_time: NOW };

describe('construction', () => {
  it('reads FLASHDUTY_APP_KEY and FLASHDUTY_BASE_URL from the environment', async () => {
    vi.stubEnv('FLASHDUTY_APP_KEY', h.service.appKey);
    vi.stubEnv('FLASHDUTY_BASE_URL', `${h.server.url}/`);
    const client = new Flashduty({ logLevel: 'off' });
    expect(client.baseUrl).toBe(h.server.url);
    await expect(client.enableA2AAgent('a2a_demo')).resolves.toEqual({ requestId: expect.any(String) });
  });

  it('defaults to the public endpoint', () => {
    vi.stubEnv('FLASHDUTY_BASE_URL', '');
    expect(new Flashduty({ appKey: 'k-1234' }).baseUrl).toBe(DEFAULT_BASE_URL);
    expect(DEFAULT_BASE_URL).toBe('https://api.flashcat.cloud');
  });

  it('throws FlashdutyError without a key', () => {
    vi.stubEnv('FLASHDUTY_APP_KEY', '');
    expect(() => new Flashduty()).toThrow(FlashdutyError);
    expect(() => new Flashduty({ appKey: '  ' })).toThrow(/FLASHDUTY_APP_KEY/);
  });

  it.each([
    [{ baseUrl: 'not a url' }, /baseUrl/],
    [{ baseUrl: 'ftp://x.example' }, /baseUrl/],
    [{ baseUrl: 'https://x.example/?a=1' }, /baseUrl/],
    [{ timeout: 0 }, /timeout/],
    [{ timeout: Number.NaN }, /timeout/],
    [{ maxRetries: -1 }, /maxRetries/],
    [{ maxRetries: 1.5 }, /maxRetries/],
    [{ validate: 'full' }, /validate/],
    [{ logLevel: 'loud' }, /logLevel/],
    [{ rateLimit: { perSecond: 0 } }, /rateLimit/],
    [{ rateLimit: { perMinute: 2.5 } }, /rateLimit\.perMinute/],
    [{ rateLimit: 'fast' }, /rateLimit/],
    [{ hooks: { beforeRequest: ['not a function'] } }, /hooks/],
  ])('refuses bad options %j', (options, message) => {
    expect(() => new Flashduty({ appKey: 'k-1234', ...(options as object) })).toThrow(message);
  });

  it('refuses to run in a browser page unless dangerouslyAllowBrowser', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    vi.stubGlobal('navigator', {});
    expect(() => new Flashduty({ appKey: 'k-1234' })).toThrow(/browser/);
    expect(new Flashduty({ appKey: 'k-1234', dangerouslyAllowBrowser: true })).toBeInstanceOf(Flashduty);
  });
});

describe('call options', () => {
  const client = h.client();

  it('refuses one that no call takes with the one meant, before anything is sent (it was ignored)', async () => {
    const trigger = h.service.automations.createTrigger();
    const fire = { trigger_id: trigger.trigger_id, text: 'hi' };
    const before = h.calls.length;
    const misspelt = (options: object) => options as RequestOptions & { token: string };
    for (const [call, message] of [
      [
        () => client.incidents.list(window, misspelt({ maxRetry: 3 })),
        'maxRetry: not an option of a call (did you mean maxRetries?)',
      ],
      [
        () => client.listIncidents(window, misspelt({ timout: 5 })),
        'timout: not an option of a call (did you mean timeout?)',
      ],
      [
        () => client.incidents.ack({ incident_ids: [] }, misspelt({ header: {} })),
        'header: not an option of a call (did you mean headers?)',
      ],
      [
        () => client.request('/incident/list', window, misspelt({ signl: undefined })),
        'signl: not an option of a call (did you mean signal?)',
      ],
      [
        () => client.deleteSkill('skill_demo', misspelt({ maxRetry: 0 })),
        'maxRetry: not an option of a call (did you mean maxRetries?)',
      ],
      [
        () => client.automations.triggers.fire(fire, misspelt({ tokn: trigger.token })),
        'tokn: not an option of a call (did you mean token?)',
      ],
      [
        () => client.enableA2AAgent('a2a_demo', misspelt({ baseUrl: h.server.url })),
        'baseUrl: not an option of a call',
      ],
    ] as const) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe(message);
    }
    expect(h.calls.length).toBe(before);
  });

  it('takes every one it lists', async () => {
    const trigger = h.service.automations.createTrigger();
    const options = { signal: new AbortController().signal, timeout: 5_000, maxRetries: 1, headers: { 'X-Call': '1' } };
    await client.incidents.list(window, options);
    await client.automations.triggers.fire({ trigger_id: trigger.trigger_id }, { ...options, token: trigger.token });
    expect(h.calls.at(-1)?.headers.get('x-call')).toBe('1');
  });
});

describe('headers', () => {
  it('sends Accept-Language, client headers and per-call headers, and gets localized messages', async () => {
    const client = h.client({
      acceptLanguage: 'zh-CN',
      headers: { 'X-Team': 'sre', 'X-Over': 'client' },
      maxRetries: 0,
    });
    const error = await rejection(client.enableA2AAgent('a2a_enabled', { headers: { 'X-Over': 'call' } }));
    const sent = h.calls.at(-1)?.headers;
    expect(sent?.get('accept-language')).toBe('zh-CN');
    expect(sent?.get('x-team')).toBe('sre');
    expect(sent?.get('x-over')).toBe('call');
    expect(sent?.get('content-type')).toMatch(/^application\/json/);
    expect(sent?.get('user-agent')).toMatch(/^flashduty-sdk\//);
    expect((error as Error).message).toBe('A2A 智能体 a2a_enabled 已经启用。');
    expect(h.calls.at(-1)?.url).toMatch(new RegExp(`/safari/a2a-agent/enable\\?app_key=${h.service.appKey}$`));
    expect(h.calls.at(-1)?.body).toEqual({ agent_id: 'a2a_enabled' });
  });
});

describe('abort and timeout', () => {
  it('rejects with APIUserAbortError when the signal aborts mid-request', async () => {
    h.service.faults.add({ delayMs: 5000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await rejection(h.client().listIncidents(window, { signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    // Long before the answer (5 s): a margin no machine's load eats, while a missed abort waits it out.
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('rejects at once, sending nothing, with a signal already aborted', async () => {
    const before = h.calls.length;
    const error = await rejection(h.client().deleteSkill('skill_demo', { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(h.calls.length).toBe(before);
  });

  it('stops waiting between retries when aborted', async () => {
    h.service.faults.add({ status: 500, times: 3 });
    const controller = new AbortController();
    const before = h.calls.length;
    // The first attempt failed and the client logs the retry it is about to wait for: abort then,
    // right after it began the wait (a microtask later), whatever the machine's speed.
    const warnings: string[] = [];
    const warn = (message: string) => {
      warnings.push(message);
      if (/retry 1\/2 in \d+ ms/.test(message)) queueMicrotask(() => controller.abort());
    };
    const logger = { debug: () => {}, info: () => {}, warn, error: () => {} };
    const client = h.client({ maxRetries: 2, logLevel: 'warn', logger });
    expect(await rejection(client.listIncidents(window, { signal: controller.signal }))).toBeInstanceOf(
      APIUserAbortError,
    );
    expect(warnings).toHaveLength(1);
    expect(h.calls.length - before).toBe(1); // no second attempt: the wait was cut short
  });

  it('times out per attempt with the client or per-call timeout', async () => {
    h.service.faults.add({ delayMs: 400, times: 2 });
    expect(await rejection(h.client({ timeout: 100, maxRetries: 0 }).listIncidents(window))).toBeInstanceOf(
      APIConnectionTimeoutError,
    );
    const error = await rejection(h.client({ maxRetries: 0 }).listIncidents(window, { timeout: 80 }));
    expect((error as Error).message).toBe('Request timed out after 80 ms.');
  });

  it('the timeout covers a body that arrives too slowly, and closes its connection', async () => {
    const slow = await slowBodyServer();
    const client = slow.client({ timeout: 150 });
    const started = Date.now();
    expect(await rejection(client.enableA2AAgent('a2a_demo'))).toBeInstanceOf(APIConnectionTimeoutError);
    // Cancelled, not left to finish: the socket closes long before the body would have ended (5 s).
    await slow.closed;
    expect(Date.now() - started).toBeLessThan(2500);
    slow.stop();
  });

  it('an abort while the body streams in rejects at once and closes the connection', async () => {
    const slow = await slowBodyServer();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const error = await rejection(slow.client().enableA2AAgent('a2a_demo', { signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    await slow.closed;
    expect(Date.now() - started).toBeLessThan(2500);
    slow.stop();
  });
});

/** A server that sends its headers and the start of a body at once, then sits on the rest for 5 s. */
async function slowBodyServer() {
  const { createServer } = await import('node:http');
  let onClose: () => void = () => {};
  const closed = new Promise<void>((resolve) => (onClose = resolve));
  const server = createServer((_req, res) => {
    res.socket?.once('close', onClose);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{"request_id":"r","data":');
    setTimeout(() => res.end('null}'), 5000).unref();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    closed,
    client: (options: { timeout?: number } = {}) =>
      new Flashduty({
        appKey: 'k-1234',
        baseUrl: `http://127.0.0.1:${port}`,
        maxRetries: 0,
        logLevel: 'off',
        ...options,
      }),
    stop() {
      server.closeAllConnections();
      server.close();
    },
  };
}
