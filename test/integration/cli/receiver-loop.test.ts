// The command line for the loop of developing against the service and a receiver, through the real
// bin: `help`, the access token and an operation's own token, values checked before sending (exit 2,
// nothing sent), and webhook deliveries for trying a real WebhookReceiver's dedup (`--duplicate`) and
// staleness (`--reorder`), each reported with the receiver's outcome, made inside a running
// `flashduty mock` (`--via`) so that `webhooks replay` finds them (the replay command it prints run as
// printed, in a shell), with a hint when a receiver wants its secret header.
import { describe, expect, it } from 'vitest';
import { type WebhookEvent, WebhookReceiver } from '../../../src/webhooks/index.js';
import { flashduty, inShell, lines, serve, startMockProcess } from './support.js';

const mock = await startMockProcess(['--incidents', '50']);
const env = { FLASHDUTY_BASE_URL: mock.baseUrl, FLASHDUTY_APP_KEY: mock.appKey };
/** A server that counts requests: usage errors must send it nothing. */
const counter = await serve((_req, res) => res.end('{}'));

/** A real receiver on loopback, with what it did with each delivery. */
async function receiverOnLoopback(options: ConstructorParameters<typeof WebhookReceiver>[0] = {}) {
  const receiver = new WebhookReceiver({ logger: false, ...options });
  const seen: Array<{ outcome: string; event: WebhookEvent }> = [];
  receiver.on('event', (event) => void seen.push({ outcome: 'accepted', event }));
  receiver.on('duplicate', (event) => void seen.push({ outcome: 'duplicate', event }));
  receiver.on('stale', (event) => void seen.push({ outcome: 'stale', event }));
  const { url } = await serve(receiver.nodeMiddleware());
  return { url, seen };
}

describe('flashduty help', () => {
  it('`help [command…]` is `--help`; an unknown command is a usage error', async () => {
    const overview = await flashduty(['help']);
    expect(overview.code).toBe(0);
    expect(overview.stdout).toMatch(/^flashduty: the Flashduty Open API from a shell/);
    const list = await flashduty(['help', 'incidents', 'list']);
    expect(list).toMatchObject({ code: 0, stdout: (await flashduty(['incidents', 'list', '--help'])).stdout });
    expect(list.stdout).toMatch(/--access-token <token>/);
    const group = await flashduty(['help', 'automations']);
    expect(group).toMatchObject({ code: 0 });
    expect(group.stdout).toMatch(/automations triggers fire/);
    const fire = await flashduty(['help', 'automations', 'triggers', 'fire']);
    expect(fire.stdout).toMatch(/Usage: flashduty automations triggers fire <trigger_id> \[flags\]/);
    expect(fire.stdout).toMatch(/--token <token>/);
    const unknown = await flashduty(['help', 'incidnets']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "incidnets" \(did you mean "incidents"\?\)/);
  });
});

