// `flashduty webhooks listen` through the real bin, in a child process, against a mock service on
// loopback whose webhook integration points where the service cannot reach (a laptop's receiver has
// no public URL): deliveries made while it runs, in rounds that span several polls, are each
// forwarded once, with their recorded body and headers (the integration's secret among them), to a
// real WebhookReceiver on node:http, and printed with the receiver's outcome; none made before it
// started unless --since asks for them; Ctrl-C (SIGINT) ends it with exit 0.
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../../src/testing/index.js';
import { type WebhookEvent, WebhookReceiver } from '../../../src/webhooks/index.js';
import { spawnTied, stopChild } from '../support/lifetime.js';
import { BIN, serve } from './support.js';

const service = createMockService({ incidents: 5 });
const server = await service.listen();
afterAll(() => server.close());
const env = { FLASHDUTY_BASE_URL: server.url, FLASHDUTY_APP_KEY: service.appKey };
// The service's own deliveries fail: nothing listens there.
const hook = service.webhooks.create({
  endpoint: 'http://127.0.0.1:1/hooks',
  headers: { 'X-Flashduty-Token': 's3cret' },
});

/** A real receiver that wants the integration's secret: what it took, and how. */
async function receiver() {
  const webhooks = new WebhookReceiver({ logger: false, secret: { header: 'x-flashduty-token', values: ['s3cret'] } });
  const seen: Array<{ outcome: string; event: WebhookEvent }> = [];
  webhooks.on('event', (event) => void seen.push({ outcome: 'event', event }));
  webhooks.on('duplicate', (event) => void seen.push({ outcome: 'duplicate', event }));
  webhooks.on('stale', (event) => void seen.push({ outcome: 'stale', event }));
  const { url, requests } = await serve(webhooks.nodeMiddleware());
  return { url, seen, requests };
}

/** Deliveries of the service: `n` incidents made and acked, each two events; their event ids, once all are recorded. */
async function deliveries(n: number): Promise<string[]> {
  const before = new Set(service.webhooks.history(hook.id).map((record) => record.event_id));
  for (let i = 0; i < n; i++) {
    const { incident_id } = await service.actions.create({ title: `disk ${i}`, incident_severity: 'Warning' });
    await service.actions.ack(incident_id, service.personId);
  }
  await service.webhooks.idle();
  return service.webhooks
    .history(hook.id)
    .map((record) => record.event_id)
    .filter((id) => !before.has(id));
}

/** `flashduty webhooks listen …` in a child process: its JSON lines as they come, and how it ended. */
function listen(args: string[]) {
  const child: ChildProcess = spawnTied(
    process.execPath,
    [BIN, 'webhooks', 'listen', '--integration', String(hook.id), '--interval', '1s', '--json', ...args],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  afterAll(() => stopChild(child));
  const rows: Array<Record<string, unknown>> = [];
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const lines = stdout.split('\n');
    stdout = lines.pop() as string;
    for (const line of lines) rows.push(JSON.parse(line) as Record<string, unknown>);
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, rows, ended, stderr: () => stderr };
}

/** Resolves when `done()` holds, checking every 50 ms; fails the test after `ms`. */
async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('flashduty webhooks listen', () => {
  it('forwards each delivery made while it runs once, with its headers, none skipped between polls; Ctrl-C: exit 0', async () => {
    const earlier = await deliveries(1);
    const into = await receiver();
    const run = listen(['--to', `${into.url}/hooks`]);
    await until(() => run.stderr().includes('Ctrl-C to stop'), 10_000, 'the banner');
    // Rounds a moment apart: some land within a poll's interval, some between polls.
    const made: string[] = [];
    for (const [n, wait] of [
      [1, 0],
      [2, 300],
      [1, 1_100],
      [2, 700],
      [1, 1_500],
    ] as const) {
      await pause(wait);
      made.push(...(await deliveries(n)));
    }
    expect(made).toHaveLength(14);
    await until(() => run.rows.length >= made.length, 15_000, `${made.length} deliveries forwarded`);
    await pause(2_500); // two more polls: nothing is forwarded again
    run.child.kill('SIGINT');
    expect(await run.ended).toEqual({ code: 0, signal: null });

    expect(run.rows.map((row) => row.event_id).sort()).toEqual([...made].sort());
    for (const id of earlier) expect(run.rows.map((row) => row.event_id)).not.toContain(id);
    // Each was accepted (its recorded secret header went with it), and none came twice.
    expect(run.rows.every((row) => row.http_status === 200 && row.outcome === 'accepted' && row.ok === true)).toBe(
      true,
    );
    expect(into.seen.map((entry) => entry.outcome)).toEqual(made.map(() => 'event'));
    expect(into.requests).toHaveLength(made.length);
    expect(new Set(into.seen.map((entry) => entry.event.event_type))).toEqual(new Set(['i_new', 'i_ack']));
    expect(run.rows[0]).toMatchObject({ event_type: expect.any(String), event_time: expect.any(String) });
    expect(run.stderr()).toBe(
      `flashduty: forwarding the new deliveries of integration ${hook.id} to ${into.url}/hooks, asking every 1s; Ctrl-C to stop\n`,
    );
  }, 60_000);

  it('--since forwards what was recorded before it started too', async () => {
    const into = await receiver();
    const recorded = service.webhooks.history(hook.id).map((record) => record.event_id);
    const run = listen(['--since', '10m', '--to', into.url]);
    await until(() => run.rows.length >= recorded.length, 15_000, `${recorded.length} recorded deliveries forwarded`);
    run.child.kill('SIGINT');
    expect(await run.ended).toEqual({ code: 0, signal: null });
    expect(run.rows.map((row) => row.event_id).sort()).toEqual([...new Set(recorded)].sort());
  }, 30_000);
});
