// The mock's MSW handlers: one per route, on any origin and base path, every method (so that 405
// answers too), a path parameter as MSW writes it; a dropped or cut-off answer becomes the network
// error a client sees, since MSW cannot cut a body off. Run by calling a handler, not through a server.
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../src/testing/msw.js';
import { DROP, Truncated } from '../../../src/testing/replies.js';
import { ROUTE_PATHS } from '../../../src/testing/router.js';

const handlers = createHandlers(async (request) => {
  const path = new URL(request.url).pathname;
  if (path.endsWith('/incident/ack')) return DROP;
  if (path.endsWith('/incident/resolve')) return new Truncated(new Response('cut'));
  return new Response(`${request.method} ${path}`);
});

async function answer(url: string, method = 'POST') {
  for (const handler of handlers) {
    const result = await handler.run({ request: new Request(url, { method }), requestId: 'r' });
    if (result?.response) return result.response;
  }
  return undefined;
}

describe('createHandlers', () => {
  it('has one handler per route, a path parameter written :name', () => {
    expect(handlers).toHaveLength(ROUTE_PATHS.length);
    expect(handlers.map((handler) => handler.info.header)).toContain(
      '/.+/ */safari/automation/triggers/:trigger_id/fire',
    );
  });

  it('matches a route on any origin, under a base path, by any method', async () => {
    expect(await (await answer('https://api.example.test/incident/list'))?.text()).toBe('POST /incident/list');
    expect(await (await answer('http://localhost/base/incident/list', 'GET'))?.text()).toBe('GET /base/incident/list');
    expect(await answer('http://localhost/not/a/route')).toBeUndefined();
  });

  it('turns a dropped or cut-off answer into a network error', async () => {
    expect((await answer('http://localhost/incident/ack'))?.type).toBe('error');
    expect((await answer('http://localhost/incident/resolve'))?.type).toBe('error');
  });
});
