// The mock over real HTTP on loopback: node:http in front of the same router the MSW handlers use.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DROP, type RouteResult, Truncated } from './replies.js';

/** Where `listen()` serves the mock. */
export interface ListenOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
}

/** The mock served over HTTP. */
export interface RunningServer {
  /** Base URL to give the client, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  /** Stops accepting calls and closes open connections. */
  close(): Promise<void>;
}

export async function serve(
  handle: (request: Request) => Promise<RouteResult>,
  options: ListenOptions = {},
): Promise<RunningServer> {
  const { createServer } = await import('node:http');
  const host = options.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    void respond(handle, host, req, res);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** One request of node:http through the router, its result written back (dropped or cut off where the router says). */
async function respond(
  handle: (request: Request) => Promise<RouteResult>,
  host: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? 'GET';
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const request = new Request(`http://${req.headers.host ?? host}${req.url ?? '/'}`, {
      method,
      headers,
      ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
    });
    const result = await handle(request);
    if (result === DROP) {
      req.socket.destroy();
      return;
    }
    const response = result instanceof Truncated ? result.response : result;
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...Object.fromEntries(response.headers), 'Content-Length': String(body.length) });
    if (result instanceof Truncated) {
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => req.socket.destroy());
      return;
    }
    res.end(body);
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end(`mock service failure: ${error instanceof Error ? error.message : String(error)}`);
  }
}
