// The mock answers every operation of the vendored OpenAPI (the description scripts/generate/merge.ts
// makes of its two files) through client.request: bodies are checked against the request schema,
// answers fit the response schema; a write naming what the world does not have is ResourceNotFound.
import { describe, expect, it } from 'vitest';
import { RequestValidationError, ResourceNotFoundError } from '../../../src/index.js';
import { REQUEST_SCHEMAS, SCHEMA_DEFS } from '../../../src/generated/request-schemas.js';
import { checkSchema } from '../../../src/internal/schema.js';
import { RESPONSES, RESPONSE_DEFS } from '../../../src/testing/generated/responses.js';
import { STATEFUL_PATHS } from '../../../src/testing/router.js';
import { rejection, startMock } from '../../helpers.js';
import { PATHS, requestExample } from '../../openapi.js';

const h = await startMock({ incidents: 5, rateLimits: false });
const client = h.client();
/** `client.request` for a path known only at run time (typed over the union of every path, the call took tsc 2.4 s). */
const requestAnyPath = (path: string, body: unknown): Promise<unknown> =>
  (client as unknown as { request(path: string, body: unknown): Promise<unknown> }).request(path, body);
const STATEFUL = new Set(STATEFUL_PATHS);
const DEFS = { ...SCHEMA_DEFS, ...RESPONSE_DEFS };
const REFUSED = Symbol('refused');

describe('the mock answers every operation', () => {
  it('with data that fits the response schema, for every request example that fits its schema', async () => {
    let answered = 0;
    for (const path of PATHS) {
      if (STATEFUL.has(path)) continue;
      const example = requestExample(path) ?? {};
      if (checkSchema(example, REQUEST_SCHEMAS[path]!, SCHEMA_DEFS)) continue; // the five broken examples, and GETs without one
      const data = await requestAnyPath(path, example).catch((error: unknown) => {
        // A write naming a member, team or channel the world does not have (the OpenAPI's example ids): refused.
        if (error instanceof ResourceNotFoundError && / named in /.test(error.message)) return REFUSED;
        throw error;
      });
      if (data === REFUSED) continue;
      expect(checkSchema(data, RESPONSES[path]!.schema, DEFS), path).toBeUndefined();
      answered++;
    }
    expect(answered).toBeGreaterThan(95); // what no model keeps: insights, RUM, monitors' queries, sessions, …
  });

  it('refuses a body that breaks the request schema, naming the field', async () => {
    // Sent with plain fetch: the client checks the same schemas and would refuse these itself.
    const send = async (path: string, init: RequestInit) => {
      const response = await fetch(
        `${h.server.url}${path}${path.includes('?') ? '&' : '?'}app_key=${h.service.appKey}`,
        init,
      );
      return (await response.json()) as { error?: { code: string; message: string } };
    };
    const required = SCHEMA_DEFS[REQUEST_SCHEMAS['/channel/create']!.$ref!]!.required!;
    const post = await send('/channel/create', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(post.error?.code).toBe('InvalidParameter');
    expect(post.error?.message).toContain(required[0]);
    const get = await send('/status-page/change/list', { method: 'GET' });
    expect(get.error?.code).toBe('InvalidParameter');
    expect(get.error?.message).toContain('page_id');
    // Through the client the same body is refused before sending, with the same field.
    const local = await rejection(client.request('/channel/create', {} as never));
    expect(local).toBeInstanceOf(RequestValidationError);
    expect((local as RequestValidationError).field).toBe(required[0]);
  });
});
