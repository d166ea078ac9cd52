// A client with no network, for unit tests of the client's rules: its `fetch` option answers in
// memory, from one handler that sees every request (URL, method, headers, JSON body) and the number
// of the call, and every request is recorded. No socket, no server, no clock of its own.
import { type ClientOptions, Flashduty } from '../../src/index.js';

/** A request the client sent, as the responder saw it. */
export interface Sent {
  url: URL;
  method: string;
  headers: Headers;
  /** The JSON body, parsed; undefined for none (a GET) or one that is not JSON (a form). */
  body: Record<string, unknown> | undefined;
  /** The body as sent. */
  text: string;
}

/** What a handler answers: a Response, or `data` to wrap in a success envelope. */
export type Handler = (sent: Sent, index: number) => Response | Promise<Response>;

/** A success envelope around `data`, with a request id in the header. */
export function ok(data: unknown, requestId = 'r1'): Response {
  return Response.json({ request_id: requestId, data }, { headers: { 'Service-Request-Id': requestId } });
}

/** A failure envelope with the service's `code`, at an HTTP status. */
export function failure(code: string, status = 400, headers: Record<string, string> = {}): Response {
  return Response.json({ request_id: 'rf', error: { code, message: `${code} happened` } }, { status, headers });
}

/** A client whose requests `handler` answers; `sent` lists them in order. */
export function memoryClient(handler: Handler, options: ClientOptions = {}): { client: Flashduty; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const text = await request.text();
    const seen: Sent = {
      url: new URL(request.url),
      method: request.method,
      headers: request.headers,
      body:
        text && /json/.test(request.headers.get('content-type') ?? '')
          ? (JSON.parse(text) as Record<string, unknown>)
          : undefined,
      text,
    };
    sent.push(seen);
    return handler(seen, sent.length - 1);
  };
  const client = new Flashduty({
    appKey: 'test-app-key',
    baseUrl: 'https://api.test',
    rateLimit: false,
    logLevel: 'off',
    fetch,
    ...options,
  });
  return { client, sent };
}
