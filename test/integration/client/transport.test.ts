// Safe transport against node:http stand-ins that misbehave: redirect loops and method-changing or
// cross-origin redirects, bodies too large (an endless gzip stream), proxies' 502/504, broken
// Retry-After values, a wall clock stepping back, and connections that fail.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGzip } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionError, APIError, Flashduty, ResponseTooLargeError } from '../../../src/index.js';
import { parseRetryAfter } from '../../../src/internal/retry-after.js';
import { closedPort, DAY, NOW, rejection, standIn } from '../../helpers.js';

interface Hit {
  method: string;
  url: string;
  body: string;
  contentType: string | undefined;
}
type Behaviour = (req: IncomingMessage, res: ServerResponse, hit: Hit, index: number) => void;

function recorder() {
  const hits: Hit[] = [];
  let behave: Behaviour = (_req, res) => res.end();
  return {
    hits,
    set(next: Behaviour) {
      behave = next;
      hits.length = 0;
    },
    handler(req: IncomingMessage, res: ServerResponse) {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const hit = { method: req.method ?? '', url: req.url ?? '', body, contentType: req.headers['content-type'] };
        hits.push(hit);
        behave(req, res, hit, hits.length - 1);
      });
    },
  };
}

const service = recorder();
const elsewhere = recorder();
const main = await standIn((req, res) => service.handler(req, res));
const other = await standIn((req, res) => elsewhere.handler(req, res));
afterEach(() => vi.restoreAllMocks());

const KEY = 'fdk_transport_key';
const window = { start_time: NOW - DAY, end_time: NOW };
const client = (options: ConstructorParameters<typeof Flashduty>[0] = {}) =>
  new Flashduty({ appKey: KEY, baseUrl: main.url, logLevel: 'off', rateLimit: false, maxRetries: 2, ...options });

const page = JSON.stringify({ request_id: 'r-1', data: { items: [], total: 0, has_next_page: false } });
const ok = (res: ServerResponse, body = page) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(body);
};
const redirect = (status: number, location: string) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(status, { Location: location });
  res.end();
};

describe('the request', () => {
  // Without a fetch or hooks of the caller's, the body goes to fetch beside ky's Request (request-loop.ts).
  it('carries the JSON body with one JSON content type, with or without a fetch or hooks of the caller', async () => {
    service.set((_req, res) => ok(res));
    const hooked: string[] = [];
    const clients = [
      client(),
      client({ fetch: (input, init) => fetch(input, init) }),
      client({ hooks: { beforeRequest: [async (request) => void hooked.push(await request.clone().text())] } }),
    ];
    for (const each of clients) await each.listIncidents(window);
    expect(service.hits.map((hit) => [JSON.parse(hit.body), hit.contentType])).toEqual(
      Array(3).fill([{ ...window }, 'application/json']),
    );
    expect(hooked.map((text) => JSON.parse(text) as unknown)).toEqual([window]);
  });

  it("keeps the caller's own content type, once", async () => {
    service.set((_req, res) => ok(res));
    await client({ headers: { 'Content-Type': 'application/json; charset=utf-8' } }).listIncidents(window);
    expect(service.hits[0]?.contentType).toBe('application/json; charset=utf-8');
  });
});

describe('redirects', () => {
  it('a mutation follows none: a 307 loop sends it once', async () => {
    service.set(redirect(307, '/safari/skill/delete'));
    const error = (await rejection(client().deleteSkill('skill_1'))) as APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(307);
    expect(error.message).toMatch(/redirect not followed \(a mutation is never redirected\)/);
    expect(service.hits).toHaveLength(1);
  });

  it('a mutation is not turned from POST into GET by a 302', async () => {
    service.set(redirect(302, '/elsewhere'));
    expect(await rejection(client().enableA2AAgent('a2a_1'))).toMatchObject({ status: 302 });
    expect(service.hits.map((h) => h.method)).toEqual(['POST']);
  });

  it('a read follows a 307 within the origin, keeping method, body and key', async () => {
    service.set((_req, res, hit, index) => (index === 0 ? redirect(307, '/v2/incident/list')(_req, res) : ok(res)));
    await client().listIncidents(window);
    expect(service.hits.map((h) => [h.method, h.url.split('?')[0]])).toEqual([
      ['POST', '/incident/list'],
      ['POST', '/v2/incident/list'],
    ]);
    expect(service.hits[1]?.body).toBe(service.hits[0]?.body);
    expect(service.hits[1]?.url).toContain(`app_key=${KEY}`);
  });

  it('a read follows none that leaves the origin', async () => {
    service.set(redirect(308, `${other.url}/incident/list`));
    elsewhere.set((_req, res) => ok(res));
    const error = (await rejection(client().listIncidents(window))) as APIError;
    expect(error.status).toBe(308);
    expect(error.message).toContain(`it leaves ${main.url}`);
    expect(elsewhere.hits).toHaveLength(0);
    expect(service.hits).toHaveLength(1); // a refused redirect is not retried either
  });

  it('a read gives up a redirect loop after 5 hops, and a 302 that would turn it into a GET', async () => {
    service.set(redirect(307, '/incident/list'));
    expect(((await rejection(client().listIncidents(window))) as APIError).message).toMatch(/more than 5 redirects/);
    expect(service.hits).toHaveLength(6);
    service.set(redirect(302, '/incident/list'));
    expect(((await rejection(client().listIncidents(window))) as APIError).message).toMatch(
      /302 would turn POST into GET/,
    );
    expect(service.hits).toHaveLength(1);
  });
});

