// MSW handlers for the mock: one per route, any origin, every method (so 405 answers too).

import type { RequestHandler } from 'msw';
import { loadMsw } from './msw-loader.js';
import { DROP, type RouteResult, Truncated } from './replies.js';
import { ROUTE_PATHS } from './router.js';
import { ConfigError } from '../internal/flashduty-error.js';

/** MSW's form of each route: every origin, a path parameter as `:name`. */
const PATHS = ROUTE_PATHS.map((path) => `*${path.replace(/\{([^}]+)\}/g, ':$1')}`);

export function createHandlers(handle: (request: Request) => Promise<RouteResult>): RequestHandler[] {
  const msw = loadMsw();
  if (!msw) {
    throw new ConfigError(
      'flashduty-sdk/testing: `handlers` needs the msw package (npm install -D msw); `listen()` works without it.',
    );
  }
  return PATHS.map((path) =>
    msw.http.all(path, async ({ request }) => {
      const result = await handle(request);
      // MSW cannot cut a body off; a truncated answer becomes a network error, as the client sees it.
      return result === DROP || result instanceof Truncated ? msw.HttpResponse.error() : result;
    }),
  );
}
