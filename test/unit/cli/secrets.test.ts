// No value of --header, --app-key, --access-token or --token is ever printed: command lines that go
// wrong every way there is (usage errors of each kind, a refused call, a delivery that fails), run
// through main(), print none of them on stdout or stderr; and the second guard, stderr's mask, hides
// them whoever wrote the line.
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { maskingStderr, secretsOf } from '../../../src/cli/secrets.js';
import { recordingIo } from './support.js';

const SECRET = 's3cretValue';

/** Command lines that fail in every way main() can report, each carrying secrets in its flags. */
const LINES: Array<{ why: string; argv: string[] }> = [
  {
    why: 'a header without its colon',
    argv: ['webhooks', 'trigger', 'i_new', '--to', 'http://r', '--header', `X-Token ${SECRET}`],
  },
  {
    why: 'a header with a bad name',
    argv: ['webhooks', 'trigger', 'i_new', '--to', 'http://r', '--header', `Bad Name: ${SECRET}`],
  },
  { why: 'only a value as a header', argv: ['webhooks', 'trigger', 'i_new', '--to', 'http://r', '--header', SECRET] },
  {
    why: 'a header value with a line break',
    argv: ['webhooks', 'trigger', 'i_new', '--to', 'http://r', '--header', `X-Token: ${SECRET}\nX-Admin: 1`],
  },
  {
    why: 'a count out of range',
    argv: ['webhooks', 'trigger', 'i_new', '--to', 'http://r', '--header', `X-Token: ${SECRET}`, '--duplicate', '-1'],
  },
  { why: 'an unknown flag', argv: ['members', 'list', `--app-key=${SECRET}`, '--jsn'] },
  { why: 'an unknown command', argv: ['membres', 'list', '--app-key', SECRET] },
  { why: 'a credential flag without its value', argv: ['members', 'list', '--access-token', '--json'] },
  {
    why: 'a credential that starts with a dash',
    argv: ['members', 'list', '--app-key', `-${SECRET}`, '--access-token', SECRET],
  },
  { why: 'a malformed duration', argv: ['incidents', 'list', '--app-key', SECRET, '--since', 'soon'] },
  { why: 'an argument too many', argv: ['members', 'list', '--app-key', SECRET, 'extra'] },
  { why: 'a trigger without its id', argv: ['automations', 'triggers', 'fire', '--token', SECRET] },
  {
    why: 'a service that does not answer',
    argv: ['api', '/incident/list', '--app-key', SECRET, '--base-url', 'http://127.0.0.1:1'],
  },
  {
    why: 'a base URL with a password',
    argv: ['members', 'list', '--app-key', 'fdk_k3y_value', '--base-url', `http://user:${SECRET}@127.0.0.1:1`],
  },
  {
    why: 'no mock at --via',
    argv: [
      'webhooks',
      'trigger',
      'i_new',
      '--to',
      'http://r',
      '--header',
      `X-Token: ${SECRET}`,
      '--via',
      'http://127.0.0.1:1',
    ],
  },
  {
    why: 'a receiver that does not answer',
    argv: ['webhooks', 'trigger', 'i_new', '--to', 'http://127.0.0.1:1/', '--header', `X-Token: ${SECRET}`],
  },
];

describe('no secret of the flags is printed', () => {
  it.each(LINES.map(({ why, argv }) => [why, argv]))(
    '%s',
    async (_why, argv) => {
      const io = recordingIo();
      const code = await main(argv, io, { FLASHDUTY_LOG: 'error' });
      expect(code).toBeGreaterThan(0);
      expect(io.printed.out + io.printed.err).not.toBe('');
      expect(io.printed.out + io.printed.err).not.toContain(SECRET);
    },
    20_000,
  );

  it('nor one of the environment', async () => {
    const io = recordingIo();
    const env = { FLASHDUTY_APP_KEY: SECRET, FLASHDUTY_BASE_URL: 'http://127.0.0.1:1' };
    expect(await main(['members', 'list'], io, env)).toBe(1);
    expect(io.printed.err).toMatch(/^flashduty: APIConnectionError/);
    expect(io.printed.err).not.toContain(SECRET);
  });
});

describe('stderr’s mask', () => {
  it('takes the values of the secret flags (a header’s value and its whole text), a base URL’s password and the environment’s credentials', () => {
    expect(
      secretsOf(
        [
          '--app-key',
          'key-1',
          '--access-token=token-2',
          '--token',
          'tok3',
          '--header',
          'X-Token: val4',
          '--to',
          'http://x',
        ],
        { FLASHDUTY_APP_KEY: ' env5 ', FLASHDUTY_ACCESS_TOKEN: '', FLASHDUTY_BASE_URL: 'http://base' },
      ),
    ).toEqual(['X-Token: val4', 'token-2', 'key-1', 'tok3', 'val4', 'env5']);
    expect(secretsOf(['--base-url=http://u:pass6@h'], { FLASHDUTY_BASE_URL: 'https://v:word7@h' })).toEqual([
      'pass6',
      'word7',
    ]);
    // Values too short to mask without hiding the message are left.
    expect(secretsOf(['--app-key', 'k'], {})).toEqual([]);
  });

  it('masks them on stderr, whoever wrote the line, and leaves stdout (the results) whole', () => {
    const io = recordingIo();
    const masked = maskingStderr(io, secretsOf(['--header', `X-Token: ${SECRET}`], {}));
    masked.err(`TypeError: "${SECRET}" is an invalid header value\n`);
    masked.out(`{"token":"${SECRET}"}\n`);
    expect(io.printed).toEqual({
      err: 'TypeError: "***" is an invalid header value\n',
      out: `{"token":"${SECRET}"}\n`,
    });
  });
});
