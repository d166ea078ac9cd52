// `npm run trace:delivery`: a debugger steps through one webhook delivery, statement by statement,
// and says which source files it ran code in (in the order first entered) and every time it called
// back into a file already on the stack below another file (a callback into a caller, which a
// reader following the code top-down cannot see coming). The receiver runs in this process with
// `nodeMiddleware()` on node:http, the default store, a synchronous handler and no tracer; after a
// few warm-up deliveries, one more is sent from a child process (so no client code is stepped
// through), and a worker thread steps through it with node:inspector (trace-delivery/stepper.mjs),
// from a `debugger` statement in the server's handler until the answer came back. Prints JSON.

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What the trace found. */
export interface DeliveryTrace {
  /** Source files (relative to the root) the delivery ran code in, in the order first entered. */
  files: string[];
  /** Each call back into a file on the stack below another file: the stack's files, outermost first. */
  reentries: string[];
  /** Statements stepped through. */
  steps: number;
  /** The delivery's answer, as the sender saw it. */
  answer: string;
}

/** The main thread: a receiver on loopback, warmed, then one delivery stepped through. */
async function main(): Promise<DeliveryTrace> {
  const { WebhookReceiver } = await import('../src/webhooks/index.js');
  const { buildDelivery, buildWebhookEvent } = await import('../src/testing/index.js');
  // Stepping takes seconds of wall time: a deadline of the default 1.5 s would cut the delivery short.
  const receiver = new WebhookReceiver({ logger: false, ackTimeoutMs: 600_000 });
  receiver.on('i_new', () => {});
  const middleware = receiver.nodeMiddleware();
  let traced = false;
  const server = createServer((req, res) => {
    if (traced) debugger; // eslint-disable-line no-debugger -- the worker starts stepping here
    middleware(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  /** One delivery, sent from a child process: resolves with the answer's body. */
  const send = (id: string) => {
    const { body, headers } = buildDelivery(buildWebhookEvent('i_new', { event_id: id }));
    const script = `fetch(${JSON.stringify(url)}, { method: 'POST', headers: ${JSON.stringify(headers)}, body: ${JSON.stringify(body)} }).then((r) => r.text()).then((t) => process.stdout.write(t))`;
    return new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('error', reject);
      child.on('exit', () => resolve(out));
    });
  };
  try {
    for (let i = 0; i < 5; i++) await send(`warm-${i}`);
    const worker = new Worker(path.join(root, 'scripts/trace-delivery/stepper.mjs'), { workerData: { root } });
    const found = new Promise<Omit<DeliveryTrace, 'answer'>>((resolve, reject) => {
      worker.on('message', (message) => message !== 'ready' && resolve(message as Omit<DeliveryTrace, 'answer'>));
      worker.on('error', reject);
    });
    await new Promise<void>((resolve) => worker.once('message', () => resolve()));
    traced = true;
    const answer = await send('traced');
    traced = false;
    worker.postMessage('stop');
    const trace = await found;
    await worker.terminate();
    return { ...trace, answer };
  } finally {
    server.close();
  }
}

process.stdout.write(`${JSON.stringify(await main(), null, 2)}\n`);
