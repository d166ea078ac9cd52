// docs/client.md's proxy recipe, for real: the client's `fetch` option with undici's ProxyAgent, through
// a local HTTP proxy (CONNECT tunnels, as ProxyAgent uses for every target) to the mock service.
// A proxy that refuses the tunnel ends in a typed connection error that does not show the app key.
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { ProxyAgent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { APIConnectionError, Flashduty } from '../../../src/index.js';
import { DAY, listenOnLoopback, NOW, rejection, startMock } from '../../helpers.js';

const h = await startMock({ incidents: 5 });
const window = { start_time: NOW - DAY, end_time: NOW };

/** A forward proxy on loopback that tunnels CONNECT (or refuses it with 407) and records each target. */
async function startProxy(refuse = false): Promise<{ url: string; tunnels: string[]; server: Server }> {
  const tunnels: string[] = [];
  const server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, socket, head) => {
    tunnels.push(req.url ?? '');
    if (refuse) return socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
    const [host = '', port = ''] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  const { url } = await listenOnLoopback(server);
  return { url, tunnels, server };
}

/** docs/client.md's recipe: Node's fetch with undici's ProxyAgent as its dispatcher. */
function proxiedClient(proxyUrl: string, options: { maxRetries?: number } = {}) {
  const dispatcher = new ProxyAgent(proxyUrl);
  afterAll(() => dispatcher.close());
  return new Flashduty({
    appKey: h.service.appKey,
    baseUrl: h.server.url,
    fetch: (input, init) => fetch(input, { ...init, dispatcher } as RequestInit),
    logLevel: 'off',
    ...options,
  });
}

describe('through an HTTP proxy (the fetch option with undici ProxyAgent)', () => {
  it('sends every call through the proxy tunnel', async () => {
    const proxy = await startProxy();
    const client = proxiedClient(proxy.url);
    const before = h.service.callLog.length;
    const page = await client.listIncidents(window);
    expect(page.items.length).toBeGreaterThan(0);
    await client.listIncidents({ ...window, p: 2, limit: 1 });
    expect(h.service.callLog.length - before).toBe(2);
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(new Set(proxy.tunnels)).toEqual(new Set([new URL(h.server.url).host]));
  });

  it('ends in APIConnectionError when the proxy refuses, without the app key', async () => {
    const proxy = await startProxy(true);
    const before = h.service.callLog.length;
    const error = await rejection(proxiedClient(proxy.url, { maxRetries: 0 }).listIncidents(window));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(proxy.tunnels).toHaveLength(1);
    expect(h.service.callLog.length).toBe(before); // nothing reached the service
    expect(JSON.stringify(error) + String(error) + ((error as Error).stack ?? '')).not.toContain(h.service.appKey);
  });
});
