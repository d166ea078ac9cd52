// The Fastify plugin: `app.register(fastifyWebhooks, { receiver, path })`. Inside its own scope it
// replaces Fastify's body parsers with a pass-through, so the receiver reads the raw stream itself,
// after the secret check and with its own limit (Fastify's parser would answer 413 before either).
// A delivery that could not be recorded in time gets no answer: the reply is hijacked and the
// connection closed, which the sender retries (it never retries an HTTP error).

import type { NodeReadable } from '../body.js';
import { nodeStreamReader } from './readers.js';
import type { WebhookReceiver } from '../receiver.js';
import { answerBody, answerHeaders, answerOf, UNRECORDED } from './respond.js';

/** Options of {@link fastifyWebhooks}. */
export interface FastifyWebhooksOptions {
  receiver: WebhookReceiver;
  /** Default `/`. */
  path?: string;
}

/** The parts of a Fastify instance used here (no runtime or type dependency on fastify). */
export interface FastifyLike {
  /** Fastify's method of that name. */
  removeAllContentTypeParsers(): unknown;
  /** Fastify's method of that name. */
  addContentTypeParser(
    type: string,
    parser: (request: unknown, payload: NodeReadable, done: (error: Error | null, body?: unknown) => void) => void,
  ): unknown;
  /** Fastify's method of that name. */
  post(
    path: string,
    handler: (
      request: {
        headers: Record<string, string | string[] | undefined>;
        body?: unknown;
        raw: { socket: { destroy(): unknown } };
      },
      reply: {
        code(status: number): { headers(h: Record<string, string>): { send(body: string): unknown } };
        hijack(): unknown;
      },
    ) => Promise<unknown>,
  ): unknown;
}

/** The Fastify plugin: `app.register(fastifyWebhooks, { receiver, path })`. */
export async function fastifyWebhooks(app: FastifyLike, options: FastifyWebhooksOptions): Promise<void> {
  const { receiver, path = '/' } = options;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  app.post(path, async (request, reply) => {
    const stream = request.body as NodeReadable | undefined;
    const source = stream
      ? { form: 'stream' as const, read: nodeStreamReader(stream) }
      : { form: 'raw' as const, value: '' };
    const result = await answerOf(receiver, request.headers, source);
    if (result.status === UNRECORDED) {
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    return reply.code(result.status).headers(answerHeaders(result)).send(answerBody(result));
  });
}