describe('credentials', () => {
  it('--access-token and FLASHDUTY_ACCESS_TOKEN, never printed; a flag wins over the environment; two at once: exit 2', async () => {
    const { FLASHDUTY_BASE_URL } = env;
    const byFlag = await flashduty(['members', 'list', '--json', '--access-token', mock.accessToken], {
      FLASHDUTY_BASE_URL,
    });
    expect(byFlag.code, byFlag.stderr).toBe(0);
    expect(lines(byFlag).length).toBeGreaterThan(0);
    const byEnv = await flashduty(['members', 'list', '--json'], {
      FLASHDUTY_BASE_URL,
      FLASHDUTY_ACCESS_TOKEN: mock.accessToken,
    });
    expect(byEnv.stdout).toBe(byFlag.stdout);
    const flagWins = await flashduty(['members', 'list', '--json', '--access-token', mock.accessToken], {
      ...env,
      FLASHDUTY_APP_KEY: 'fdk_not_this_one',
    });
    expect(flagWins.stdout).toBe(byFlag.stdout);
    for (const [args, environment, line] of [
      [
        ['--access-token', mock.accessToken, '--app-key', mock.appKey],
        { FLASHDUTY_BASE_URL },
        /^flashduty: --app-key and --access-token are both given: a call sends one credential; give one/,
      ],
      [
        [],
        { ...env, FLASHDUTY_ACCESS_TOKEN: mock.accessToken },
        /^flashduty: \$FLASHDUTY_APP_KEY and \$FLASHDUTY_ACCESS_TOKEN are both set: a call sends one credential; unset one/,
      ],
    ] as const) {
      const both = await flashduty(['members', 'list', ...args], environment);
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(line);
      expect(both.stderr).not.toContain(mock.accessToken);
      expect(both.stderr).not.toContain(mock.appKey);
    }
    const wrong = await flashduty(['members', 'list', '--access-token', 'fdt_wrong_token'], { FLASHDUTY_BASE_URL });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^flashduty: UnauthorizedError \(Unauthorized\)/);
    expect(wrong.stderr).not.toContain('fdt_wrong_token');
  });

  it('an automation trigger fires with its own --token, its id an argument; refused without it, or with a wrong one', async () => {
    const created = await flashduty(
      [
        'automations',
        'rules',
        'create',
        '--json',
        '--data',
        JSON.stringify({
          name: 'deploys',
          cron_expr: '0 9 * * *',
          prompt: 'check',
          enabled: true, // omitted, a rule is created disabled (the OpenAPI), and its trigger refuses to fire
          http_post_trigger_enabled: true,
        }),
      ],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const rule = JSON.parse(created.stdout) as { http_post_trigger_id: string; http_post_token: string };
    const fire = ['automations', 'triggers', 'fire', rule.http_post_trigger_id, '--data', '{"text":"deploy done"}'];
    // No app key in the environment: the trigger's token is the only credential it takes.
    const fired = await flashduty([...fire, '--token', rule.http_post_token, '--json'], {
      FLASHDUTY_BASE_URL: mock.baseUrl,
    });
    expect(fired.code, fired.stderr).toBe(0);
    expect(JSON.parse(fired.stdout)).toMatchObject({ type: 'routine_fire' });
    const missing = await flashduty(fire, env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /RequestValidationError: token: automations.triggers.fire is authenticated by a token of its own/,
    );
    const wrong = await flashduty([...fire, '--token', `${rule.http_post_token}x`], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^flashduty: UnauthorizedError \(Unauthorized\).* The token from --token was refused by /,
    );
    expect(wrong.stderr).not.toContain(rule.http_post_token);
    const noId = await flashduty(['automations', 'triggers', 'fire', '--token', 't0k3n_value'], env);
    expect([noId.code, noId.stderr]).toEqual([2, expect.stringContaining('<trigger_id> is required')]);
  });
});

describe('values the contract lists', () => {
  it('a flag value outside them: exit 2, the allowed values and the nearest, nothing sent', async () => {
    const at = { FLASHDUTY_BASE_URL: counter.url, FLASHDUTY_APP_KEY: 'k' };
    const before = counter.requests.length;
    const severity = await flashduty(['incidents', 'list', '--severity', 'Critcal'], at);
    expect(severity.code).toBe(2);
    expect(severity.stderr).toBe(
      'flashduty: RequestValidationError: incident_severity[0]: expected one of "Critical", "Warning", "Info", got "Critcal" (did you mean "Critical"?)\n',
    );
    const progress = await flashduty(['incidents', 'list', '--progress', 'Triggered,Proccessing'], at);
    expect([progress.code, progress.stderr]).toEqual([2, expect.stringContaining('(did you mean "Processing"?)')]);
    const enumField = await flashduty(['incidents', 'create', '--data', '{"incident_severity":"Fatal"}'], at);
    expect([enumField.code, enumField.stderr]).toEqual([
      2,
      expect.stringContaining('incident_severity: expected one of "Info", "Warning", "Critical", got "Fatal"'),
    ]);
    expect(counter.requests.length).toBe(before);
  });
});

