// The resource methods against the vendor's OpenAPI as a schema-driven mock serves it: Prism (a child
// process on a loopback port, stopped with the file, even when a test fails) answers each operation
// from the OpenAPI's examples and schemas and refuses a request that breaks them (422). So this checks
// our bodies and our reading of the answers against the vendor's description itself, not against our
// mock: the one description scripts/generate/merge.ts makes of the two vendored files, written to a
// temporary file for Prism to read.
// Prism is pinned apart in tools/prism; `npm install` puts it there (the `prepare` script), and
// `npm test` does too when it is missing: without it this file fails, it is never skipped.

import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Flashduty, InvalidParameterError, type ListPage, type OperationPath } from '../../../src/index.js';
import { OPERATIONS } from '../../../src/operations.js';
import { closedPort } from '../../helpers.js';
import { spawnTied, stopChild } from '../support/lifetime.js';
import { callMethod, OPERATION_CASES } from '../support/operations.js';
import { DESCRIPTION } from '../../openapi.js';

const PRISM = fileURLToPath(
  new URL('../../../tools/prism/node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url),
);
/** Prism reads and resolves the whole OpenAPI before it listens: seconds, more on a loaded machine. */
const STARTUP_MS = 180_000;

if (!existsSync(PRISM))
  throw new Error(`Prism is not installed (${PRISM}): run npm install, or npm ci --prefix tools/prism`);

const ID = '5f8a1b2c3d4e5f6a7b8c9d0e';
const OTHER = '5f8a1b2c3d4e5f6a7b8c9d0f';
const now = Math.floor(Date.now() / 1000);
const lastDay = { start_time: now - 86_400, end_time: now };

/**
 * Operations that fail through Prism because of the description, not of Prism or the client: Prism
 * refuses the OpenAPI's own request example, or answers its example (else a value made from its
 * schema) in a shape the client refuses.
 */
const PRISM_ANSWERS_REFUSED: Record<string, string> = {
  // The examples' link URL is a template (`https://…?app=${application_id}…`): no URI to Prism's format check.
  '/rum/application/create': 'InvalidParameterError: The specified parameter is not valid.',
  '/rum/application/update': 'InvalidParameterError: The specified parameter is not valid.',
  // The newer file's example envelope is `{ error_code: 0, data }`: no request_id (every other has one).
  '/account/info': 'ResponseValidationError: Invalid response envelope: no request_id in the body or headers',
  // The export's NDJSON answer has no example and the type `string` only: Prism makes up a text, no lines.
  '/safari/session/export': 'ResponseValidationError: Invalid NDJSON answer: line 1 is not a JSON object',
};

/** A trigger as Prism takes it: any id, any bearer token. */
const PRISM_TRIGGER = { trigger_id: 'atrig_2bLq4xT8mP1sWd9cN3rF6y', token: 'prism-trigger-token' };

let prism: ChildProcess | undefined;
let client: Flashduty;
/** Where the description is written for Prism; removed with Prism. */
let directory: string | undefined;

/** Starts Prism on a free loopback port; resolves with its base URL once it listens, rejects with its output if it exits first. */
async function startPrism(): Promise<string> {
  const port = await closedPort();
  directory = mkdtempSync(path.join(tmpdir(), 'flashduty-prism-'));
  const openapi = path.join(directory, 'openapi.json');
  writeFileSync(openapi, JSON.stringify(DESCRIPTION));
  const child = spawnTied(process.execPath, [PRISM, 'mock', '--host', '127.0.0.1', '--port', String(port), openapi], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  prism = child;
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`Prism exited (${code}) before listening:\n${output.slice(-2_000)}`)),
    );
  });
  // Drained from here on, so that a full pipe never blocks it.
  child.stdout?.resume();
  child.stderr?.resume();
  return `http://127.0.0.1:${port}`;
}

