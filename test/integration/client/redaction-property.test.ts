// Property: whatever the key (unicode, `+/%&<>`, spaces, quotes) and wherever and however a server
// echoes it (error message, body, headers, a non-JSON excerpt; raw, percent-encoded in either case,
// form-encoded, JSON- or HTML-escaped), no rendering of the error shows it.
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { APIError, Flashduty, FlashdutyError } from '../../../src/index.js';
import { rejection, standIn } from '../../helpers.js';

type Position = 'message' | 'body' | 'headers' | 'excerpt';

/** The forms a server may echo the key in. */
function echoForms(key: string): Record<string, string> {
  const upper = encodeURIComponent(key);
  return {
    raw: key,
    percent: upper,
    percentLower: upper.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    form: new URLSearchParams({ k: key }).toString().slice(2),
    encodeURI: encodeURI(key),
    json: JSON.stringify(key).slice(1, -1),
    jsonAscii: JSON.stringify(key)
      .slice(1, -1)
      .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    html: key.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
    latin1: Buffer.from(key, 'utf8').toString('latin1'),
  };
}

let echo: { position: Position; text: string; pad: number } = { position: 'message', text: '', pad: 0 };
const server = await standIn((req, res) => {
  req.resume();
  const { position, text, pad } = echo;
  const filler = 'x'.repeat(pad);
  if (position === 'excerpt') {
    res.writeHead(502, { 'Content-Type': 'text/html' });
    return res.end(`<html>${filler}upstream said: ${text} and more text after it</html>`);
  }
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Service-Request-Id': 'r1' };
  if (position === 'headers') {
    headers['X-Debug'] = `${filler}token=${text}`;
    headers.Location = `/next?key=${text}`;
  }
  const envelope = {
    request_id: 'r1',
    error: { code: 'InvalidParameter', message: position === 'message' ? `${filler}bad key ${text}` : 'bad request' },
    ...(position === 'body' ? { data: { echo: `${filler}${text}`, nested: [{ url: `/x?k=${text}` }] } } : {}),
  };
  res.writeHead(400, headers);
  res.end(JSON.stringify(envelope));
});

/** Every way a user could look at an error. */
function renderings(error: FlashdutyError): string[] {
  const out = [
    String(error),
    error.stack ?? '',
    JSON.stringify(error),
    inspect(error, { depth: 10, showHidden: true }),
  ];
  if (error instanceof APIError) {
    out.push(
      JSON.stringify(error.body) ?? '',
      String(error.body),
      JSON.stringify([...error.headers]),
      inspect(error.headers),
    );
  }
  return out;
}

const keyChar = fc.oneof(
  fc.constantFrom(...'+/%&<> "\'\\=?#;'),
  fc.constantFrom(...'abcdefXYZ0123456789_-.~'),
  fc
    .integer({ min: 0xa0, max: 0x10ffff })
    .filter((c) => c < 0xd800 || c > 0xdfff)
    .map((c) => String.fromCodePoint(c)),
);
const key = fc
  .array(keyChar, { minLength: 8, maxLength: 40 })
  .map((chars) => chars.join(''))
  .filter((k) => k.trim() === k);

describe('the app_key never shows, whatever its characters and its echo', () => {
  it('in no message, body, header, excerpt, JSON or inspect output', async () => {
    await fc.assert(
      fc.asyncProperty(
        key,
        fc.constantFrom<Position>('message', 'body', 'headers', 'excerpt'),
        fc.constantFrom(...Object.keys(echoForms('k'))),
        fc.integer({ min: 0, max: 260 }),
        async (appKey, position, form, pad) => {
          const forms = echoForms(appKey);
          let text = forms[form] as string;
          // A header carries Latin-1 only: a raw non-ASCII key arrives as its UTF-8 bytes read as Latin-1.
          if (position === 'headers' && /[^\x20-\x7e]/.test(text)) text = forms.latin1 as string;
          echo = { position, text, pad };
          const client = new Flashduty({
            appKey,
            baseUrl: server.url,
            maxRetries: 0,
            rateLimit: false,
            logLevel: 'off',
          });
          const error = await rejection(client.deleteSkill('skill_1'));
          expect(error).toBeInstanceOf(APIError);
          const all = renderings(error as APIError).join('\n');
          for (const [name, leaked] of Object.entries(forms)) {
            if (all.includes(leaked))
              throw new Error(`the ${name} form of the key shows (echoed ${form} in ${position})`);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('is a FlashdutyError at construction when the key cannot be URL-encoded', () => {
    expect(() => new Flashduty({ appKey: 'abc\ud800def', baseUrl: server.url })).toThrow(FlashdutyError);
    expect(() => new Flashduty({ appKey: 'abc\ud800def', baseUrl: server.url })).toThrow(/cannot be sent in a URL/);
  });

  it('keeps an excerpt readable: the key at character 190 is masked whole, the rest stays', async () => {
    const appKey = 'fdk_0123456789abcdef';
    echo = { position: 'excerpt', text: appKey, pad: 170 };
    const client = new Flashduty({ appKey, baseUrl: server.url, maxRetries: 0, rateLimit: false, logLevel: 'off' });
    const error = (await rejection(client.deleteSkill('skill_1'))) as APIError;
    expect(error.message).toContain('upstream said: ***');
    expect(error.message).not.toContain('fdk_0');
    expect(error.status).toBe(502);
  });
});