describe('webhooks trigger for dedup and staleness', () => {
  it('--duplicate N sends each delivery N times with one event_id: the receiver handles it once', async () => {
    const { url, seen } = await receiverOnLoopback();
    const run = await flashduty(['webhooks', 'trigger', 'i_ack', 'i_rslv', '--duplicate', '3', '--to', url, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const rows = lines(run);
    expect(rows.map((row) => row.event_type)).toEqual(['i_ack', 'i_ack', 'i_ack', 'i_rslv', 'i_rslv', 'i_rslv']);
    expect(new Set(rows.map((row) => row.event_id)).size).toBe(2);
    expect(seen.map((entry) => [entry.event.event_type, entry.outcome])).toEqual([
      ['i_ack', 'accepted'],
      ['i_ack', 'duplicate'],
      ['i_ack', 'duplicate'],
      ['i_rslv', 'accepted'],
      ['i_rslv', 'duplicate'],
      ['i_rslv', 'duplicate'],
    ]);
    // The report says what the receiver did with each, as its answer named it.
    expect(rows.map((row) => row.outcome)).toEqual([
      'accepted',
      'duplicate',
      'duplicate',
      'accepted',
      'duplicate',
      'duplicate',
    ]);
    const table = await flashduty(['webhooks', 'trigger', 'i_ack', '--duplicate', '2', '--to', url]);
    const [header, ...body] = table.stdout.trim().split('\n');
    expect(header).toMatch(/ OUTCOME /);
    expect(body.map((line) => /\s(accepted|duplicate)\s/.exec(line)?.[1])).toEqual(['accepted', 'duplicate']);
  });

  it('--reorder makes the types one incident’s events and sends them newest first: the older ones are stale', async () => {
    const { url, seen } = await receiverOnLoopback();
    const run = await flashduty([
      'webhooks',
      'trigger',
      'i_new',
      'i_ack',
      'i_rslv',
      '--reorder',
      '--to',
      url,
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const rows = lines(run);
    expect(rows.map((row) => row.event_type)).toEqual(['i_rslv', 'i_ack', 'i_new']);
    expect(new Set(rows.map((row) => row.incident_id)).size).toBe(1);
    expect(seen.map((entry) => [entry.event.event_type, entry.outcome])).toEqual([
      ['i_rslv', 'accepted'],
      ['i_ack', 'stale'],
      ['i_new', 'stale'],
    ]);
    expect(rows.map((row) => row.outcome)).toEqual(['accepted', 'stale', 'stale']);
    const times = seen.map((entry) => entry.event.event_time);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const alert = await flashduty(['webhooks', 'trigger', 'a_new', 'i_ack', '--reorder', '--to', url]);
    expect([alert.code, alert.stderr]).toEqual([2, expect.stringContaining("--reorder sends one incident's events")]);
  });

  it('--via a running flashduty mock: the deliveries land in its history, and webhooks replay finds them', async () => {
    const { url, seen } = await receiverOnLoopback();
    const run = await flashduty(
      ['webhooks', 'trigger', 'i_new', 'i_ack', '--via', mock.baseUrl, '--to', url, '--json'],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const sent = lines(run).map((row) => row.event_id);
    const ids = [
      ...run.stderr.matchAll(/integration (\d+): flashduty webhooks replay --integration \1 --status all/g),
    ].map((match) => match[1]);
    expect(ids).toHaveLength(2);
    const replayed = new Set<unknown>();
    for (const id of ids) {
      const replay = await flashduty(
        ['webhooks', 'replay', '--integration', String(id), '--status', 'all', '--to', url, '--json'],
        env,
      );
      expect(replay.code, replay.stderr).toBe(0);
      for (const row of lines(replay)) replayed.add(row.event_id);
    }
    expect([...replayed].sort()).toEqual([...sent].sort());
    // The receiver took the first deliveries and knew the replayed ones: dedup, as with the service's retries.
    expect(seen.filter((entry) => entry.outcome === 'duplicate')).toHaveLength(2);
    // The command it printed runs as printed, in a shell that holds no credential or another one.
    const printed = /: (flashduty webhooks replay .*)$/m.exec(run.stderr)?.[1] as string;
    expect(printed).toBe(
      `flashduty webhooks replay --integration ${ids[0]} --status all --via ${mock.baseUrl}/ --to ${url}/`,
    );
    for (const shellEnv of [
      {},
      { FLASHDUTY_ACCESS_TOKEN: 'fdt_someone_else' },
      { FLASHDUTY_APP_KEY: mock.appKey },
    ] as Array<Record<string, string>>) {
      const asPrinted = await inShell(printed, shellEnv);
      expect(asPrinted.code, asPrinted.stderr).toBe(0);
      expect(asPrinted.stdout.split('\n')[0]).toMatch(/^EVENT_TYPE +EVENT_ID +HTTP_STATUS +OUTCOME/);
      expect(asPrinted.stdout).toMatch(/\si_new\s.*\sduplicate\s/);
    }
    const nowhere = await flashduty(['webhooks', 'trigger', 'i_new', '--via', counter.url, '--to', url]);
    expect([nowhere.code, nowhere.stderr]).toEqual([2, expect.stringMatching(/--via: .* is no flashduty mock/)]);
  });

  it('a receiver answering 401 or 403: the report says to send its secret header', async () => {
    const { url } = await receiverOnLoopback({ secret: { header: 'x-flashduty-token', values: ['s3cret'] } });
    const refused = await flashduty(['webhooks', 'trigger', 'i_new', '--to', url]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/\s401\s/);
    expect(refused.stderr).toMatch(
      /the receiver answered 401: it wants its secret header\. Send it with --header 'Name: value'/,
    );
    const sent = await flashduty([
      'webhooks',
      'trigger',
      'i_new',
      '--to',
      url,
      '--header',
      'X-Flashduty-Token: s3cret',
    ]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toBe('');
  });
});
