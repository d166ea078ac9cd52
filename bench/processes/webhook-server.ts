// The servers of the webhook benchmark, in their own process so the load generator does not
// share their event loop: `bare` reads the body, JSON.parses it and answers 200; `sdk` is
// receiver.nodeMiddleware() with the default MemoryStateStore and one no-op handler; `sdk-async`
// the same with an async no-op handler (a promise to wait for, within the ack deadline).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookReceiver } from '../../dist/webhooks/index.js';

const kind = process.argv[2];
let handler: Parameters<typeof createServer>[1];
if (kind === 'bare') {
  handler = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString());
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"outcome":"accepted"}');
    });
  };
} else {
  const receiver = new WebhookReceiver();
  receiver.on('event', kind === 'sdk-async' ? async () => {} : () => {});
  const middleware = receiver.nodeMiddleware();
  handler = (req, res) => middleware(req, res);
}
const server = createServer(handler);
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${(server.address() as AddressInfo).port}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0)); // lets --cpu-prof write its profile
