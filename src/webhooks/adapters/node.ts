// node:http, Express 4/5 and Connect: `(req, res, next?)`. A body that express.json() (or another
// parser) already read is taken as it is; otherwise the stream is read here, after the secret check.
// A delivery that could not be recorded in time gets no answer: the connection is closed, which the
// sender retries (it never retries an HTTP error).

import { type BodySource, type HeadersLike, inHand, type NodeReadable } from '../body.js';
import { nodeStreamReader } from './readers.js';
import type { ReceiveResult, WebhookReceiver } from '../receiver.js';
import { answerBody, answerHeaders, UNRECORDED } from './respond.js';

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
  /** ServerResponse's method of that name: closes the connection without an answer. */
  destroy(error?: Error): unknown;
  headersSent?: boolean;
}

/** A node:http / Express / Connect handler. */
export type NodeMiddleware = (req: NodeRequestLike, res: NodeResponseLike, next?: (error?: unknown) => void) => void;

/** The receiver as a node:http / Express / Connect handler. */
export function nodeMiddleware(receiver: WebhookReceiver): NodeMiddleware {
  return (req, res, next) => {
    const respond = (result: ReceiveResult) => {
      try {
        if (result.status === UNRECORDED) res.destroy();
        else {
          res.writeHead(result.status, answerHeaders(result));
          res.end(answerBody(result));
        }
      } catch (error) {
        // Another middleware answered first, or the response is gone: not ours to crash over.
        if (next) next(error);
      }
    };
    // Answered at once when the body was there already, else in the body's last event at the soonest.
    receiver.receiveFrom(req.headers, sourceOf(req), respond);
  };
}

function sourceOf(req: NodeRequestLike): BodySource {
  const consumed = req._body === true || (req.body !== undefined && req.readableEnded === true);
  return consumed ? inHand(req.body) : { form: 'stream', read: nodeStreamReader(req) }; // express.json(), raw(), text()
}