describe('maxResponseBytes', () => {
  /** gzip of zeros, written until the client goes away; `closed` settles when it did. */
  function endlessGzip() {
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    const behave: Behaviour = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      const zeros = Buffer.alloc(1 << 20, 0x20);
      let stopped = false;
      res.on('close', () => {
        stopped = true;
        closed();
      });
      const pump = () => {
        while (!stopped && gzip.write(zeros));
        if (!stopped) gzip.once('drain', pump);
      };
      gzip.write('{"request_id":"r","data":"');
      pump();
    };
    return { behave, gone };
  }

  it('stops an endless gzip body at the limit, counted decompressed, and does not retry', async () => {
    const { behave, gone } = endlessGzip();
    service.set(behave);
    const error = (await rejection(
      client({ maxResponseBytes: 4 << 20, timeout: 20_000 }).listIncidents(window),
    )) as ResponseTooLargeError;
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.limit).toBe(4 << 20);
    expect(error.status).toBe(200);
    expect(error.url).toBe(`${main.url}/incident/list?app_key=***`);
    await gone; // the client hung up instead of reading on
    expect(service.hits).toHaveLength(1);
  });

  it('defaults to 32 MiB', async () => {
    service.set((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(32 * 1024 * 1024 + 1) });
      res.write('{');
    });
    const c = client();
    expect(c.maxResponseBytes).toBe(32 * 1024 * 1024);
    expect(await rejection(c.listIncidents(window))).toMatchObject({
      name: 'ResponseTooLargeError',
      limit: 32 * 1024 * 1024,
    });
  });

  it('refuses a declared Content-Length over the limit before reading, and accepts one at the limit', async () => {
    service.set((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(page.length) });
      res.end(page);
    });
    expect(await rejection(client({ maxResponseBytes: page.length - 1 }).listIncidents(window))).toBeInstanceOf(
      ResponseTooLargeError,
    );
    await expect(client({ maxResponseBytes: page.length }).listIncidents(window)).resolves.toMatchObject({ items: [] });
  });

  it('reads a body of unknown length in many chunks whole, a character split across two chunks intact', async () => {
    // '事' is three bytes in UTF-8: the body is written one byte at a time, so every character is split.
    const body = JSON.stringify({
      request_id: 'r-1',
      data: { items: [{ title: '事件 ✓' }], total: 1, has_next_page: false },
    });
    service.set((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }); // chunked: no length declared
      const bytes = Buffer.from(body);
      let at = 0;
      const next = () => {
        if (at >= bytes.length) return res.end();
        res.write(bytes.subarray(at, ++at), () => setImmediate(next));
      };
      next();
    });
    const result = await client({ maxResponseBytes: Buffer.byteLength(body) }).listIncidents(window);
    expect(result.items).toEqual([{ title: '事件 ✓' }]);
    // One byte over the limit, and no length declared: stopped while it streams in.
    expect(
      await rejection(client({ maxResponseBytes: Buffer.byteLength(body) - 1 }).listIncidents(window)),
    ).toBeInstanceOf(ResponseTooLargeError);
  });

  it('reads the body whole where fetch gives no response stream (body null)', async () => {
    service.set((_req, res) => ok(res));
    // Such fetches exist (React Native's, some polyfills): the body is only there through text().
    const noStreams: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      return new Proxy(response, {
        get: (target, key) => {
          if (key === 'body') return null;
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
    };
    await expect(client({ fetch: noStreams }).listIncidents(window)).resolves.toMatchObject({ items: [], total: 0 });
  });

  it('is a ConfigError when not a whole number of bytes', () => {
    expect(() => client({ maxResponseBytes: 0 })).toThrow(/maxResponseBytes/);
  });
});

