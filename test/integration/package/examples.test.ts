// The examples are recipes users copy: each runs here, from the built package, against the mock
// service over HTTP (or, for the Next.js and Worker ones, through their fetch handler).
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildDelivery, buildWebhookEvent, createMockService } from '../../../src/testing/index.js';
import { spawnTied, stopChild } from '../support/lifetime.js';
import { type RedisServer, startRedis } from '../support/redis.js';
import { closedPort } from '../../helpers.js';

const execFileAsync = promisify(execFile);
const service = createMockService({ seed: 21, incidents: 300 });
const server = await service.listen();
afterAll(() => server.close());
const env = {
  ...process.env,
  FLASHDUTY_APP_KEY: service.appKey,
  FLASHDUTY_BASE_URL: server.url,
  FLASHDUTY_LOG: 'error',
};

async function run(file: string, args: string[] = [], extraEnv: Record<string, string> = {}) {
  return execFileAsync(process.execPath, ['--import', 'tsx', `examples/${file}`, ...args], {
    env: { ...env, ...extraEnv },
    timeout: 60_000,
  });
}

describe('client examples', () => {
  it('the demo runs end to end against the mock service', { timeout: 60_000 }, async () => {
    const { FLASHDUTY_APP_KEY: _k, FLASHDUTY_BASE_URL: _u, ...plain } = env;
    const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], {
      env: plain,
      timeout: 55_000,
    });
    expect(stdout).toContain('running against the mock service');
    expect(stdout).toMatch(/second call → InvalidParameterError \(InvalidParameter, HTTP 400\)/);
    expect(stdout).toMatch(/second call → ResourceNotFoundError/);
    expect(stdout).toMatch(/\d+ pages; open incidents by severity/);
    const owner = createMockService({ seed: 7 }).world.members[0]!.person_name; // the demo's mock, seed 7
    expect(stdout).toContain(`received i_ack `);
    expect(stdout).toMatch(new RegExp(`received i_ack .* by ${owner}`));
    expect(stdout).toMatch(/duplicate i_rslv .* handlers not run/);
    expect(stdout).toMatch(/stale i_new/);
    expect(stdout).toMatch(/i_new {4}success HTTP 200/);
  });

  it('list-last-24h prints the table', async () => {
    const since = Date.now() / 1000 - 86_400;
    const count = service.world.incidents.filter((i) => i.start_time >= since).length;
    const { stdout } = await run('list-last-24h.ts');
    expect(stdout).toContain(`${count} incidents in the last 24 hours`);
  });

  it('team-roster walks every team and member through the generated methods, each person by name', async () => {
    const { stdout } = await run('team-roster.ts');
    const [, teams, members] = /^(\d+) teams, (\d+) members$/m.exec(stdout) ?? [];
    expect(Number(teams)).toBe(service.world.teams.length);
    expect(Number(members)).toBe(service.world.members.length);
    const rows = stdout.split('\n').filter((line) => / \(\d+\): /.test(line));
    expect(rows).toHaveLength(Number(teams));
    for (const team of service.world.teams) {
      const people = team.person_ids.map((id) => service.world.members.find((m) => m.person_id === id)!);
      expect(rows).toContain(
        `${team.team_name} (${people.length}): ${people.map((m) => `${m.person_name} <${m.email}>`).join(', ')}`,
      );
    }
    expect(stdout).not.toMatch(/person \d+/); // every member named: teams are made of listed members
  });

  it('incident-timeline prints an incident’s history, oldest first, with who did what', async () => {
    const [me, other] = service.world.members;
    const channel = service.world.channels[0]!.channel_id;
    const incident = await service.actions.create({
      title: 'Disk full on db-1',
      incident_severity: 'Warning',
      channel_id: channel,
      person_id: me!.person_id,
    });
    await service.actions.ack(incident.incident_id, other!.person_id);
    await service.actions.comment(incident.incident_id, 'cleaning up old WAL', other!.person_id);
    await service.actions.close(incident.incident_id, me!.person_id);
    const { stdout } = await run('incident-timeline.ts', [incident.num]);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe(`#${incident.num} Disk full on db-1 (Closed)`);
    expect(lines.slice(1).map((line) => line.replace(/^\S+ {2}/, ''))).toEqual([
      `${me!.person_name}: created`,
      `${other!.person_name}: acknowledged`,
      `${other!.person_name}: commented: "cleaning up old WAL"`,
      `${me!.person_name}: resolved`,
    ]);
    for (const line of lines.slice(1)) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z {2}/);
  });

  it('triage-report groups open incidents by severity and channel', async () => {
    const { stdout } = await run('triage-report.ts');
    expect(stdout).toMatch(/^Critical: \d+ open$/m);
    expect(stdout).toMatch(/^ {2}\S.* \(\d+\)$/m);
  });

  it('agents-and-skills handles the typed errors', async () => {
    const { stdout } = await run('agents-and-skills.ts', ['a2a_demo', 'skill_demo']);
    expect(stdout).toMatch(/enable agent a2a_demo: done/);
    expect(stdout).toMatch(/enable agent a2a_demo again: refused, A2A agent a2a_demo is already enabled/);
    expect(stdout).toMatch(/delete skill skill_demo again: not found/);
  });

  it(
    'export-90-days exports every incident once, and resumes after an interruption',
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'fd-export-'));
      const prefix = path.join(dir, 'out');
      const since = Math.floor(Date.now() / 1000) - 90 * 86_400;
      const expected = service.world.incidents.filter((i) => i.start_time >= since && !i.deleted_at).length;
      // Let two pages through, then fail the third call with an error that is not retried.
      service.faults.add({ path: '/incident/list', delayMs: 1, times: 2 });
      service.faults.add({ path: '/incident/list', code: 'BadRequest', message: 'interrupted' });
      await expect(run('export-90-days.ts', [prefix])).rejects.toThrow(/interrupted/);
      const partial = readFileSync(`${prefix}.jsonl`, 'utf8').trim().split('\n').length;
      expect(partial).toBe(200);
      expect(JSON.parse(readFileSync(`${prefix}.state.json`, 'utf8')).token).toEqual(expect.any(String));
      const { stdout } = await run('export-90-days.ts', [prefix]);
      expect(stdout).toContain(`done: ${expected} incidents`);
      const lines = readFileSync(`${prefix}.jsonl`, 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { incident_id: string }).incident_id);
      expect(lines).toHaveLength(expected);
      expect(new Set(lines).size).toBe(expected);
      expect(readFileSync(`${prefix}.csv`, 'utf8').trim().split('\n')).toHaveLength(expected + 1);
    },
  );

  it('replay-failed-deliveries runs what the sender gave up on, once', async () => {
    const hook = service.webhooks.create({
      endpoint: `http://127.0.0.1:${await closedPort()}/hooks`,
      headers: { 'X-Flashduty-Token': 'tok' },
    });
    const channel = service.world.channels[0]!.channel_id;
    for (let i = 0; i < 3; i++)
      await service.actions.create({ title: `lost ${i}`, incident_severity: 'Info', channel_id: channel });
    await service.webhooks.idle();
    const { stdout } = await run('replay-failed-deliveries.ts', [String(hook.id), '1'], { HOOK_TOKEN: 'tok' });
    expect(stdout).toContain('seen 3, accepted 3, duplicate 0, stale 0, rejected 0, unread 0');
    expect(stdout.match(/^replayed i_new /gm)).toHaveLength(3);
    service.webhooks.remove(hook.id); // later examples create incidents too
  });

  it('preview-custom-body lints the template and renders with value mapping', async () => {
    const { stdout } = await run('preview-custom-body.ts');
    expect(stdout).toContain('lint: no problems');
    expect(stdout).toContain('"priority": "P1"');
    expect(stdout).toContain('[P1] Checkout latency over 2 s (open)');
    expect(stdout).toContain('"labels": {');
  });
});

