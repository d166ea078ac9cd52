// The built package (dist/) when an adapter's code cannot load (a chunk missing from a deploy, a
// file system that failed for a moment): the receiver loads its node and fetch adapters apart, and
// a request that meets such a failure is told to 'error' and answered as a delivery not recorded
// (the connection closed, 503 from fetchHandler), the same as its sender is told for a store that
// failed: never a rejected promise for the framework to turn into a 500, never a crash.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';

const dist = path.resolve(import.meta.dirname, '../../../dist');
let copy: string;
let Receiver: typeof import('../../../src/webhooks/index.js').WebhookReceiver;

beforeAll(async () => {
  copy = mkdtempSync(path.join(tmpdir(), 'fd-adapter-load-'));
  cpSync(dist, copy, { recursive: true });
  // The ESM chunks of the two adapters the receiver loads apart, gone.
  const adapters = readdirSync(copy).filter(
    (file) =>
      file.endsWith('.js') && /^export \{[^}]*\b(requestOf|send)\b/m.test(readFileSync(path.join(copy, file), 'utf8')),
  );
  expect(adapters.length).toBeGreaterThanOrEqual(2);
  for (const file of adapters) rmSync(path.join(copy, file));
  ({ WebhookReceiver: Receiver } = (await import(
    pathToFileURL(path.join(copy, 'webhooks/index.js')).href
  )) as typeof import('../../../src/webhooks/index.js'));
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

function receiver() {
  const errors: unknown[] = [];
  const handled: unknown[] = [];
  const made = new Receiver({ logger: false });
  made.on('error', (error) => void errors.push(error));
  made.on('event', (event) => void handled.push(event));
  return { receiver: made, errors, handled };
}

describe('an adapter whose code cannot load', () => {
  it('fetchHandler answers 503 not recorded and tells the failure to error, each time', async () => {
    const { receiver: r, errors, handled } = receiver();
    for (let i = 0; i < 2; i++) {
      const response = await r.fetchHandler(buildDeliveryRequest());
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ outcome: 'rejected', reason: 'not recorded' });
    }
    expect(errors).toHaveLength(2);
    expect(String(errors[0])).toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
    expect(handled).toEqual([]);
  });

  it('nodeMiddleware() closes the connection without an answer (the sender retries) and tells the failure to error', async () => {
    const { receiver: r, errors } = receiver();
    const middleware = r.nodeMiddleware();
    const server = createServer((req, res) => middleware(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const outcome = await new Promise<string>((resolve) => {
        const req = httpRequest(
          { port, host: '127.0.0.1', method: 'POST', agent: false, headers: { 'Content-Type': 'application/json' } },
          (res) => resolve(`status ${res.statusCode}`),
        );
        req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        req.end(JSON.stringify(buildWebhookEvent('i_new')));
      });
      expect(outcome).toBe('ECONNRESET');
      expect(errors.length).toBeGreaterThanOrEqual(1);
      expect(String(errors[0])).toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

function buildDeliveryRequest(): Request {
  return new Request('http://localhost/hook', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(buildWebhookEvent('i_new')),
  });
}
