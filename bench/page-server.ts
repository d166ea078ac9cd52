// The page the client benches fetch: one page of 100 realistic incidents from the mock's generator,
// served as fixed bytes by a bare node:http server, so the server costs the same for every
// contender (bench/run.ts, bench/call-steps.ts).

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockService } from '../dist/testing/index.js';

/** The served page, its bytes, the server's base URL and the params of a call that asks for it. */
export interface PageServer {
  baseUrl: string;
  /** The envelope's `data`. */
  page: { items: unknown[]; total: number; has_next_page: boolean; search_after_ctx: string };
  /** The envelope as sent. */
  payload: string;
  payloadBytes: Buffer;
  /** A week's window, 100 a page, in Unix seconds. */
  params: { start_time: number; end_time: number; limit: number };
  close: () => void;
}

export async function startPageServer(): Promise<PageServer> {
  const service = createMockService({ seed: 42, incidents: 300, now: Date.UTC(2026, 10, 1) });
  const now = Date.UTC(2026, 10, 1) / 1000;
  const items = service.world.incidents.slice(0, 100);
  const page = { items, total: 300, has_next_page: true, search_after_ctx: 'cursor-1' };
  const payload = JSON.stringify({ request_id: '01HK8XQE3Z7JM2NTFQ5YJ8P9R4', data: page });
  const payloadBytes = Buffer.from(payload);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Length': payloadBytes.length,
        'Service-Request-Id': 'r1',
      });
      res.end(payloadBytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    page,
    payload,
    payloadBytes,
    params: { start_time: now - 7 * 86_400, end_time: now, limit: 100 },
    close: () => server.close(),
  };
}