describe('the resource methods against the vendor OpenAPI served by Prism', () => {
  beforeAll(async () => {
    const baseUrl = await startPrism();
    client = new Flashduty({ appKey: 'prism-app-key', baseUrl, rateLimit: false, logLevel: 'off', maxRetries: 0 });
  }, STARTUP_MS);

  afterAll(async () => {
    if (prism) await stopChild(prism);
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('incidents: detail, by ids, create and every lifecycle action', async () => {
    const ids = { incident_ids: [ID] };
    expect(await client.incidents.info({ incident_id: ID })).toMatchObject({ incident_id: expect.any(String) });
    expect(await client.incidents.listByIds(ids)).toMatchObject({ items: expect.any(Array) });
    expect(await client.incidents.create({ incident_severity: 'Critical', title: 'disk full on db-1' })).toMatchObject({
      incident_id: expect.any(String),
    });
    await client.incidents.ack(ids);
    await client.incidents.unack(ids);
    await client.incidents.comment({ ...ids, comment: 'rolling back' });
    await client.incidents.snooze({ ...ids, minutes: 30 });
    await client.incidents.wake(ids);
    await client.incidents.assign({ incident_id: ID, assigned_to: { person_ids: [1001] } });
    await client.incidents.addResponder({ incident_id: ID, person_ids: [1002] });
    await client.incidents.reset({ incident_id: ID, title: 'disk full on db-1 (primary)' });
    await client.incidents.resolve({ ...ids, root_cause: 'log rotation stopped' });
    await client.incidents.reopen(ids);
    await client.incidents.merge({ source_incident_ids: [OTHER], target_incident_id: ID });
    await client.incidents.remove(ids);
  });

  it('lists: incidents, an incident timeline, alerts, an alert’s events, channels, webhook history', async () => {
    const incidents = await client.listIncidents(lastDay);
    expect(incidents.items.length).toBeGreaterThan(0);
    expect(incidents.items[0]).toMatchObject({ incident_id: expect.any(String) });
    expect((await client.incidents.feed({ incident_id: ID })).items).toEqual(expect.any(Array));
    const alerts = await client.alerts.list(lastDay);
    expect(alerts.items).toEqual(expect.any(Array));
    expect((await client.alerts.events({ alert_id: ID })).items).toEqual(expect.any(Array));
    expect((await client.channels.list({})).items).toEqual(expect.any(Array));
    const history = await client.webhookHistory.list({
      start_time: new Date(Date.now() - 86_400_000),
      end_time: new Date(),
    });
    expect(history.items).toEqual(expect.any(Array));
  });

  it('details: an alert, a channel, a webhook delivery', async () => {
    expect(await client.alerts.info({ alert_id: ID })).toMatchObject({ alert_id: expect.any(String) });
    expect(await client.channels.info({ channel_id: 2_551_105_804_131 })).toMatchObject({
      channel_id: expect.any(Number),
    });
    expect(await client.webhookHistory.detail({ integration_id: 2_490_562_293_131, event_id: 'evt-1' })).toMatchObject({
      event_id: expect.any(String),
    });
  });

  it('every generated method, through the method: Prism accepts each body and the client reads each answer', async () => {
    // Where Prism's answer is the vendor's description's fault, the client must refuse it, and say why.
    const expected = Object.entries(PRISM_ANSWERS_REFUSED).map(
      ([path, because]) => `${path} (${OPERATIONS[path as OperationPath].method}): ${because}`,
    );
    const refused: string[] = [];
    for (const { path, info, body } of OPERATION_CASES) {
      // The trigger's own token: Prism checks that the call carries a bearer token, as the OpenAPI's security asks.
      const result = callMethod(client, info.method, body, PRISM_TRIGGER) as PromiseLike<unknown>;
      const outcome = await Promise.resolve(result).then(
        (value) => value,
        (error: unknown) => error,
      );
      if (outcome instanceof Error)
        refused.push(`${path} (${info.method}): ${outcome.name}: ${outcome.message.slice(0, 120)}`);
      else if (info.paging) expect((outcome as ListPage<unknown>).items, path).toEqual(expect.any(Array));
    }
    expect(refused).toEqual(expected);
  });

  it('client.request(path, body) for an operation without a method', async () => {
    expect(await client.request('/incident/alert/list', { incident_id: ID })).toBeDefined();
  });

  it('Prism checks an upload’s form too: the skill upload sent as a form, one without its file refused', async () => {
    const url = `${client.baseUrl}/safari/skill/upload?app_key=prism-app-key`;
    const form = new FormData();
    form.append('file', new File(['PK'], 'k8s-triage.zip'));
    form.append('replace', 'true');
    expect((await fetch(url, { method: 'POST', body: form })).status).toBe(200);
    const empty = new FormData();
    empty.append('replace', 'true');
    expect((await fetch(url, { method: 'POST', body: empty })).status).not.toBe(200);
  });

  it('Prism does check bodies: one that breaks the OpenAPI gets its 400 answer, InvalidParameterError', async () => {
    // An enum value the OpenAPI does not list: the one rule client.request leaves to the server.
    const refused = await client
      .request('/incident/reset', { incident_id: ID, incident_severity: 'Fatal' as never })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidParameterError);
    expect(refused).toMatchObject({ status: 400 });
  });
});
