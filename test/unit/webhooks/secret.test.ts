// The secret header: compared as UTF-8 bytes, whether the header came over HTTP (each byte one
// Latin-1 character, as Node and `Headers` give it) or as text through receive(); rotation.
import { describe, expect, it } from 'vitest';
import { checkSecretOptions, secretMatches } from '../../../src/webhooks/secret.js';

const secret = checkSecretOptions({ header: 'X-Token', values: ['pässwörd-ü', 'next-密码'] }) as NonNullable<
  ReturnType<typeof checkSecretOptions>
>;
/** What a header's UTF-8 bytes read as over HTTP. */
const overHttp = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('secretMatches', () => {
  it('takes every configured value, as text and as the bytes HTTP carries', () => {
    for (const value of ['pässwörd-ü', 'next-密码']) {
      expect(secretMatches(secret, value)).toBe(true);
      expect(secretMatches(secret, overHttp(value))).toBe(true);
    }
  });

  it('refuses anything else: near misses, the other encoding of a near miss, nothing', () => {
    for (const value of ['pässwörd-u', 'passwörd-ü', 'pässwörd-ü ', '', 'next-密']) {
      expect(secretMatches(secret, value)).toBe(false);
      expect(secretMatches(secret, overHttp(value))).toBe(false);
    }
    expect(secretMatches(secret, undefined)).toBe(false);
  });

  it('refuses options it cannot check', () => {
    expect(() => checkSecretOptions({ header: ' ', values: ['x'] })).toThrow(/secret.header/);
    expect(() => checkSecretOptions({ header: 'x', values: [] })).toThrow(/secret.values/);
    expect(() => checkSecretOptions({ header: 'x', values: [''] })).toThrow(/secret.values/);
  });
});
