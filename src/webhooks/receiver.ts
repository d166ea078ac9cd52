// The receiver as users meet it: the framework-neutral core (core.ts) plus the adapters as
// members, `receiver.nodeMiddleware()` and `receiver.fetchHandler`. The adapters themselves are
// free functions over the core (adapters/), which never imports them.

import { type FetchHandler, fetchHandler } from './adapters/fetch.js';
import { type NodeMiddleware, nodeMiddleware } from './adapters/node.js';
import { ReceiverCore, type WebhookReceiverOptions } from './core.js';

export type {
  Delivery,
  EventHandler,
  InvalidDelivery,
  ReceiveOutcome,
  ReceiveResult,
  WebhookReceiverOptions,
} from './core.js';

/**
 * Receives Flashduty webhooks: checks, deduplicates, drops stale events, hands them to a queue or
 * runs your handlers, and answers within the sender's deadline. Use it through an adapter,
 * `receive()`, or `processor()` in a BullMQ worker.
 *
 * @example
 * ```ts
 * const receiver = new WebhookReceiver({ secret: { header: 'x-flashduty-token', values: [process.env.TOKEN!] } });
 * receiver.on('i_ack', async (event) => console.log(event.incident.title, 'acknowledged'));
 * http.createServer(receiver.nodeMiddleware()).listen(8080);
 * ```
 */
export class WebhookReceiver extends ReceiverCore {
  /** `(request: Request) => Promise<Response>` for Hono, Next.js route handlers, Bun, Deno and Workers. */
  readonly fetchHandler: FetchHandler;

  constructor(options: WebhookReceiverOptions = {}) {
    super(options);
    this.fetchHandler = fetchHandler(this);
  }

  /** `(req, res, next?)` for node:http, Express 4/5 and Connect, with or without a body parser in front. */
  nodeMiddleware(): NodeMiddleware {
    return nodeMiddleware(this);
  }
}
