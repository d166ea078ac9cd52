// The client's options, checked when the client is built (src/client/client-options.ts), each
// refusal a ConfigError naming the option, never a credential's value: one credential, from the
// options or else the environment; a base URL without query or fragment; timeouts, counts and
// validation modes; hooks; the limiter's limits and the shared limiter's Redis options (a good Redis
// client is not used before the first call; the limiter itself, with a real redis-server:
// test/integration/client/shared-limiter.test.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, Flashduty, type ClientOptions, type RateLimitOptions } from '../../../src/index.js';
import { checkBaseUrl, checkCredential } from '../../../src/client/client-options.js';

const build = (rateLimit: RateLimitOptions) => () => new Flashduty({ appKey: 'k-1234', logLevel: 'off', rateLimit });
const ioredisShaped = { call: async () => 0 };
const nodeRedisShaped = { sendCommand: async () => 0 };

describe('rateLimit with redis', () => {
  it.each<[string, RateLimitOptions, RegExp]>([
    ['an empty object', { redis: {} as never }, /^rateLimit\.redis must be an ioredis or node-redis client$/],
    ['null', { redis: null as never }, /^rateLimit\.redis must be an ioredis or node-redis client$/],
    ['a URL string', { redis: 'redis://localhost' as never }, /^rateLimit\.redis must be an ioredis/],
    [
      'an empty keyPrefix',
      { redis: ioredisShaped, keyPrefix: '' },
      /^rateLimit\.keyPrefix: expected a non-empty string/,
    ],
    ['a keyPrefix not a string', { redis: ioredisShaped, keyPrefix: 7 as never }, /^rateLimit\.keyPrefix/],
    [
      'redisTimeoutMs 0',
      { redis: nodeRedisShaped, redisTimeoutMs: 0 },
      /^rateLimit\.redisTimeoutMs: expected a positive/,
    ],
    ['redisTimeoutMs NaN', { redis: nodeRedisShaped, redisTimeoutMs: Number.NaN }, /^rateLimit\.redisTimeoutMs/],
    ['perSecond 0 with redis', { redis: ioredisShaped, perSecond: 0 }, /rateLimit/],
  ])('refuses %s with a ConfigError', (_, options, message) => {
    expect(build(options)).toThrow(ConfigError);
    expect(build(options)).toThrow(message);
  });

  it('takes an ioredis- or node-redis-shaped client without sending anything until the first call', () => {
    let sent = 0;
    const count = async () => void sent++;
    expect(build({ redis: { call: count } })).not.toThrow();
    expect(build({ redis: { sendCommand: count }, keyPrefix: 'acct:', redisTimeoutMs: 50 })).not.toThrow();
    expect(sent).toBe(0);
  });
});

afterEach(() => {
  vi.unstubAllEnvs();
});

const make = (options: ClientOptions) => () => new Flashduty({ logLevel: 'off', ...options });

describe('the credential', () => {
  it('is the option given, else the environment’s, trimmed', () => {
    vi.stubEnv('FLASHDUTY_ACCESS_TOKEN', 'env-token');
    expect(checkCredential({ appKey: ' key ' })).toEqual({ option: 'appKey', value: 'key' });
    expect(checkCredential({})).toEqual({ option: 'accessToken', value: 'env-token' });
    expect(() => checkCredential({}, false)).toThrow(/^No credential/);
  });

  it.each<[string, ClientOptions, RegExp]>([
    [
      'both options',
      { appKey: 'secret-a', accessToken: 'secret-b' },
      /^Both appKey \(the option `appKey`\) and accessToken/,
    ],
    ['an empty key', { appKey: ' ' }, /^appKey is empty \(the option `appKey`\)/],
    ['a token no header can carry', { accessToken: 'two words' }, /^accessToken: only visible ASCII/],
    ['a key no URL can carry', { appKey: 'a\ud800b' }, /^appKey: contains a lone UTF-16 surrogate/],
  ])('refuses %s, naming options, never values', (_, options, message) => {
    expect(make(options)).toThrow(message);
    expect(make(options)).not.toThrow(/secret-|two words/);
  });

  it('refuses both variables of the environment alike', () => {
    vi.stubEnv('FLASHDUTY_APP_KEY', 'k');
    vi.stubEnv('FLASHDUTY_ACCESS_TOKEN', 't');
    expect(() => new Flashduty()).toThrow(
      /^Both appKey \(FLASHDUTY_APP_KEY\) and accessToken \(FLASHDUTY_ACCESS_TOKEN\)/,
    );
  });
});

describe('the other options', () => {
  it('keep a base URL without its trailing slashes, and refuse one with a query, a fragment or another scheme', () => {
    expect(checkBaseUrl('https://api.example.com/v1//')).toBe('https://api.example.com/v1');
    for (const url of ['https://x/?a=1', 'https://x/#f', 'ftp://x', 'not a url']) {
      expect(() => checkBaseUrl(url), url).toThrow(ConfigError);
    }
  });

  it.each<[string, ClientOptions, RegExp]>([
    ['a timeout of 0', { timeout: 0 }, /^timeout: expected a positive number of milliseconds/],
    ['a timeout past what timers hold', { timeout: 2 ** 31 }, /^timeout:/],
    ['fractional retries', { maxRetries: 1.5 }, /^maxRetries: expected a whole number ≥ 0/],
    ['maxResponseBytes 0', { maxResponseBytes: 0 }, /^maxResponseBytes: expected a whole number ≥ 1/],
    ['an unknown validation mode', { validate: 'strict' as never }, /^validate: expected 'envelope', 'deep' or false/],
    ['an unknown log level', { logLevel: 'loud' as never }, /^logLevel: unknown level "loud"/],
    ['hooks that are no functions', { hooks: { beforeRequest: ['x' as never] } }, /^hooks:/],
    ['a limit of 0 calls', { rateLimit: { perSecond: 0 } }, /^rateLimit\.perSecond: expected a positive whole number/],
    ['a limiter that is no object', { rateLimit: 5 as never }, /^rateLimit: expected an object or false/],
  ])('refuse %s', (_, options, message) => {
    expect(make({ appKey: 'k', ...options })).toThrow(message);
  });

  it.each<[string, string]>([
    ['baseURL', 'baseURL: not an option of Flashduty (did you mean baseUrl?)'],
    ['apiKey', 'apiKey: not an option of Flashduty (did you mean appKey?)'],
    ['maxRetires', 'maxRetires: not an option of Flashduty (did you mean maxRetries?)'],
    ['region', 'region: not an option of Flashduty'],
  ])('refuse %s, which is no option of the client (it would be ignored)', (name, message) => {
    expect(make({ appKey: 'k', [name]: 'https://api.example.com' })).toThrow(new ConfigError(message));
  });

  it('take every option of ClientOptions by its name, a value of undefined too', () => {
    expect(make({ appKey: 'k', timeout: undefined, hooks: {}, dangerouslyAllowBrowser: false })().timeout).toBe(30_000);
  });

  it('take validate: true as envelope', () => {
    expect(make({ appKey: 'k', validate: true })().validate).toBe('envelope');
  });
});
