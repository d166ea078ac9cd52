// Which service and credential a command's client uses: the flags before the environment, an
// operation's own --token alone enough; no credential or two at once a usage error in the command
// line's words (not `new Flashduty()`'s); and a refused credential (401, 403) reported through main()
// against a mock on loopback with where it came from and the base URL asked, never its value.
import { afterAll, describe, expect, it } from 'vitest';
import { connectionFrom, refusalNote, shownUrl } from '../../../src/cli/connection.js';
import { UsageError } from '../../../src/cli/exit.js';
import { main } from '../../../src/cli/main.js';
import { createMockService } from '../../../src/testing/index.js';
import { recordingIo } from './support.js';

const env = { FLASHDUTY_APP_KEY: 'env-key', FLASHDUTY_ACCESS_TOKEN: 'env-token' };

function refusal(values: Record<string, unknown>, environment: Record<string, string>): string {
  try {
    connectionFrom(values, environment, 'members list');
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('not refused');
}

describe('connectionFrom', () => {
  it('takes the flags where they name a credential, and then reads no variable', () => {
    expect(connectionFrom({ 'app-key': 'flag-key' }, env, 'x')).toEqual({
      options: { appKey: 'flag-key' },
      source: 'the app key from --app-key',
      baseUrl: undefined,
    });
    expect(connectionFrom({ 'access-token': 'flag-token', 'base-url': 'http://b' }, env, 'x')).toEqual({
      options: { accessToken: 'flag-token', baseUrl: 'http://b' },
      source: 'the access token from --access-token',
      baseUrl: 'http://b',
    });
  });

  it('else the environment, an empty variable being unset', () => {
    expect(connectionFrom({}, { FLASHDUTY_APP_KEY: 'k', FLASHDUTY_BASE_URL: 'http://e' }, 'x')).toEqual({
      options: { appKey: 'k', baseUrl: 'http://e' },
      source: 'the app key from $FLASHDUTY_APP_KEY',
      baseUrl: 'http://e',
    });
    expect(connectionFrom({}, { FLASHDUTY_APP_KEY: '  ', FLASHDUTY_ACCESS_TOKEN: 't' }, 'x')).toMatchObject({
      options: { accessToken: 't' },
      source: 'the access token from $FLASHDUTY_ACCESS_TOKEN',
    });
  });

  it('an operation’s own --token: the source of a refusal, and the credential when there is no other', () => {
    expect(connectionFrom({ token: 'tok' }, {}, 'x')).toEqual({
      options: { accessToken: 'tok' },
      source: 'the token from --token',
      baseUrl: undefined,
    });
    expect(connectionFrom({ token: 'tok' }, { FLASHDUTY_APP_KEY: 'k' }, 'x')).toMatchObject({
      options: { appKey: 'k' },
      source: 'the token from --token',
    });
  });

  it('refuses no credential, two at once and an empty flag, in the command line’s words', () => {
    expect(refusal({}, {})).toBe(
      'no credential: set $FLASHDUTY_APP_KEY (or $FLASHDUTY_ACCESS_TOKEN), or pass --app-key',
    );
    expect(refusal({ 'app-key': 'k', 'access-token': 't' }, {})).toBe(
      '--app-key and --access-token are both given: a call sends one credential; give one',
    );
    expect(refusal({}, env)).toBe(
      '$FLASHDUTY_APP_KEY and $FLASHDUTY_ACCESS_TOKEN are both set: a call sends one credential; unset one, or name one with --app-key or --access-token',
    );
    expect(refusal({ 'app-key': ' ' }, {})).toBe('--app-key is empty');
  });
});

describe('refusalNote and shownUrl', () => {
  const connection = { options: {}, source: 'the app key from $FLASHDUTY_APP_KEY', baseUrl: undefined };

  it('explains a 401 and a 403 by the source and the base URL (the default where none is named); nothing else', () => {
    expect(refusalNote({ status: 401 }, connection, 'https://api.flashcat.cloud')).toBe(
      'The app key from $FLASHDUTY_APP_KEY was refused by https://api.flashcat.cloud.',
    );
    expect(refusalNote({ status: 403 }, { ...connection, baseUrl: 'http://127.0.0.1:4010/fd' }, 'x')).toBe(
      'The app key from $FLASHDUTY_APP_KEY was refused by http://127.0.0.1:4010/fd (it lacks a permission this call needs).',
    );
    for (const error of [{ status: 400 }, { status: 500 }, new Error('x'), null, 'text'])
      expect(refusalNote(error, connection, 'x')).toBeUndefined();
  });

  it('shows a URL without its user, password, query or fragment', () => {
    expect(shownUrl('https://user:pa55@api.example.com/fd/?app_key=k#x')).toBe('https://api.example.com/fd/');
    expect(shownUrl('http://127.0.0.1:4010/')).toBe('http://127.0.0.1:4010');
    expect(shownUrl('not a url')).toBe('(the base URL, which is not a URL)');
  });
});

const service = createMockService({ incidents: 5 });
const server = await service.listen();
afterAll(() => server.close());

describe('a refused credential, through main() against a mock on loopback', () => {
  async function run(argv: string[], environment: Record<string, string>) {
    const io = recordingIo();
    const code = await main(argv, io, environment);
    return { code, ...io.printed };
  }

  it('401: names the flag or variable it came from and the base URL, never the credential', async () => {
    const byVariable = await run(['members', 'list'], {
      FLASHDUTY_APP_KEY: 'fdk_wrong_key_value',
      FLASHDUTY_BASE_URL: server.url,
    });
    expect(byVariable.code).toBe(1);
    expect(byVariable.err).toMatch(
      new RegExp(
        `^flashduty: UnauthorizedError \\(Unauthorized\\): .* The app key from \\$FLASHDUTY_APP_KEY was refused by ${server.url}\\.\\n$`,
      ),
    );
    const byFlag = await run(
      ['members', 'list', '--access-token', 'fdt_wrong_token_value', '--base-url', server.url],
      {},
    );
    expect(byFlag.err).toMatch(/ The access token from --access-token was refused by http:\/\/127\.0\.0\.1:\d+\.\n$/);
    for (const output of [byVariable.err, byVariable.out, byFlag.err, byFlag.out]) {
      expect(output).not.toContain('fdk_wrong_key_value');
      expect(output).not.toContain('fdt_wrong_token_value');
    }
  });

  it('403: a key without the permission, named by its source', async () => {
    const denied = await run(
      ['incidents', 'list', '--app-key', service.keys.noPermission, '--base-url', server.url],
      {},
    );
    expect(denied.code).toBe(1);
    expect(denied.err).toMatch(
      /^flashduty: AccessDeniedError \(AccessDenied\): .* The app key from --app-key was refused by http:\/\/127\.0\.0\.1:\d+ \(it lacks a permission this call needs\)\.\n$/,
    );
    expect(denied.err).not.toContain(service.keys.noPermission);
  });

  it('no credential at all: exit 2, in the command line’s words, nothing sent', async () => {
    const before = service.callLog.length;
    const none = await run(['members', 'list', '--base-url', server.url], {});
    expect(none).toEqual({
      code: 2,
      out: '',
      err: 'flashduty: no credential: set $FLASHDUTY_APP_KEY (or $FLASHDUTY_ACCESS_TOKEN), or pass --app-key (see flashduty members list --help)\n',
    });
    expect(service.callLog.length).toBe(before);
  });
});
