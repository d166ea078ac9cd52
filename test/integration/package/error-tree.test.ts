// One class tree of errors, whatever the entry and the format: what `flashduty-sdk`, `/webhooks`
// and `/testing` throw (at construction, from a call, from a delivery whose queue or store fails,
// from the mock's options, integrations and actions)
// is `instanceof` the classes `require('flashduty-sdk')` (CommonJS) and `import 'flashduty-sdk'`
// (ESM) export, and so is it once an app is bundled by esbuild. The built package, through its own
// exports map, in child processes (as an app loads it).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
// Inside the package (.tmp/ is ignored by git), so that `flashduty-sdk` resolves to it by its own name.
mkdirSync(path.join(root, '.tmp'), { recursive: true });
const scratch = mkdtempSync(path.join(root, '.tmp', 'error-tree-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * The checks, as the body of an async function given the loaded entries: each provokes an error
 * from one entry and tells whether it is an instance of the root entry's class.
 */
const CHECKS = `
  const caught = async (make) => { try { await make(); } catch (error) { return error; } return undefined; };
  const { ConfigError, FlashdutyError, RequestValidationError, Flashduty } = root;
  const { WebhookReceiver, MemoryStateStore, CustomBodyError, DeadlineExceededError } = webhooks;
  const headers = { 'content-type': 'application/json' };
  const event = JSON.stringify(testing.buildWebhookEvent('i_new'));
  const results = {};
  results.clientOption = (await caught(() => new Flashduty({ baseURL: 'https://x' }))) instanceof ConfigError;
  results.clientParams =
    (await caught(() => new Flashduty({ appKey: 'k' }).incidents.list({ start_time: 'soon', end_time: 1 }))) instanceof
    RequestValidationError;
  results.receiverOption = (await caught(() => new WebhookReceiver({ ackTimeoutMs: -5 }))) instanceof ConfigError;
  results.storeOption = (await caught(() => new MemoryStateStore({ maxEntries: -1 }))) instanceof ConfigError;
  const template = await caught(() => new WebhookReceiver({ customBody: { template: { a: 1 } } }));
  results.customBody = template instanceof CustomBodyError && template instanceof FlashdutyError;
  // A queue whose connection cannot send WAIT: found with the first delivery, in the queue side's code.
  const queue = { add: async () => {}, client: Promise.resolve({}) };
  const queued = await new WebhookReceiver({ queue, waitForReplicas: 1, logger: false }).receive({ body: event, headers });
  results.queueSide = queued.status === 503 && queued.error instanceof ConfigError;
  const store = new MemoryStateStore();
  store.claim = () => new Promise(() => {});
  const slow = await new WebhookReceiver({ store, ackTimeoutMs: 20, logger: false }).receive({ body: event, headers });
  results.deadline = slow.error instanceof DeadlineExceededError && slow.error instanceof FlashdutyError;
  const job = await caught(() => new WebhookReceiver({ logger: false }).processor()({ id: 'fd-1', data: {} }));
  results.worker = job instanceof FlashdutyError;
  results.mockOption = (await caught(() => testing.createMockService({ incidnets: 10 }))) instanceof ConfigError;
  const service = testing.createMockService({ seed: 1, incidents: 0 });
  results.mockWebhook = (await caught(() => service.webhooks.create({ endpoint: 'not a url' }))) instanceof ConfigError;
  const action = await caught(() => service.actions.ack('no such incident', service.personId));
  results.mockAction = action instanceof testing.MockActionError && action instanceof FlashdutyError;
  process.stdout.write(JSON.stringify(results));
`;

const EXPECTED = {
  clientOption: true,
  clientParams: true,
  receiverOption: true,
  storeOption: true,
  customBody: true,
  queueSide: true,
  deadline: true,
  worker: true,
  mockOption: true,
  mockWebhook: true,
  mockAction: true,
};

/** Runs `file` with Node in the package's root (so that `flashduty-sdk` resolves to the build). */
async function results(file: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, [file], { cwd: root });
  return JSON.parse(stdout);
}

describe('one class tree of errors', () => {
  it('in CommonJS: require() of each entry', async () => {
    const file = path.join(scratch, 'app.cjs');
    writeFileSync(
      file,
      `const root = require('flashduty-sdk');
const webhooks = require('flashduty-sdk/webhooks');
const testing = require('flashduty-sdk/testing');
(async () => { ${CHECKS} })();`,
    );
    expect(await results(file)).toEqual(EXPECTED);
  });

  it('in ESM: import of each entry', async () => {
    const file = path.join(scratch, 'app.mjs');
    writeFileSync(
      file,
      `import * as root from 'flashduty-sdk';
import * as webhooks from 'flashduty-sdk/webhooks';
import * as testing from 'flashduty-sdk/testing';
${CHECKS}`,
    );
    expect(await results(file)).toEqual(EXPECTED);
  });

  it.each(['esm', 'cjs'] as const)(
    'in an app bundled by esbuild (%s, code splitting where it has it)',
    async (format) => {
      // Written as such an app is: an ES module imports the entries, a CommonJS one requires them.
      const entry = path.join(scratch, `app-${format}.${format === 'esm' ? 'mjs' : 'cjs'}`);
      const load =
        format === 'esm'
          ? `import * as root from 'flashduty-sdk';
import * as webhooks from 'flashduty-sdk/webhooks';
import * as testing from 'flashduty-sdk/testing';`
          : `const root = require('flashduty-sdk');
const webhooks = require('flashduty-sdk/webhooks');
const testing = require('flashduty-sdk/testing');`;
      writeFileSync(entry, `${load}\n(async () => { ${CHECKS} })();`);
      const outdir = path.join(scratch, `out-${format}`);
      const out = path.join(outdir, `app-${format}.${format === 'esm' ? 'mjs' : 'cjs'}`);
      await build({
        entryPoints: [entry],
        bundle: true,
        platform: 'node',
        format,
        splitting: format === 'esm',
        outdir,
        outExtension: { '.js': format === 'esm' ? '.mjs' : '.cjs' },
        external: ['msw', 'msw/*'],
        tsconfigRaw: {}, // the package as published: never src/ through this repository's tsconfig paths
        logLevel: 'silent',
      });
      expect(await results(out)).toEqual(EXPECTED);
    },
  );
});
