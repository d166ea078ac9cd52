// The webhook commands without a socket: what `trigger` refuses before sending anything, and its
// report of deliveries made through a running mock (`--via`, its control route stood in for by a
// stubbed fetch: the rows, the hints, the exit code); `replay` posting recorded bodies with their
// recorded headers (fetch stubbed again); `lint` on template files. (Real deliveries to a real
// receiver: test/integration/cli/webhooks.test.ts.)
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { WEBHOOK_COMMANDS } from '../../../../src/cli/commands/webhooks.js';
import { commandOf, contextOf, itemsOf, jsonLines, scratch, usageError } from '../support.js';

const trigger = commandOf(WEBHOOK_COMMANDS, 'webhooks trigger');
const replay = commandOf(WEBHOOK_COMMANDS, 'webhooks replay');
const lint = commandOf(WEBHOOK_COMMANDS, 'webhooks lint');

const { dir, file } = scratch('flashduty-cli-webhooks-');

/** A command's run on `args`, a usage error of its flags included (they are checked as the context is made). */
async function runOf(command: typeof trigger, args: string[]): Promise<number> {
  return command.run(contextOf(command, args));
}

/** A fetch that answers each request with `answer(url, init)`, recording the requests. */
function stubFetch(answer: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const requests: Array<{ url: string; init: RequestInit }> = [];
  vi.stubGlobal('fetch', async (input: string | URL, init: RequestInit = {}) => {
    requests.push({ url: String(input), init });
    return answer(String(input), init);
  });
  return requests;
}

const record = (status: 'success' | 'failure', http_status: number, extra: object = {}) => ({
  trigger_time: 1,
  event_type: 'i_new',
  incident_id: 'inc1',
  event_id: `ev${http_status}`,
  status,
  http_status,
  duration_ms: 3,
  request_count: 1,
  request: { endpoint: 'http://r', headers: {}, payload: {} },
  ...extra,
});

describe('webhooks trigger: refused before anything is sent', () => {
  it('needs an event type, a known one (or all), and a receiver URL', async () => {
    const fetches = stubFetch(() => new Response('{}'));
    expect(await usageError(trigger.run(contextOf(trigger, ['--to', 'http://r'])))).toMatch(
      /^the event type is required: all, or some of i_new, /,
    );
    expect(await usageError(trigger.run(contextOf(trigger, ['i_nwe', '--to', 'http://r'])))).toBe(
      'unknown event type "i_nwe" (did you mean i_new?)',
    );
    expect(await usageError(trigger.run(contextOf(trigger, ['i_new'])))).toBe('--to is required');
    expect(await usageError(trigger.run(contextOf(trigger, ['i_new', '--to', 'ftp://r'])))).toBe(
      '--to: expected an http:// or https:// URL, got "ftp://r"',
    );
    expect(fetches).toEqual([]);
  });

  it('refuses a template that does not render, --reorder of events of no incident, and a --via that is no URL', async () => {
    const broken = file('broken.json', '{"a": {{ }');
    expect(
      await usageError(trigger.run(contextOf(trigger, ['i_new', '--to', 'http://r', '--custom-body', broken]))),
    ).toMatch(/^--custom-body: The custom body template is not valid JSON/);
    expect(await usageError(trigger.run(contextOf(trigger, ['i_new', 'a_new', '--to', 'http://r', '--reorder'])))).toBe(
      "--reorder sends one incident's events: give incident event types (i_new, i_ack, …)",
    );
    expect(await usageError(trigger.run(contextOf(trigger, ['i_new', '--to', 'http://r', '--via', 'mock'])))).toBe(
      '--via: not a URL: "mock"',
    );
  });

  it('refuses each count outside its range, naming the flag and the range, before a mock is even made', async () => {
    const fetches = stubFetch(() => new Response('{}'));
    for (const [flag, text, range] of [
      ['--count', '0', '1 to 100'],
      ['--count', '101', '1 to 100'],
      ['--duplicate', '1000000', '1 to 10'],
      ['--duplicate', '-1', '1 to 10'],
      ['--duplicate', '0', '1 to 10'],
    ] as const) {
      expect(
        await usageError(runOf(trigger, ['i_new', '--to', 'http://r', '--via', 'http://mock:1', flag, text])),
      ).toBe(`${flag}: expected a whole number from ${range}, got ${JSON.stringify(text)}`);
    }
    expect(fetches).toEqual([]);
  });

  it('refuses a header HTTP cannot send, naming the header and not its value', async () => {
    const header = 'X-Token: s3cret\nX-Admin: 1';
    const message = await usageError(runOf(trigger, ['i_new', '--to', 'http://r', '--header', header]));
    expect(message).toBe(
      '--header X-Token: its value has a line break or another control character, which HTTP cannot send; give it on one line',
    );
  });
});

