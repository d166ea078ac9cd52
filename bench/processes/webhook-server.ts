// The servers of the webhook benchmark, in their own process so the load generator does not
// share their event loop:
//   bare        reads the body, JSON.parses it and answers 200
//   sdk         receiver.nodeMiddleware() with the default MemoryStateStore and one no-op handler
//   sdk-async   the same with an async no-op handler (a promise to wait for, within the ack deadline)
//   bare-queue  bare, plus BullMQ's queue.add(type, event, { jobId: event_id }) before the 200
//   sdk-queue   receiver.nodeMiddleware() with that queue (the durable handoff)
//   octokit     @octokit/webhooks' createNodeMiddleware with its secret (HMAC-SHA256 checked on
//               every request) and one no-op handler: the receiver GitHub users reach for
//   express     express 5 with express.json() and a Map of event ids for dedup, one no-op handler
// The queue kinds take the port of a redis-server as the second argument.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeMiddleware, Webhooks } from '@octokit/webhooks';
import { Queue } from 'bullmq';
import express from 'express';
import { WebhookReceiver } from '../../dist/webhooks/index.js';

const kind = process.argv[2] ?? 'bare';
const redisPort = Number(process.argv[3]);
const queue = kind.endsWith('-queue')
  ? new Queue(`bench-${kind}`, { connection: { host: '127.0.0.1', port: redisPort, maxRetriesPerRequest: null } })
  : undefined;

let handler: Parameters<typeof createServer>[1];
if (kind.startsWith('bare')) {
  handler = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString()) as { event_type: string; event_id: string };
      const answer = () => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"outcome":"accepted"}');
      };
      if (!queue) return answer();
      queue.add(event.event_type, event, { jobId: `fd-${event.event_id}` }).then(answer, () => {
        res.writeHead(503);
        res.end();
      });
    });
  };
} else if (kind === 'octokit') {
  const webhooks = new Webhooks({ secret: 'bench-secret' }); // bench/webhooks.ts signs with the same
  webhooks.on('issues', () => {});
  const middleware = createNodeMiddleware(webhooks, { path: '/hooks' });
  handler = (req, res) => void middleware(req, res);
} else if (kind === 'express') {
  const app = express();
  const seen = new Map<string, number>();
  app.post('/hooks', express.json(), (req, res) => {
    const { event_id: id } = req.body as { event_id: string };
    if (seen.has(id)) return void res.json({ outcome: 'duplicate' });
    seen.set(id, Date.now());
    res.json({ outcome: 'accepted' });
  });
  handler = app;
} else {
  const receiver = new WebhookReceiver(queue ? { queue } : {});
  receiver.on('event', kind === 'sdk-async' ? async () => {} : () => {});
  const middleware = receiver.nodeMiddleware();
  handler = (req, res) => middleware(req, res);
}
const server = createServer(handler);
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${(server.address() as AddressInfo).port}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0)); // lets --cpu-prof write its profile
