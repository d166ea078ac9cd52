// receiver.nodeMiddleware() loads the node adapter (its own chunk in dist/: adapters import the
// receiver, never the other way). A deployment that
// lacks that file, for a moment or for good: the request's connection is closed (the sender retries
// a closed connection, never an HTTP error) and the failure goes to 'error'; once the file is back,
// the next request loads it and is answered. The built package, copied, in a child process.
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
