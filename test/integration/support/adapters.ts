// Every adapter of the receiver under its real framework, listening on loopback: node:http,
// Express 4 and 5 (with and without express.json()), Fastify, Hono through fetchHandler. Shared by
// the adapter tests and the end-to-end tests from the mock's sender.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import express4 from 'express4';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { fastifyWebhooks, type WebhookReceiver } from '../../../src/webhooks/index.js';

export const PATH = '/hooks/flashduty';

export interface Running {
  url: string;
  close(): Promise<void>;
}

export function listening(server: Server): Promise<Running> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}${PATH}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** An Express app (either major), with or without express.json() in front of the middleware. */
function expressAdapter(factory: typeof express, withJson: boolean) {
  return {
    parsed: withJson,
    start: (receiver: WebhookReceiver) => {
      const app = factory();
      if (withJson) app.post(PATH, factory.json({ limit: '5mb' }), receiver.nodeMiddleware());
      else app.post(PATH, receiver.nodeMiddleware());
      return listening(createServer(app));
    },
  };
}

export const adapters: Record<string, { start(receiver: WebhookReceiver): Promise<Running>; parsed?: boolean }> = {
  'node:http': {
    start: (receiver) => {
      const middleware = receiver.nodeMiddleware();
      return listening(createServer((req, res) => middleware(req, res)));
    },
  },
  'express 5': expressAdapter(express, false),
  'express 4': expressAdapter(express4, false),
  'express 5 + express.json()': expressAdapter(express, true),
  'express 4 + express.json()': expressAdapter(express4, true),
  fastify: {
    start: async (receiver) => {
      const app = Fastify();
      await app.register(fastifyWebhooks, { receiver, path: PATH });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}${PATH}`, close: () => app.close() };
    },
  },
  'hono (fetchHandler)': {
    start: (receiver) =>
      new Promise((resolve) => {
        const app = new Hono();
        app.post(PATH, (c) => receiver.fetchHandler(c.req.raw));
        // overrideGlobalObjects: false, or serve() replaces the process's global Request and Response
        // with its own (Response.error() is then no `instanceof Response`, and MSW in a later test
        // file gives it as an answer). The chaos replicas run Hono as it comes, in processes of their own.
        const listen = { fetch: app.fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false };
        const server = serve(listen, (info) => {
          resolve({
            url: `http://127.0.0.1:${info.port}${PATH}`,
            close: () => new Promise<void>((done) => server.close(() => done())),
          });
        });
      }),
  },
};

export /** Posts raw bytes with exactly the given headers (fetch would add a content type of its own). */
function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
