// receiver.nodeMiddleware() and receiver.fetchHandler load their adapter (its own chunk in dist/:
// adapters import the receiver, never the other way). A deployment that lacks that file, for a
// moment or for good: the failure goes to 'error', and the request is answered as a delivery not
// recorded (the node path closes its connection: the sender retries a closed connection, never an
// HTTP error; fetchHandler answers 503, never rejects for its framework to answer 500); once the
// file is back, the next request loads it and is answered. The built package, copied; the node
// server in a child process.
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, expect, it } from 'vitest';
import { buildDelivery, buildWebhookEvent } from '../../../src/testing/index.js';
import { spawnTied } from '../support/lifetime.js';
import { post } from '../support/adapters.js';

const dir = mkdtempSync(path.join(tmpdir(), 'fd-adapter-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
cpSync(path.resolve('dist'), path.join(dir, 'dist'), { recursive: true });
/** The ESM chunk that holds the node adapter (the one translating a node request). */
const chunkName = readdirSync(path.join(dir, 'dist')).find(
  (file) =>
    file.endsWith('.js') && readFileSync(path.join(dir, 'dist', file), 'utf8').includes('function requestOf(req)'),
) as string;
const chunk = path.join(dir, 'dist', chunkName);
const away = `${chunk}.away`;
writeFileSync(
  path.join(dir, 'server.mjs'),
  `import { createServer } from 'node:http';
import { WebhookReceiver } from './dist/webhooks/index.js';
const receiver = new WebhookReceiver({ logger: false });
receiver.on('error', (error) => console.log('ERROR ' + String(error).split('\\n')[0]));
const server = createServer(receiver.nodeMiddleware());
server.listen(0, '127.0.0.1', () => console.log('LISTENING ' + server.address().port));
`,
);

it("closes the connection while the adapter's file is missing, tells why, and answers once it is back", async () => {
  renameSync(chunk, away);
  const child = spawnTied(process.execPath, [path.join(dir, 'server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const next = async () => String((await lines.next()).value);
    const port = Number(/^LISTENING (\d+)$/.exec(await next())?.[1]);
    const url = `http://127.0.0.1:${port}/hooks`;
    const send = () => {
      const delivery = buildDelivery(buildWebhookEvent('i_ack'));
      return post(url, delivery.body, delivery.headers);
    };
    await expect(send()).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(await next()).toMatch(new RegExp(`^ERROR .*${chunkName.replace('.', '\\.')}`));
    renameSync(away, chunk);
    expect(await send()).toEqual({ status: 200, body: '{"outcome":"accepted"}' });
  } finally {
    child.kill('SIGKILL');
  }
});

it("answers 503 through fetchHandler while its adapter's file is missing, tells why, and answers once it is back", async () => {
  const fetchChunk = readdirSync(path.join(dir, 'dist')).find(
    (file) =>
      file.endsWith('.js') && readFileSync(path.join(dir, 'dist', file), 'utf8').includes('function responseOf(reply)'),
  ) as string;
  const file = path.join(dir, 'dist', fetchChunk);
  const { WebhookReceiver } = (await import(
    pathToFileURL(path.join(dir, 'dist/webhooks/index.js')).href
  )) as typeof import('../../../src/webhooks/index.js');
  const receiver = new WebhookReceiver({ logger: false });
  const errors: string[] = [];
  receiver.on('error', (error) => void errors.push(String(error)));
  const send = () => {
    const delivery = buildDelivery(buildWebhookEvent('i_ack'));
    return receiver.fetchHandler(delivery.request('http://localhost/hooks'));
  };
  renameSync(file, `${file}.away`);
  try {
    const refused = await send();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ outcome: 'rejected', reason: 'not recorded' });
    expect(errors).toEqual([expect.stringContaining(fetchChunk)]);
  } finally {
    renameSync(`${file}.away`, file);
  }
  const answered = await send();
  expect(answered.status).toBe(200);
  expect(await answered.json()).toEqual({ outcome: 'accepted' });
});
