// The BUILT package (dist/) under Bun, Deno and workerd (through Miniflare), each a real runtime
// from npm: the client against the mock over HTTP on loopback, and the webhook receiver's
// fetchHandler given deliveries built by the testing entry. The mock runs here, in Node; the
// checks (test/runtimes/checks.ts) run in the runtime and report plain data.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterEach, describe, expect, it } from 'vitest';
import { buildWebhookEvent, createMockService, type MockService } from '../../../src/testing/index.js';
import { CLIENT_FAULTS, type MockAddress, webhookScenario } from './runtimes/checks.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);

type Report = { client: Awaited<ReturnType<typeof import('./runtimes/checks.js').clientChecks>> };

let stop: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stop.map((close) => close()));
  stop = [];
});

async function startMock(): Promise<{ service: MockService; address: MockAddress }> {
  const service = createMockService({ seed: 13, incidents: 60 });
  for (const fault of CLIENT_FAULTS) service.faults.add(fault);
  const server = await service.listen();
  stop.push(() => server.close());
  return { service, address: { baseUrl: server.url, appKey: service.appKey } };
}

function expectClient({ client }: Report, service: MockService): void {
  expect(client.pageItems).toBe(5);
  expect(client.walked).toBeGreaterThan(5);
  expect(client.distinct).toBe(client.walked);
  expect(client.twice).toMatchObject({ name: 'InvalidParameterError', flashduty: true, invalidParameter: true });
  expect(client.badKey).toMatchObject({ name: 'UnauthorizedError', flashduty: true, unauthorized: true });
  expect(client.badKey.message).not.toContain('not-a-key');
  expect(client.invalid).toMatchObject({ name: 'RequestValidationError', flashduty: true, requestValidation: true });
  expect(client.timedOut).toMatchObject({ name: 'APIConnectionTimeoutError', flashduty: true, timeout: true });
  expect(client.aborted).toMatchObject({ name: 'APIUserAbortError', flashduty: true, userAbort: true });
  // The 503 was retried, and every queued fault was played.
  const lists = service.callLog.filter((call) => call.path === '/incident/list').map((call) => call.status);
  expect(lists.slice(0, 2)).toEqual([503, 200]);
  expect(service.faults.pending).toBe(0);
}

type Scenario = Awaited<ReturnType<typeof webhookScenario>>;
function expectWebhooks(webhooks: Scenario, seen: string[]): void {
  expect(webhooks.first).toEqual({ status: 200, body: '{"outcome":"accepted"}' });
  expect(webhooks.again).toEqual({ status: 200, body: '{"outcome":"duplicate"}' });
  expect(webhooks.wrongToken.status).toBe(401);
  expect(webhooks.wrongType.status).toBe(415);
  expect(webhooks.get.status).toBe(405);
  expect(webhooks.invalid.status).toBe(400);
  expect(JSON.parse(webhooks.invalid.body)).toMatchObject({
    outcome: 'rejected',
    reason: expect.stringMatching(/at incident\.incident_id/),
  });
  expect(seen).toEqual([expect.stringMatching(new RegExp(`^i_new ${webhooks.eventId} #\\d+$`)), 'event i_new']);
}

describe.each([
  ['Bun', [bin('bun'), 'test/integration/package/runtimes/standalone.ts']],
  // Only the permissions a user grants: the network on loopback and reading the project.
  [
    'Deno',
    [
      bin('deno'),
      'run',
      '--no-lock',
      '--no-prompt',
      '--unstable-sloppy-imports',
      '--allow-net=127.0.0.1',
      `--allow-read=${root}`,
      'test/integration/package/runtimes/standalone.ts',
    ],
  ],
])('the built package under %s', (_name, [command, ...args]) => {
  it('calls the mock over HTTP, serves fetchHandler, and exits by itself', { timeout: 60_000 }, async () => {
    const { service, address } = await startMock();
    // The runtime must end on its own: a handle left open (a timer, a socket, a channel) fails the test.
    const { stdout } = await run(command as string, [...args, JSON.stringify(address)], {
      cwd: root,
      timeout: 45_000,
      killSignal: 'SIGKILL',
    });
    const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
    expect(line, stdout).toBeDefined();
    const report = JSON.parse((line as string).slice('RESULT '.length)) as Report & {
      webhooks: Scenario;
      seen: string[];
    };
    expectClient(report, service);
    expectWebhooks(report.webhooks, report.seen);
  });
});

/** A Worker of test/integration/package/runtimes/, bundled as wrangler does (esbuild) and run by Miniflare. */
async function startWorker(file: string): Promise<Miniflare> {
  const bundle = await build({
    entryPoints: [path.join(root, 'test/integration/package/runtimes', file)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    // What a Worker cannot load stays out: msw (an optional peer) and the mock's node:http server.
    external: ['msw', 'node:*'],
    logLevel: 'silent',
  });
  const mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0]?.text as string,
    compatibilityDate: '2026-04-01',
  });
  stop.push(() => mf.dispose());
  return mf;
}

describe('the built package under workerd (Miniflare)', () => {
  it(
    'calls the mock over HTTP from a Worker and receives deliveries with fetchHandler',
    { timeout: 60_000 },
    async () => {
      const mf = await startWorker('worker.ts');
      const { service, address } = await startMock();

      const client = await mf.dispatchFetch(`http://worker/client?mock=${encodeURIComponent(JSON.stringify(address))}`);
      expect(client.status).toBe(200);
      expectClient({ client: (await client.json()) as Report['client'] }, service);

      const webhooks = await webhookScenario(
        async (init) => (await mf.dispatchFetch('http://worker/hooks', init as never)) as unknown as Response,
      );
      expectWebhooks(webhooks, (await (await mf.dispatchFetch('http://worker/seen')).json()) as string[]);
    },
  );
});

describe('deadlines under workerd (Miniflare)', () => {
  it(
    "answers by the deadline after the request whose timer watched it was answered (a request's timers go with it)",
    { timeout: 60_000 },
    async () => {
      const mf = await startWorker('deadline-worker.ts');
      const deliver = async (eventId: string) => {
        const started = performance.now();
        const answer = await mf.dispatchFetch('http://worker/hooks', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(buildWebhookEvent('i_ack', { event_id: eventId })),
        });
        return { status: answer.status, body: await answer.text(), ms: performance.now() - started };
      };
      await deliver('warm-up'); // the adapter and the state store load
      for (let round = 0; round < 3; round++) {
        // The quick one waits first (its body), so the deadlines' timer is set in its request.
        const quick = deliver(`quick-${round}`);
        const slow = deliver(`slow-${round}`);
        expect((await quick).status).toBe(200);
        const answered = await slow;
        // Its handler still runs at the deadline: accepted then, not when the handler ends (3 s).
        expect(answered).toMatchObject({ status: 200, body: '{"outcome":"accepted"}' });
        expect(answered.ms).toBeLessThan(1500);
      }
    },
  );
});