describe('webhooks trigger --via a running mock', () => {
  it('asks the mock’s control route for each event type, prints a row per delivery, says how to replay', async () => {
    const requests = stubFetch((_url, init) => {
      const options = JSON.parse(init.body as string) as { eventType: string };
      return Response.json({
        integration_id: 42,
        records: [record('success', 200, { event_type: options.eventType })],
      });
    });
    const context = contextOf(trigger, [
      'i_new',
      'i_ack',
      '--to',
      'http://r/hooks',
      '--via',
      'http://mock:1',
      '--json',
    ]);
    expect(await trigger.run(context)).toBe(0);
    expect(requests.map((request) => request.url)).toEqual([
      'http://mock:1/__mock/webhooks/trigger',
      'http://mock:1/__mock/webhooks/trigger',
    ]);
    expect(JSON.parse(requests[0]?.init.body as string)).toEqual({
      endpoint: 'http://r/hooks',
      headers: {},
      count: 1,
      duplicate: 1,
      eventType: 'i_new',
    });
    expect(jsonLines(context.io.printed.out)).toEqual(
      ['i_new', 'i_ack'].map((event_type) => ({
        event_type,
        event_id: 'ev200',
        incident_id: 'inc1',
        status: 'success',
        http_status: 200,
        duration_ms: 3,
        attempts: 1,
      })),
    );
    expect(context.io.printed.err).toBe(
      "flashduty: recorded in the mock's history as integration 42: flashduty webhooks replay --integration 42 --status all --via http://mock:1/ --to http://r/hooks\n".repeat(
        2,
      ),
    );
  });

  it('reports the receiver’s outcome where its answer names one, in the table and in --json', async () => {
    const answered = (body: string) => ({ response: { headers: {}, body } });
    stubFetch(() =>
      Response.json({
        integration_id: 42,
        records: [
          record('success', 200, { event_id: 'e1', ...answered('{"outcome":"accepted"}') }),
          record('success', 200, { event_id: 'e1', ...answered('{"outcome":"duplicate"}') }),
          record('success', 200, { event_id: 'e2', ...answered('ok') }),
          record('failure', 500, {
            event_id: 'e3',
            error: 'HTTP 500',
            ...answered('{"outcome":"rejected","reason":"handler failed"}'),
          }),
        ],
      }),
    );
    const json = contextOf(trigger, ['i_new', '--to', 'http://r', '--via', 'http://mock:1', '--json']);
    expect(await trigger.run(json)).toBe(1);
    expect(jsonLines(json.io.printed.out).map((row) => (row as { outcome?: string }).outcome)).toEqual([
      'accepted',
      'duplicate',
      undefined,
      'rejected',
    ]);
    const table = contextOf(trigger, ['i_new', '--to', 'http://r', '--via', 'http://mock:1']);
    await trigger.run(table);
    const lines = table.io.printed.out.split('\n');
    expect(lines[0]).toMatch(/^EVENT_TYPE +EVENT_ID +INCIDENT_ID +STATUS +HTTP_STATUS +OUTCOME +DURATION_MS/);
    expect(lines.slice(1, 5).map((line) => /\s(accepted|duplicate|rejected)\s/.exec(line)?.[1])).toEqual([
      'accepted',
      'duplicate',
      undefined,
      'rejected',
    ]);
  });

  it('exits 1 when a delivery failed, and tells a receiver that answered 401 to get its secret header', async () => {
    stubFetch(() => Response.json({ integration_id: 7, records: [record('failure', 401, { error: 'HTTP 401' })] }));
    const context = contextOf(trigger, ['i_new', '--to', 'http://r', '--via', 'http://mock:1']);
    expect(await trigger.run(context)).toBe(1);
    expect(context.io.printed.out.split('\n')[0]).toMatch(/^EVENT_TYPE +EVENT_ID +INCIDENT_ID +STATUS +HTTP_STATUS/);
    expect(context.io.printed.err).toMatch(/^flashduty: the receiver answered 401: it wants its secret header\. /);
  });

  it('is a usage error when nothing answers at --via, or what answers is no mock', async () => {
    stubFetch(() => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })));
    expect(
      await usageError(trigger.run(contextOf(trigger, ['i_new', '--to', 'http://r', '--via', 'http://mock:1']))),
    ).toBe('--via: no flashduty mock answers at http://mock:1/ (ECONNREFUSED)');
    stubFetch(() => new Response('<html>', { status: 404 }));
    expect(
      await usageError(trigger.run(contextOf(trigger, ['i_new', '--to', 'http://r', '--via', 'http://mock:1']))),
    ).toBe('--via: http://mock:1/ is no flashduty mock (HTTP 404)');
  });
});

