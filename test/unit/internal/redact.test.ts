// Redaction (src/internal/redact.ts): `app_key=` parameters and the secrets themselves, in every
// form an echo may quote them (percent-encoded once or twice, either case, `+` for a space,
// JSON-escaped, HTML-escaped, UTF-8 read as Latin-1), the longest secret first; JSON scrubbed deep,
// keys too; headers' names and values.
import { describe, expect, it } from 'vitest';
import { createRedactor, redact, scrubDeep, scrubHeaders } from '../../../src/internal/redact.js';

const key = 'k/y+é 1';
const scrub = createRedactor(key);

describe('createRedactor', () => {
  it('masks app_key parameters whatever their value', () => {
    expect(redact('GET /x?a=1&app_key=anything&b=2 and APP_KEY=other')).toBe(
      'GET /x?a=1&app_key=***&b=2 and APP_KEY=***',
    );
  });

  it.each([
    ['raw', key],
    ['percent-encoded', encodeURIComponent(key)],
    ['percent-encoded in lower case', encodeURIComponent(key).toLowerCase()],
    ['percent-encoded twice', encodeURIComponent(encodeURIComponent(key))],
    ['with + for the space', encodeURIComponent(key).replace('%20', '+')],
    ['JSON-escaped', JSON.stringify(key).slice(1, -1).replace('/', '\\/').replace('é', '\\u00e9')],
    ['HTML-escaped', 'k&#47;y&#x2b;&eacute; 1'.replace('&eacute;', 'é')],
    ['as UTF-8 read as Latin-1', Buffer.from(key, 'utf8').toString('latin1')],
  ])('masks the secret %s', (_, form) => {
    expect(scrub(`before ${form} after`)).toBe('before *** after');
  });

  it("masks a password in a URL's user information, and leaves the user and a URL without one as they are", () => {
    const scrub = createRedactor();
    expect(scrub('connect ECONNREFUSED http://ops:hunter2@proxy.internal:8080/incident/list')).toBe(
      'connect ECONNREFUSED http://ops:***@proxy.internal:8080/incident/list',
    );
    expect(scrub('https://ops@api.flashcat.cloud/x and https://api.flashcat.cloud:443/y')).toBe(
      'https://ops@api.flashcat.cloud/x and https://api.flashcat.cloud:443/y',
    );
    expect(scrub('"https://a:p%40ss@h/"')).toBe('"https://a:***@h/"');
  });

  it('masks the longer of two secrets whole, and leaves texts without them as they are', () => {
    const both = createRedactor(['abc', 'abcdef']);
    expect(both('x abcdef y abc')).toBe('x *** y ***');
    expect(createRedactor([])('plain text')).toBe('plain text');
  });
});

describe('scrubbing structures', () => {
  it('scrubs every string of parsed JSON, keys included, as a copy', () => {
    const body = { [key]: [key, { nested: `a ${key}` }], n: 1, none: null };
    expect(scrubDeep(body, scrub)).toEqual({ '***': ['***', { nested: 'a ***' }], n: 1, none: null });
    expect(body.n).toBe(1);
  });

  it('scrubs headers’ names and values', () => {
    const headers = scrubHeaders(new Headers({ Location: `/x?app_key=${encodeURIComponent(key)}` }), scrub);
    expect(headers.get('location')).toBe('/x?app_key=***');
  });
});
