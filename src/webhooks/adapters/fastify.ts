// The Fastify plugin: `app.register(fastifyWebhooks, { receiver, path })`. Inside its own scope it
// replaces Fastify's body parsers with a pass-through, so the receiver reads the raw stream itself,
// after the secret check and with its own limit (Fastify's parser would answer 413 before either).
// Fastify also judges the Content-Type before any parser (a malformed one: its own 415, before the
// secret check, the connection kept), so the plugin's hook sets the header aside for Fastify and
// hands it back to the receiver, which judges it as through every adapter. The route takes every
// method, so the receiver answers a non-POST as it does through any adapter (a route of the app's
// own on the same path and another method would clash with it). A reply to drop hijacks the reply
// and closes the connection without an answer.

import type { WebhookReceiver } from '../receiver.js';
import { type NodeReadable, nodeStreamReader } from './node-stream.js';

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
  /** Fastify's method of that name: the plugin's `onRequest` hook. */
  addHook(
    name: 'onRequest',
    hook: (request: { raw: object; headers: Record<string, unknown> }) => Promise<void>,
  ): unknown;
  /** Fastify's method of that name: a route for every method. */
  all(
    path: string,
    handler: (
      request: {
        method: string;
        headers: Record<string, string | string[] | undefined>;
        body?: unknown;
        raw: { socket: { destroy(): unknown } };
      },
      reply: {
        code(status: number): { headers(h: Readonly<Record<string, string>>): { send(body: string): unknown } };
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
  const contentTypes = new WeakMap<object, unknown>();
  app.addHook('onRequest', async (request) => {
    if (request.headers['content-type'] === undefined) return;
    contentTypes.set(request.raw, request.headers['content-type']);
    delete request.headers['content-type'];
  });
  app.all(path, async (request, reply) => {
    const stream = request.body as NodeReadable | undefined;
    const contentType = contentTypes.get(request.raw) as string | undefined;
    if (contentType !== undefined) request.headers['content-type'] = contentType;
    const result = await receiver.reply({
      method: request.method,
      headers: request.headers,
      body: stream ? { form: 'stream', read: nodeStreamReader(stream) } : { form: 'raw', value: '' },
    });
    if (result.drop) {
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    return reply.code(result.status).headers(result.headers).send(result.body);
  });
}
