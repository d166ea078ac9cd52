// A receiver under a flood, for test/integration/stress/flood.test.ts: node:http + nodeMiddleware,
// the default memory store, and handlers that take HOLD_MS (longer than the ack deadline, so every
// delivery is answered at its deadline with its handlers still running). It measures each request
// from its arrival (the server's 'request' event) to the moment its answer left: when `res.end()`
// returned, its bytes written to the socket (on loopback a small answer is written there and then;
// 'finish' is only told a turn of the event loop later, and is measured too). `GET /stats` gives
// those figures and forgets them. Config: ACK_MS and HOLD_MS in the environment. Prints `LISTENING <port>`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookReceiver } from '../../../src/webhooks/index.js';

const ackTimeoutMs = Number(process.env.ACK_MS ?? 1_500);
const holdMs = Number(process.env.HOLD_MS ?? 3_000);
const receiver = new WebhookReceiver({ ackTimeoutMs, maxInFlight: 100_000, logger: false });
receiver.on('event', () => new Promise((resolve) => setTimeout(resolve, holdMs)));
const middleware = receiver.nodeMiddleware();

let answeredMs: number[] = [];
let finishedMs: number[] = [];
let statuses: Record<string, number> = {};
const server = createServer((req, res) => {
  if (req.method === 'GET') {
    res.end(JSON.stringify({ answeredMs, finishedMs, statuses }));
    answeredMs = [];
    finishedMs = [];
    statuses = {};
    return;
  }
  const arrived = performance.now();
  const end = res.end.bind(res);
  res.end = ((...args: Parameters<typeof res.end>) => {
    const ended = end(...args);
    answeredMs.push(performance.now() - arrived);
    return ended;
  }) as typeof res.end;
  res.on('finish', () => {
    finishedMs.push(performance.now() - arrived);
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
  });
  res.on('close', () => {
    if (!res.writableFinished) statuses.dropped = (statuses.dropped ?? 0) + 1;
  });
  middleware(req, res);
});
server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${(server.address() as AddressInfo).port}`));
