// The client itself (src/client/client.ts), without a socket: the environment's defaults; a browser
// page refused without dangerouslyAllowBrowser; a view of it that never holds its credential;
// withOptions() keeping every option not given and replacing the credential only when one is given.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inspect } from 'node:util';
import { ConfigError, DEFAULT_BASE_URL, Flashduty } from '../../../src/index.js';
import { memoryClient, ok } from '../../support/responder.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('Flashduty', () => {
  it('takes its key, base URL and log level from the environment where the options say none', () => {
    vi.stubEnv('FLASHDUTY_APP_KEY', 'env-key');
    vi.stubEnv('FLASHDUTY_BASE_URL', 'https://eu.example.test/');
    const client = new Flashduty();
    expect([client.baseUrl, client.timeout, client.maxRetries, client.validate]).toEqual([
      'https://eu.example.test',
      30_000,
      2,
      'envelope',
    ]);
    vi.stubEnv('FLASHDUTY_BASE_URL', '');
    expect(new Flashduty({ appKey: 'k' }).baseUrl).toBe(DEFAULT_BASE_URL);
  });

  it('refuses to run in a browser page unless allowed', () => {
    vi.stubGlobal('window', { document: {} });
    vi.stubGlobal('document', {});
    vi.stubGlobal('navigator', {});
    expect(() => new Flashduty({ appKey: 'k' })).toThrow(ConfigError);
    expect(() => new Flashduty({ appKey: 'k', dangerouslyAllowBrowser: true })).not.toThrow();
  });

  it('shows itself without its credential', () => {
    const client = new Flashduty({ appKey: 'secret-key', baseUrl: 'https://api.test' });
    expect(client.toJSON()).toEqual({ baseUrl: 'https://api.test', appKey: '***', timeout: 30_000, maxRetries: 2 });
    expect(inspect(client)).toBe("Flashduty { baseUrl: 'https://api.test', appKey: '***' }");
    expect(JSON.stringify(client) + inspect(client, { depth: 5 })).not.toContain('secret-key');
  });
});

describe('withOptions', () => {
  it('keeps every option not given, and the original client unchanged', async () => {
    const { client, sent } = memoryClient(() => ok({}), { headers: { 'X-Team': 'a' } });
    const patient = client.withOptions({ timeout: 5_000 });
    expect([patient.timeout, client.timeout, patient.baseUrl]).toEqual([5_000, 30_000, client.baseUrl]);
    await patient.incidents.info({ num: '1' });
    expect([sent[0]?.headers.get('x-team'), sent[0]?.url.searchParams.get('app_key')]).toEqual(['a', 'test-app-key']);
  });

  it('replaces the credential only with one given, never with the environment’s', async () => {
    vi.stubEnv('FLASHDUTY_APP_KEY', 'env-key');
    const { client, sent } = memoryClient(() => ok({}));
    await client.withOptions({ accessToken: 'token-2' }).incidents.info({ num: '1' });
    await client.withOptions({ maxRetries: 0 }).incidents.info({ num: '1' });
    expect(sent.map((s) => [s.url.searchParams.get('app_key'), s.headers.get('authorization')])).toEqual([
      [null, 'Bearer token-2'],
      ['test-app-key', null],
    ]);
  });
});