describe('proxies and Retry-After', () => {
  it.each([502, 504])('a read retries %i; a mutation does not', async (status) => {
    service.set((_req, res, _hit, index) => {
      if (index > 0) return ok(res);
      res.writeHead(status, { 'Content-Type': 'text/html', 'Retry-After': '0' });
      res.end('<html>bad gateway</html>');
    });
    await client().listIncidents(window);
    expect(service.hits).toHaveLength(2);
    service.set((_req, res) => {
      res.writeHead(status, { 'Retry-After': '0' });
      res.end('<html>bad gateway</html>');
    });
    expect(await rejection(client().deleteSkill('skill_1'))).toMatchObject({ status });
    expect(service.hits).toHaveLength(1);
  });

  it('reads Retry-After strictly: a negative, merged or unreadable value is ignored', () => {
    const at = (value: string) => parseRetryAfter(new Headers({ 'Retry-After': value }), Date.UTC(2026, 0, 1));
    expect(at('2')).toBe(2000);
    expect(at('0.25')).toBe(250);
    expect(at('Thu, 01 Jan 2026 00:00:03 GMT')).toBe(3000);
    expect(at('Wed, 31 Dec 2025 23:00:00 GMT')).toBe(0);
    for (const bad of ['-1', '1, 2', 'soon', '1e3', '+5', '2026-01-01T00:00:03Z', 'Thu, 01 Jan 2026 00:00:03 GMT, 5']) {
      expect(at(bad), bad).toBeUndefined();
    }
  });

  it('falls back to backoff when Retry-After is broken (not a retry within milliseconds)', async () => {
    const times: number[] = [];
    service.set((_req, res, _hit, index) => {
      times.push(performance.now());
      if (index > 0) return ok(res);
      res.writeHead(503, { 'Retry-After': '-1' });
      res.end();
    });
    await client().listIncidents(window);
    expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(300); // backoff is 375–500 ms
  });
});

describe('the limiter and the clock', () => {
  it('a wall clock stepping back an hour does not hold a waiting call', async () => {
    service.set((_req, res) => ok(res));
    const c = client({ rateLimit: { perSecond: 1 }, timeout: 5_000 });
    await c.listIncidents(window);
    const second = c.listIncidents(window); // waits for the first call's window
    const realNow = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => realNow - 3_600_000);
    // On the wall clock it would wait an hour; on the monotonic clock, what is left of a second.
    let held: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<'held'>((resolve) => (held = setTimeout(() => resolve('held'), 20_000)));
    expect(await Promise.race([second.then(() => 'sent'), stuck])).toBe('sent');
    clearTimeout(held);
    expect(service.hits).toHaveLength(2);
  });
});

describe('connection errors', () => {
  it('name the host and the reason, never the key', async () => {
    const port = await closedPort();
    const error = (await rejection(
      new Flashduty({ appKey: KEY, baseUrl: `http://127.0.0.1:${port}`, logLevel: 'off', maxRetries: 0 }).deleteSkill(
        's',
      ),
    )) as APIConnectionError;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toMatch(new RegExp(`^Connection to 127\\.0\\.0\\.1:${port} failed: .*ECONNREFUSED`));
    expect(error.message).not.toContain(KEY);
  });

  it('name the host when the connection drops mid-answer', async () => {
    service.set((req) => req.socket.destroy());
    const error = (await rejection(client({ maxRetries: 0 }).listIncidents(window))) as APIConnectionError;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toMatch(new RegExp(`^Connection to 127\\.0\\.0\\.1:${main.port} failed: \\S`));
    expect(error.message).not.toContain(KEY);
  });
  it("are a fetch's Response.error() too, for a mutation and a read, not an answer with HTTP status 0", async () => {
    // As MSW gives when another library (@hono/node-server) replaced the global Response.
    const gives = new Flashduty({
      appKey: KEY,
      baseUrl: 'http://127.0.0.1:1',
      logLevel: 'off',
      maxRetries: 0,
      fetch: () => Promise.resolve(Response.error()),
    });
    for (const call of [gives.deleteSkill('s'), gives.listIncidents(window)]) {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(error).not.toBeInstanceOf(APIError);
      expect((error as APIConnectionError).message).toBe(
        'Connection to 127.0.0.1:1 failed: fetch gave Response.error(), a network error.',
      );
    }
  });
});
