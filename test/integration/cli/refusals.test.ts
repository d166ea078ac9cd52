// What the real bin refuses, and how it says so, as a user meets it in a shell: no secret of the
// flags printed (the header without its colon of #40 included); every count outside its range exit
// 2 at once, naming the flag and the range, with nothing sent (`--duplicate 1000000` ran 25 s); a
// header value HTTP cannot send, exit 2; a refused credential named by where it came from and the
// base URL asked; a path the service does not know answered with the nearest known one; and a
// feed's times shown as times.
import { describe, expect, it } from 'vitest';
import { flashduty, lines, serve, startMockProcess } from './support.js';

const mock = await startMockProcess(['--incidents', '20']);
const env = { FLASHDUTY_BASE_URL: mock.baseUrl, FLASHDUTY_APP_KEY: mock.appKey };
/** A receiver that counts what reaches it: a refusal sends it nothing. */
const counter = await serve((_req, res) => res.end('{"outcome":"accepted"}'));
const SECRET = 's3cretValue';

describe('refused before anything is sent: exit 2, one line, the fix in it', () => {
  it('a header without its colon, a bad name or a value with a line break: no value printed', async () => {
    for (const [header, line] of [
      [`X-Token ${SECRET}`, /^flashduty: --header: expected 'Name: value', an HTTP header name and a colon/],
      [`X Token: ${SECRET}`, /^flashduty: --header: expected 'Name: value'/],
      [
        `X-Token: ${SECRET}\nX-Admin: 1`,
        /^flashduty: --header X-Token: its value has a line break .*give it on one line/,
      ],
    ] as const) {
      const run = await flashduty(['webhooks', 'trigger', 'i_new', '--to', counter.url, '--header', header]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(line);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stdout + run.stderr).not.toContain(SECRET);
    }
    expect(counter.requests).toHaveLength(0);
  });

  it('every count outside its range, naming the flag and the range, at once', async () => {
    for (const [args, message] of [
      [
        ['webhooks', 'trigger', 'i_new', '--to', counter.url, '--duplicate', '1000000'],
        '--duplicate: expected a whole number from 1 to 10, got "1000000"',
      ],
      [
        ['webhooks', 'trigger', 'i_new', '--to', counter.url, '--duplicate', '-1'],
        '--duplicate: expected a whole number from 1 to 10, got "-1"',
      ],
      [
        ['webhooks', 'trigger', 'i_new', '--to', counter.url, '--count', '101'],
        '--count: expected a whole number from 1 to 100, got "101"',
      ],
      [['mock', '--incidents', '1000000'], '--incidents: expected a whole number from 0 to 10000, got "1000000"'],
      [['mock', '--port', '65536'], '--port: expected a whole number from 0 to 65535, got "65536"'],
      [
        ['webhooks', 'listen', '--integration', '1', '--to', counter.url, '--interval', '100ms'],
        '--interval: expected a duration from 1s to 5m (such as 5s or 1m), got "100ms"',
      ],
      [
        ['webhooks', 'listen', '--integration', '1', '--to', counter.url, '--since', '30d'],
        '--since: the history reaches back 7d: give a time within it, such as 10m or 2h',
      ],
    ] as const) {
      const run = await flashduty([...args], env, { timeoutMs: 10_000 });
      expect([run.code, run.stderr], args.join(' ')).toEqual([
        2,
        expect.stringContaining(`flashduty: ${message} (see flashduty `),
      ]);
    }
    expect(counter.requests).toHaveLength(0);
  });
});

describe('what the service refuses, explained', () => {
  it('a refused credential: where it came from and the base URL asked, never the credential', async () => {
    const fromEnv = await flashduty(['members', 'list'], { ...env, FLASHDUTY_APP_KEY: `fdk_${SECRET}` });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toMatch(
      new RegExp(
        `^flashduty: UnauthorizedError \\(Unauthorized\\): .* The app key from \\$FLASHDUTY_APP_KEY was refused by ${mock.baseUrl}\\.\\n$`,
      ),
    );
    const fromFlag = await flashduty(['members', 'list', '--access-token', `fdt_${SECRET}`], {
      FLASHDUTY_BASE_URL: mock.baseUrl,
    });
    expect(fromFlag.stderr).toMatch(
      / The access token from --access-token was refused by http:\/\/127\.0\.0\.1:\d+\.\n$/,
    );
    for (const run of [fromEnv, fromFlag]) expect(run.stdout + run.stderr).not.toContain(SECRET);
    // No credential at all: the command line's words, not the client's.
    const none = await flashduty(['members', 'list'], { FLASHDUTY_BASE_URL: mock.baseUrl });
    expect([none.code, none.stderr]).toEqual([
      2,
      expect.stringMatching(/^flashduty: no credential: set \$FLASHDUTY_APP_KEY/),
    ]);
    expect(none.stderr).not.toContain('new Flashduty()');
  });

  it('api PATH the service does not know: RouteNotFound, with the nearest path of the manifest', async () => {
    const run = await flashduty(['api', '/incident/lst'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^flashduty: RouteNotFoundError \(RouteNotFound\): .* Did you mean \/incident\/list\?\n$/,
    );
  });
});

describe('times as times', () => {
  it('incidents feed: CREATED_AT as a date for people, the milliseconds kept with --json', async () => {
    const [incident] = lines(await flashduty(['incidents', 'list', '--since', '30d', '--json'], env));
    const data = JSON.stringify({ incident_id: incident?.incident_id });
    const table = await flashduty(['incidents', 'feed', '--data', data], env);
    expect(table.code, table.stderr).toBe(0);
    const [header, first] = table.stdout.split('\n');
    expect(header).toMatch(/CREATED_AT/);
    expect(first).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    expect(first).not.toMatch(/\d{13}/);
    const [row] = lines(await flashduty(['incidents', 'feed', '--data', data, '--json'], env));
    expect(row?.created_at).toEqual(expect.any(Number));
  });
});
