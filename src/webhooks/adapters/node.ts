// node:http, Express 4/5 and Connect (`receiver.nodeMiddleware()`): a request translated into the
// receiver's input (a body that express.json() or another parser already read is taken as it is;
// otherwise the stream, which the receiver reads after the secret check), and its reply into a
// response.

import { type BodySource, type HeadersLike, inHand } from '../ingress.js';
import type { Reply, WebhookRequest } from '../receiver.js';
import { type NodeReadable, nodeStreamReader } from './node-stream.js';

/** The parts of an IncomingMessage (or Express request) used here. */
export interface NodeRequestLike extends NodeReadable {
  method?: string;
  headers: HeadersLike;
  body?: unknown;
  /** Set to true by body-parser (express.json(), express.raw(), …) once it consumed the stream. */
  _body?: boolean;
}

/** The parts of a ServerResponse used here. */
export interface NodeResponseLike {
  /** ServerResponse's method of that name. */
  writeHead(status: number, headers: Readonly<Record<string, string>>): unknown;
  /** ServerResponse's method of that name. */
  end(body?: string): unknown;
  /** ServerResponse's method of that name: closes the connection without an answer. */
  destroy(error?: Error): unknown;
}

/** A node:http / Express / Connect handler. */
export type NodeMiddleware = (req: NodeRequestLike, res: NodeResponseLike, next?: (error?: unknown) => void) => void;

/** The request as the receiver takes it: a body a parser already read as it is, otherwise the stream. */
export function requestOf(req: NodeRequestLike): WebhookRequest {
  const consumed = req._body === true || (req.body !== undefined && req.readableEnded === true);
  const body: BodySource = consumed ? inHand(req.body) : { form: 'stream', read: nodeStreamReader(req) };
  return { method: req.method ?? '', headers: req.headers, body };
}

/**
 * Sends the reply, or closes the connection for a reply to drop. What the response refuses (another
 * middleware answered first) goes to Express's or Connect's `next`; plain node:http has no one to
 * tell, and the connection is closed, which the sender retries.
 */
export function send(res: NodeResponseLike, reply: Reply, next?: (error?: unknown) => void): void {
  try {
    if (reply.drop) res.destroy();
    else {
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
    }
  } catch (error) {
    if (next) next(error);
    else res.destroy();
  }
}
