// `flashduty` against `flashduty mock`, each in a child process over HTTP: the per-method commands
// from OPERATIONS (an upload's --file, an export's lines), `api`, the incident conveniences, help,
// every exit code, and output parsed as a script parses it. Usage errors are sent at a counting
// server: nothing reaches it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { flashduty, lines, serve, startMockProcess } from './support.js';

const mock = await startMockProcess(['--incidents', '300', '--seed', '3']);
const env = { FLASHDUTY_BASE_URL: mock.baseUrl, FLASHDUTY_APP_KEY: mock.appKey };
/** A server that counts requests: usage errors must send it nothing. */
const counter = await serve((_req, res) => res.end('{}'));

describe('flashduty against flashduty mock', () => {
  it('serves a world of its own each run (its event ids new), saying its seed; --seed serves one again', async () => {
    const [first, second] = await Promise.all([
      startMockProcess(['--incidents', '1']),
      startMockProcess(['--incidents', '1']),
    ]);
    expect(first.seed).not.toBe(second.seed);
    expect(first.appKey).not.toBe(second.appKey);
    const again = await startMockProcess(['--incidents', '1', '--seed', String(first.seed)]);
    expect(again).toMatchObject({ seed: first.seed, appKey: first.appKey });
    expect(mock.seed).toBe(3);
  });

  it('lists incidents of a window as JSON lines, and as a table for people', async () => {
    const json = await flashduty(
      ['incidents', 'list', '--since', '7d', '--progress', 'Triggered,Processing', '--json'],
      env,
    );
    expect(json.code).toBe(0);
    const incidents = lines(json);
    expect(incidents.length).toBeGreaterThan(0);
    for (const incident of incidents) expect(['Triggered', 'Processing']).toContain(incident.progress);
    const table = await flashduty(['incidents', 'list', '--since', '7d'], env);
    expect(table.stdout.split('\n')[0]).toMatch(/^NUM\s+INCIDENT_ID\s+INCIDENT_SEVERITY\s+PROGRESS\s+TITLE/);
    expect(table.stdout.trim().split('\n')).toHaveLength(
      lines(await flashduty(['incidents', 'list', '--since', '7d', '--json'], env)).length + 1,
    );
  });

  it('runs a generated command per named method, walking every page of a list', async () => {
    const members = lines(await flashduty(['members', 'list', '--json', '--data', '{"limit":5}'], env));
    expect(members.length).toBeGreaterThan(5); // more than one page of 5
    expect(new Set(members.map((m) => m.member_id)).size).toBe(members.length);
    // A channel of the mock's world: one it does not have is ResourceNotFound.
    const [channel] = lines(await flashduty(['channels', 'list', '--json'], env)) as Array<{ channel_id: number }>;
    const data = JSON.stringify({ channel_id: channel?.channel_id });
    const rules = await flashduty(['channels', 'escalate-rules', 'list', '--data', data, '--json'], env);
    expect(rules.code).toBe(0);
    expect(JSON.parse(rules.stdout)).toEqual(expect.any(Object));
    // camelCase words work as well as kebab-case
    expect((await flashduty(['channels', 'escalateRules', 'list', '--data', data], env)).code).toBe(0);
  });

  it('uploads a file with --file, and prints an export’s NDJSON lines one by one', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'flashduty-cli-'));
    try {
      const archive = path.join(directory, 'k8s-triage.zip');
      writeFileSync(archive, Buffer.from([0x50, 0x4b, 3, 4]));
      const upload = await flashduty(
        ['skills', 'upload', '--file', archive, '--data', '{"replace":true}', '--json'],
        env,
      );
      expect(upload.code).toBe(0);
      expect(JSON.parse(upload.stdout)).toMatchObject({ skill_id: expect.any(String) });
      const missing = await flashduty(['skills', 'upload', '--file', path.join(directory, 'nope.zip')], env);
      expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('--file: cannot read')]);
      const help = await flashduty(['skills', 'upload', '--help'], env);
      expect(help.stdout).toMatch(/--file <path>/);
      expect(help.stdout).toMatch(/file\s+file \(--file\)\s+required/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
    const transcript = lines(
      await flashduty(['sessions', 'export', '--data', '{"session_id":"sess_1"}', '--json'], env),
    );
    expect(transcript[0]).toEqual({ type: 'session_meta', session_id: 'sess_1', include_subagents: false });
    expect(transcript.length).toBeGreaterThan(1);
  });

  it('api calls any path, with --data from a string, a file or stdin, and --paginate prints every item', async () => {
    const body = JSON.stringify({
      start_time: Math.floor(Date.now() / 1000) - 86_400,
      end_time: Math.floor(Date.now() / 1000),
      limit: 3,
    });
    const page = await flashduty(['api', '/incident/list', '--data', body, '--json'], env);
    expect(page.code).toBe(0);
    expect((JSON.parse(page.stdout) as { items: unknown[] }).items.length).toBeLessThanOrEqual(3);
    const stdin = await flashduty(['api', '/incident/list', '--data', '-', '--json'], env, { input: body });
    expect(JSON.parse(stdin.stdout)).toEqual(JSON.parse(page.stdout));
    const teams = lines(await flashduty(['api', '/team/list', '--paginate', '--data', '{"limit":2}'], env));
    expect(teams.length).toBeGreaterThan(2); // the mock's 3 to 5 teams: more than a page of 2
  });

  it('acks by id, and reports a refused call with its class and code, exit 1', async () => {
    const [incident] = lines(
      await flashduty(['incidents', 'list', '--since', '30d', '--progress', 'Triggered', '--json'], env),
    );
    const id = String(incident?.incident_id);
    const ack = await flashduty(['incidents', 'ack', id], env);
    expect(ack).toMatchObject({ code: 0, stdout: `ack: ${id}\n` });
    const comment = await flashduty(['incidents', 'comment', id, '--text', 'rolling back'], env);
    expect(comment.code).toBe(0);
    const refused = await flashduty(['incidents', 'ack', '000000000000000000000000'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^flashduty: ResourceNotFoundError \(ResourceNotFound\): .+ \(request \w+\)\n$/);
    expect(refused.stdout).toBe('');
  });

  it('usage errors: one line on stderr, exit 2, nothing sent', async () => {
    const at = { FLASHDUTY_BASE_URL: counter.url, FLASHDUTY_APP_KEY: 'k' };
    const cases: Array<[string[], RegExp]> = [
      [['membres', 'list'], /unknown command "membres list" \(did you mean "members list"\?\)/],
      [['members', 'list', '--jsno'], /unknown flag --jsno \(did you mean --json\?\)/],
      [['api', '/incident/ack', '--data', '{bad'], /--data is not valid JSON/],
      [['api', '/incident/ack', '--data', '@/no/such/file.json'], /--data: cannot read \/no\/such\/file.json: ENOENT/],
      [['incidents', 'list', '--since', '3x'], /--since: expected a duration/],
      [['webhooks', 'trigger', 'i_new', '--to', 'not a url'], /--to: not a URL/],
      [
        ['webhooks', 'trigger', 'i_akc', '--to', 'http://127.0.0.1:1/'],
        /unknown event type "i_akc" \(did you mean i_ack\?\)/,
      ],
      [
        ['webhooks', 'trigger', 'i_new', 'al', '--to', 'http://127.0.0.1:1/'],
        /unknown event type "al" \(did you mean all\?\)/,
      ],
      [['webhooks', 'trigger', '--to', 'http://127.0.0.1:1/'], /the event type is required: all, or some of i_new, /],
      [['channels', 'create', '--data', '{"team_id":1}'], /RequestValidationError: channel_name: is required/],
      [['members'], /Commands under flashduty members/],
    ];
    for (const [args, message] of cases) {
      const run = await flashduty(args, at);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stdout, args.join(' ')).toBe('');
    }
    expect(counter.requests).toHaveLength(0);
  });

  it('help: every command lists its flags and an example; an operation also its body fields', async () => {
    const top = await flashduty(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/webhooks trigger/);
    expect(top.stdout).toMatch(/Exit codes: 0 done, 1 the API or a delivery failed, 2 a usage error/);
    const members = await flashduty(['members', 'list', '--help']);
    expect(members.stdout).toMatch(/Body fields \(--data\):\n {2}role_id/);
    expect(members.stdout).toMatch(/Example:\n {2}flashduty members list --json/);
    for (const args of [
      ['mock'],
      ['api'],
      ['incidents', 'list'],
      ['webhooks', 'trigger'],
      ['webhooks', 'replay'],
      ['webhooks', 'lint'],
    ]) {
      const run = await flashduty([...args, '--help']);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout, args.join(' ')).toMatch(/Usage: flashduty .*\n[\s\S]*Example:\n {2}flashduty /);
    }
  });

  it('never prints the app key: not in output, errors or help', async () => {
    const key = mock.appKey;
    const runs = await Promise.all([
      flashduty(['members', 'list', '--json'], env),
      flashduty(['incidents', 'ack', '000000000000000000000000'], env),
      flashduty(['api', '/no/such/path', '--data', '{}'], env),
      flashduty(['members', 'list', '--help'], env),
      flashduty(['incidents', 'list', '--app-key', key, '--base-url', 'http://127.0.0.1:1'], {}),
    ]);
    for (const run of runs) expect(`${run.stdout}${run.stderr}`).not.toContain(key);
    expect(runs[4]?.code).toBe(1); // unreachable: APIConnectionError, whose URL shows app_key=***
    expect(runs[4]?.stderr).toMatch(/^flashduty: APIConnectionError: /);
  });

  it('runs on Node 24 too', async () => {
    const run = await flashduty(['members', 'list', '--json'], env, {
      node: 'npx',
      nodeArgs: ['-y', 'node@24'],
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(0);
    expect(lines(run).length).toBeGreaterThan(5);
  }, 150_000);
});
