// client.withOptions(): a new client with the options given changed and every other kept, the
// original unchanged; one rate limiter for both when they call the same service with the same
// credential (the service counts calls per account), a limiter of its own otherwise. Against the mock
// over HTTP; waits are observed by which calls reached the service, never by time.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIUserAbortError, ConfigError, Flashduty } from '../../../src/index.js';
import { DAY, NOW, rejection, startMock } from '../../helpers.js';

const h = await startMock({ incidents: 10, rateLimits: false });
afterEach(() => vi.unstubAllEnvs());
const window = { start_time: NOW - DAY, end_time: NOW, limit: 1 };

describe('client.withOptions()', () => {
  it('changes what it is given and keeps the rest; the original is unchanged', async () => {
    const original = h.client({ timeout: 9_000, maxRetries: 1, acceptLanguage: 'zh-CN', headers: { 'X-Team': 'db' } });
    const patient = original.withOptions({ timeout: 5_000, maxRetries: 4 });
    expect([patient.timeout, patient.maxRetries, patient.baseUrl]).toEqual([5_000, 4, original.baseUrl]);
    expect([original.timeout, original.maxRetries]).toEqual([9_000, 1]);
    const before = h.calls.length;
    await patient.listIncidents(window);
    const sent = h.calls[before]!;
    // Kept: the credential, the headers, the language, the fetch of the original (it recorded this call).
    expect(new URL(sent.url).searchParams.get('app_key')).toBe(h.service.appKey);
    expect(sent.headers.get('x-team')).toBe('db');
    expect(sent.headers.get('accept-language')).toBe('zh-CN');
  });

  it('a credential given replaces the other, and the environment cannot bring it back', async () => {
    vi.stubEnv('FLASHDUTY_APP_KEY', h.service.appKey);
    const original = h.client();
    const byToken = original.withOptions({ accessToken: h.service.accessToken });
    const before = h.calls.length;
    await byToken.listIncidents(window);
    expect(h.calls[before]?.headers.get('authorization')).toBe(`Bearer ${h.service.accessToken}`);
    expect(new URL(h.calls[before]!.url).searchParams.has('app_key')).toBe(false);
    expect(() => original.withOptions({ appKey: 'k', accessToken: 't' })).toThrow(ConfigError);
    expect(() => original.withOptions({ timeout: -1 })).toThrow(ConfigError);
  });

  it('shares the rate limiter with the original when the base URL and credential are the same', async () => {
    const original = h.client({ rateLimit: { perSecond: 50, perMinute: 2 } });
    const derived = original.withOptions({ timeout: 5_000, maxRetries: 0 });
    const elsewhere = original.withOptions({ baseUrl: `${h.server.url}/` }); // the same service, written otherwise
    const before = h.calls.length;
    await original.listIncidents(window);
    await derived.listIncidents(window);
    // The minute's two slots are spent by the two clients together: a third call waits.
    const stop = new AbortController();
    const waiting = rejection(derived.listIncidents(window, { signal: stop.signal }));
    // A client with a budget of its own is not held: its call goes out (another credential).
    await original.withOptions({ accessToken: h.service.accessToken }).listIncidents(window);
    await original.withOptions({ rateLimit: false }).listIncidents(window); // its own limits
    expect(h.calls.length - before).toBe(4);
    stop.abort();
    expect(await waiting).toBeInstanceOf(APIUserAbortError);
    const heldToo = new AbortController();
    const also = rejection(elsewhere.listIncidents(window, { signal: heldToo.signal }));
    await h.client().listIncidents(window); // a client of its own: sent at once
    heldToo.abort();
    expect(await also).toBeInstanceOf(APIUserAbortError);
    expect(h.calls.length - before).toBe(5); // the held calls never reached the service
  });

  it('is a Flashduty with every method', () => {
    const derived = h.client().withOptions({ timeout: 1_000 });
    expect(derived).toBeInstanceOf(Flashduty);
    expect(typeof derived.automations.triggers.fire).toBe('function');
    expect(typeof derived.listIncidents).toBe('function');
  });
});