/** Starts a long-running example and waits for its "listening on <url>" line. */
function startServerExample(
  file: string,
  extraEnv: Record<string, string>,
): Promise<{ url: string; child: ChildProcess; output(): string }> {
  const child = spawnTied(process.execPath, ['--import', 'tsx', `examples/${file}`], {
    env: { ...env, PORT: '0', HOOK_TOKEN: 'tok', ...extraEnv },
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} did not start: ${out}`)), 30_000);
    child.stdout?.on('data', () => {
      const match = /listening on (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1] as string, child, output: () => out });
      }
    });
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}: ${out}`)));
  });
}

describe('webhook receiver examples', () => {
  const children: ChildProcess[] = [];
  const servers: RedisServer[] = [];
  afterAll(() => Promise.all([...children.map((c) => stopChild(c)), ...servers.map((s) => s.stop())]));

  it.each(['webhooks-express.ts', 'webhooks-fastify.ts', 'webhooks-hono.ts', 'webhooks-redis-replicas.ts'])(
    '%s receives a delivery',
    { timeout: 60_000 },
    async (file) => {
      const extra: Record<string, string> = {};
      if (file.includes('redis')) {
        const redis = await startRedis();
        servers.push(redis);
        extra.REDIS_URL = redis.url;
      }
      const example = await startServerExample(file, extra);
      children.push(example.child);
      const event = buildWebhookEvent('i_new', { incident: { title: 'from the test' } });
      const ok = await fetch(example.url, buildDelivery(event, { headers: { 'X-Flashduty-Token': 'tok' } }).init());
      expect(ok.status).toBe(200);
      const again = await fetch(example.url, buildDelivery(event, { headers: { 'X-Flashduty-Token': 'tok' } }).init());
      expect(await again.json()).toEqual({ outcome: 'duplicate' });
      const wrong = await fetch(
        example.url,
        buildDelivery(buildWebhookEvent('i_new'), { headers: { 'X-Flashduty-Token': 'nope' } }).init(),
      );
      expect(wrong.status).toBe(401);
      // Its handler's line (`event i_new <id>`) comes once the handler ran: wait for it.
      await vi.waitFor(() => expect(example.output()).toContain(`event i_new ${event.event_id}`), {
        timeout: 10_000,
        interval: 10,
      });
    },
  );

  it('webhook-to-action comments on and acknowledges a new Critical incident, once', { timeout: 60_000 }, async () => {
    const example = await startServerExample('webhook-to-action.ts', {});
    children.push(example.child);
    const hook = service.webhooks.create({
      endpoint: example.url,
      headers: { 'X-Flashduty-Token': 'tok' },
      eventTypes: ['i_new'],
    });
    const critical = await service.actions.create({ title: 'checkout down', incident_severity: 'Critical' });
    const minor = await service.actions.create({ title: 'slow report', incident_severity: 'Info' });
    await service.webhooks.idle();
    await vi.waitFor(() => expect(example.output()).toContain(`acknowledged ${critical.incident_id}`), {
      timeout: 20_000,
      interval: 20,
    });
    const incident = service.world.incidents.find((i) => i.incident_id === critical.incident_id)!;
    expect(incident.progress).toBe('Processing');
    expect(service.actions.comments.get(critical.incident_id)?.map((c) => c.text)).toEqual([
      'Auto-triage: paging the on-call for "checkout down"',
    ]);
    expect(service.world.incidents.find((i) => i.incident_id === minor.incident_id)?.progress).toBe('Triggered');
    // The sender's history shows the delivery succeeded; a redelivery of it is a duplicate, no second comment.
    const [record] = service.webhooks.history(hook.id, { incidentId: critical.incident_id });
    const again = await fetch(example.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Flashduty-Token': 'tok' },
      body: JSON.stringify(record!.request.payload),
    });
    expect(await again.json()).toEqual({ outcome: 'duplicate' });
    expect(service.actions.comments.get(critical.incident_id)).toHaveLength(1);
    service.webhooks.remove(hook.id);
  });

  it(
    'webhooks-bullmq: two receiver replicas and a worker handle an event delivered to both once',
    { timeout: 60_000 },
    async () => {
      const redis = await startRedis();
      servers.push(redis);
      const start = (role: string) => startServerExample('webhooks-bullmq.ts', { REDIS_URL: redis.url, ROLE: role });
      const [a, b] = await Promise.all([start('receiver'), start('receiver')]);
      children.push(a.child, b.child);
      const event = buildWebhookEvent('i_new', { incident: { title: 'queued once' } });
      const delivery = () => buildDelivery(event, { headers: { 'X-Flashduty-Token': 'tok' } }).init();
      const answers = await Promise.all([fetch(a.url, delivery()), fetch(b.url, delivery()), fetch(a.url, delivery())]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      const worker = spawnTied(process.execPath, ['--import', 'tsx', 'examples/webhooks-bullmq.ts'], {
        env: { ...env, REDIS_URL: redis.url, ROLE: 'worker', HOOK_TOKEN: 'tok' },
      });
      children.push(worker);
      let out = '';
      worker.stdout?.on('data', (c: Buffer) => (out += c.toString()));
      const ended = new Promise((resolve) => worker.stdout?.once('end', resolve));
      await vi.waitFor(() => expect(out).toContain(`handled i_new ${event.event_id}`), {
        timeout: 30_000,
        interval: 20,
      });
      // No second run: once the queue has nothing left to run and its one job completed, none can
      // follow. Then the worker is stopped, and its whole output read.
      const queue = new Queue('flashduty-webhooks', { connection: { host: '127.0.0.1', port: redis.port } });
      try {
        await vi.waitFor(
          async () =>
            expect(
              await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'),
            ).toEqual({ waiting: 0, active: 0, delayed: 0, prioritized: 0, completed: 1, failed: 0 }),
          { timeout: 30_000, interval: 20 },
        );
      } finally {
        await queue.close();
      }
      await stopChild(worker);
      await ended;
      expect(out.split(`handled i_new ${event.event_id}: queued once`)).toHaveLength(2);
    },
  );

  it('the Next.js route handler answers through its POST export', async () => {
    vi.stubEnv('FLASHDUTY_HOOK_TOKEN', 'next-token');
    const route = await import('../../../examples/nextjs/app/api/flashduty/route.js');
    const event = buildWebhookEvent('i_new');
    const res = await route.POST(
      buildDelivery(event, { headers: { 'x-flashduty-token': 'next-token' } }).request(
        'http://localhost/api/flashduty',
      ),
    );
    expect(res.status).toBe(200);
    expect(
      (await route.POST(buildDelivery(event, { headers: { 'x-flashduty-token': 'next-token' } }).request())).status,
    ).toBe(200);
    expect((await route.POST(buildDelivery(event).request())).status).toBe(401);
  });

  it('the Cloudflare Worker answers through its fetch export', async () => {
    const worker = (await import('../../../examples/cloudflare-worker/worker.js')).default;
    const env = { HOOK_TOKEN: 'worker-token' };
    const delivery = buildDelivery(buildWebhookEvent('i_ack'), { headers: { 'x-flashduty-token': 'worker-token' } });
    expect((await worker.fetch(delivery.request('https://hooks.example.com/hooks/flashduty'), env)).status).toBe(200);
    expect((await worker.fetch(delivery.request('https://hooks.example.com/elsewhere'), env)).status).toBe(404);
    const res = await worker.fetch(delivery.request('https://hooks.example.com/hooks/flashduty'), env);
    expect(await res.json()).toEqual({ outcome: 'duplicate' });
  });
});