describe('webhooks replay', () => {
  /** A client whose webhook history holds `records`; the detail gives each its recorded request. */
  function history(records: Array<Record<string, unknown>>) {
    const asked: unknown[] = [];
    return {
      asked,
      webhookHistory: {
        list: (params: unknown) => (asked.push(params), itemsOf(records)),
        detail: async ({ event_id }: { event_id: string }) => ({
          event_id,
          request_body: `{"event_id":"${event_id}"}`,
          request_headers: JSON.stringify({ 'X-Secret': 's', Host: 'old', 'Content-Length': '9', Multi: ['a', 'b'] }),
        }),
      },
    };
  }

  it('posts each recorded body with its recorded headers (not the hop-by-hop ones) and reports each', async () => {
    const posted = stubFetch((url) => new Response('ok', { status: url.endsWith('/fail') ? 500 : 200 }));
    const client = history([{ event_id: 'e1', event_type: 'i_new' }]);
    const context = contextOf(replay, ['--integration', '9', '--to', 'http://r/', '--status', 'all', '--json'], client);
    expect(await replay.run(context)).toBe(0);
    expect(client.asked).toEqual([{ integration_id: 9, start_time: expect.any(Number), end_time: expect.any(Number) }]);
    expect(posted[0]?.init).toMatchObject({
      method: 'POST',
      body: '{"event_id":"e1"}',
      headers: { 'X-Secret': 's', Multi: 'a, b', 'Content-Type': 'application/json' },
    });
    expect(jsonLines(context.io.printed.out)).toEqual([
      { event_type: 'i_new', event_id: 'e1', http_status: 200, duration_ms: expect.any(Number), ok: true },
    ]);
    const failed = contextOf(
      replay,
      ['--integration', '9', '--to', 'http://r/fail'],
      history([{ event_id: 'e2', event_type: 'i_ack' }]),
    );
    expect(await replay.run(failed)).toBe(1);
    const outcome = stubFetch(() => Response.json({ outcome: 'duplicate' }));
    const again = contextOf(replay, ['--integration', '9', '--to', 'http://r/', '--status', 'all', '--json'], client);
    await replay.run(again);
    expect(outcome).toHaveLength(1);
    expect(jsonLines(again.io.printed.out)).toEqual([expect.objectContaining({ outcome: 'duplicate', ok: true })]);
  });

  it('asks only for failed deliveries unless told all', async () => {
    stubFetch(() => new Response('ok'));
    const client = history([]);
    await replay.run(contextOf(replay, ['--integration', '9', '--to', 'http://r'], client));
    expect(client.asked).toEqual([expect.objectContaining({ status: 'failed' })]);
  });

  it('--via a running mock: reads its history with the mock’s own key, whatever the shell holds', async () => {
    const requests = stubFetch((url) =>
      url.endsWith('/__mock/credentials') ? Response.json({ app_key: 'fdk_mock' }) : new Response('ok'),
    );
    const client = history([{ event_id: 'e1', event_type: 'i_new' }]);
    const context = contextOf(
      replay,
      ['--integration', '9', '--via', 'http://mock:1', '--to', 'http://r/', '--json'],
      client,
    );
    const connections: unknown[] = [];
    context.client = async (connection) => (connections.push(connection), client as never);
    expect(await replay.run(context)).toBe(0);
    expect(requests.map((request) => request.url)).toEqual(['http://mock:1/__mock/credentials', 'http://r/']);
    expect(connections).toEqual([
      {
        options: { appKey: 'fdk_mock', baseUrl: 'http://mock:1/' },
        source: "the mock's own app key (--via)",
        baseUrl: 'http://mock:1/',
      },
    ]);
    for (const flag of ['--base-url', '--app-key', '--access-token'])
      expect(
        await usageError(
          runOf(replay, ['--integration', '9', '--via', 'http://mock:1', '--to', 'http://r', flag, 'x']),
        ),
      ).toBe(`--via reads the mock's history with the mock's own key: drop ${flag}`);
    stubFetch(() => Response.json({ error: { code: 'RouteNotFound' } }, { status: 404 }));
    expect(await usageError(runOf(replay, ['--integration', '9', '--via', 'http://old:1', '--to', 'http://r']))).toBe(
      '--via: http://old:1/ is no flashduty mock (HTTP 404)',
    );
  });

  it('refuses a missing integration, an unknown --status and an argument', async () => {
    expect(await usageError(replay.run(contextOf(replay, ['--to', 'http://r'])))).toBe('--integration is required');
    expect(await usageError(replay.run(contextOf(replay, ['--integration', '0', '--to', 'http://r'])))).toBe(
      '--integration: expected an id (a whole number ≥ 1), got "0"',
    );
    expect(
      await usageError(replay.run(contextOf(replay, ['--integration', '1', '--to', 'http://r', '--status', 'ok']))),
    ).toBe('--status: expected failed or all, got "ok"');
    expect(await usageError(replay.run(contextOf(replay, ['x'])))).toBe('unexpected argument "x"');
  });
});

