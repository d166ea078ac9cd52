// MSW handlers for the mock: one per route, any origin, every method (so 405 answers too).

import type { RequestHandler } from 'msw';
import { loadMsw } from './msw-loader.js';
import { DROP, type RouteResult } from './router.js';

const PATHS = ['*/incident/list', '*/safari/a2a-agent/enable', '*/safari/skill/delete'];

export function createHandlers(handle: (request: Request) => Promise<RouteResult>): RequestHandler[] {
  const msw = loadMsw();
  if (!msw) {
    throw new Error('flashduty-sdk/testing: `handlers` needs the msw package (npm install -D msw); `listen()` works without it.');
  }
  return PATHS.map((path) =>
    msw.http.all(path, async ({ request }) => {
      const result = await handle(request);
      return result === DROP ? msw.HttpResponse.error() : result;
    }),
  );
}
