// node:http, Express 4/5 and Connect: `(req, res, next?)`. A body that express.json() (or another
// parser) already read is taken as it is; otherwise the stream is read here, after the secret check.

import { type HeadersLike, type NodeReadable, nodeStreamReader } from '../body.js';
import type { BodySource, WebhookReceiver } from '../receiver.js';
import { answerBody, answerHeaders } from './respond.js';

/** The parts of an IncomingMessage (or Express request) used here. */
export interface NodeRequestLike extends NodeReadable {
  headers: HeadersLike;
  body?: unknown;
  /** Set to true by body-parser (express.json(), express.raw(), …) once it consumed the stream. */
  _body?: boolean;
}

/** The parts of a ServerResponse used here. */
export interface NodeResponseLike {
  /** ServerResponse's method of that name. */
  writeHead(status: number, headers: Record<string, string>): unknown;
  /** ServerResponse's method of that name. */
  end(body?: string): unknown;
  headersSent?: boolean;
}

/** A node:http / Express / Connect handler. */
export type NodeMiddleware = (req: NodeRequestLike, res: NodeResponseLike, next?: (error?: unknown) => void) => void;

export function nodeMiddleware(receiver: WebhookReceiver): NodeMiddleware {
  return (req, res, next) => {
    receiver.deliver(req.headers, sourceOf(req), (result) => {
      try {
        res.writeHead(result.status, answerHeaders(result));
        res.end(answerBody(result));
      } catch (error) {
        // Another middleware answered first, or the response is gone: not ours to crash over.
        if (next) next(error);
      }
    });
  };
}

function sourceOf(req: NodeRequestLike): BodySource {
  const consumed = req._body === true || (req.body !== undefined && req.readableEnded === true);
  if (!consumed) return { kind: 'reader', read: nodeStreamReader(req) };
  const { body } = req;
  if (typeof body === 'string' || body instanceof Uint8Array) return { kind: 'raw', value: body }; // express.raw()/text()
  return { kind: 'parsed', value: body };
}