describe('webhooks lint', () => {
  it('prints each problem as path: message and exits 1, or says there are none', async () => {
    const typo = contextOf(lint, [
      file(
        'typo.json',
        '{"id":"{{event_id}}","at":"{{event_time}}","i":"{{incident.incident_id}}","t":"{{incident.titel}}"}',
      ),
    ]);
    expect(await lint.run(typo)).toBe(1);
    expect(typo.io.printed.out).toBe(
      't: {{incident.titel}}: no payload has incident.titel, so it is sent as written\n',
    );
    const clean = contextOf(lint, [
      file('clean.json', '{"id":"{{event_id}}","at":"{{event_time}}","i":"{{incident.incident_id}}"}'),
    ]);
    expect(await lint.run(clean)).toBe(0);
    expect(clean.io.printed.out).toBe('no problems\n');
  });

  it('prints problems as JSON lines with --json, the template’s own as path ""', async () => {
    const context = contextOf(lint, [file('bad.json', '{"a": }'), '--json']);
    expect(await lint.run(context)).toBe(1);
    expect(jsonLines(context.io.printed.out)).toEqual([{ path: '', message: expect.stringMatching(/not valid JSON/) }]);
  });

  it('refuses no file, two files and an unreadable one', async () => {
    expect(await usageError(lint.run(contextOf(lint, [])))).toBe('the template file is required');
    expect(await usageError(lint.run(contextOf(lint, ['a', 'b'])))).toBe('unexpected argument "b"');
    expect(await usageError(lint.run(contextOf(lint, [path.join(dir, 'none.json')])))).toMatch(
      /^template: cannot read .*: ENOENT$/,
    );
  });
});
