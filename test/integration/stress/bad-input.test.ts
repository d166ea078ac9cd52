// Property tests over bad input: random parameters, random answers from a server, random webhook
// deliveries. Each must end in a typed result or a typed error, never anything else.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Flashduty,
  FlashdutyError,
  IncidentPage,
  type ListIncidentsParams,
  RequestValidationError,
} from '../../../src/index.js';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import { type Claim, type ClaimRequest, MemoryStateStore, WebhookReceiver } from '../../../src/webhooks/index.js';
import { DAY, NOW, startMock } from '../../helpers.js';
import { figure, scale } from './scale.js';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
process.on('unhandledRejection', onUnhandled);
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

const anything = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -10, max: 20_000 }),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 30 }),
  fc.constant(''),
  fc.constant('Triggered,Processing'),
  fc.constant(['Critical', 'Warning']),
  fc.array(
    fc.oneof(fc.integer({ min: -1, max: 5 }), fc.string({ maxLength: 5 }), fc.constant('64b1352e376e32c85c56e25b')),
    { maxLength: 3 },
  ),
  fc.date({ min: new Date(0), max: new Date(4e12) }),
  fc.object({ maxDepth: 1 }),
);
/** Mostly plausible values, now and then anything at all. */
const mostly = <T>(plausible: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: plausible, weight: 15 }, { arbitrary: anything, weight: 1 });
const time = fc.oneof(
  fc.integer({ min: NOW - 40 * DAY, max: NOW }),
  fc.date({ min: new Date((NOW - 40 * DAY) * 1000), max: new Date(NOW * 1000), noInvalidDate: false }),
);
const windowed = fc
  .tuple(fc.integer({ min: NOW - 40 * DAY, max: NOW - DAY }), fc.integer({ min: -DAY, max: 33 * DAY }), fc.boolean())
  .map(([start, length, asDate]) =>
    asDate ? [new Date(start * 1000), new Date((start + length) * 1000)] : [start, start + length],
  );
const params = fc
  .record(
    {
      window: fc.oneof(
        { arbitrary: windowed, weight: 5 },
        { arbitrary: fc.tuple(mostly(time), mostly(time)), weight: 1 },
      ),
      limit: mostly(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: -5, max: 120 }))),
      p: mostly(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: -2, max: 600 }))),
      asc: mostly(fc.boolean()),
      is_snoozed: mostly(fc.boolean()),
      progress: mostly(fc.subarray(['Triggered', 'Processing', 'Closed'])),
      incident_severity: mostly(fc.constantFrom('Critical', 'Warning,Info', ['Info'])),
      query: mostly(fc.string({ maxLength: 8 })),
      channel_ids: mostly(fc.array(fc.nat({ max: 3 }), { maxLength: 3 })),
      incident_ids: mostly(
        fc.array(fc.constantFrom('64b1352e376e32c85c56e25b', '64B1352E376E32C85C56E25C'), { maxLength: 2 }),
      ),
      nums: mostly(
        fc.array(
          fc.string({ minLength: 1, maxLength: 6 }).filter((s) => s.trim() === s && s !== ''),
          { maxLength: 2 },
        ),
      ),
      future_field: anything,
    },
    { requiredKeys: ['window'] },
  )
  .map(({ window: [start_time, end_time], ...rest }) => ({ start_time, end_time, ...rest }));

describe('any params → a valid request or RequestValidationError, never an invalid request on the wire', () => {
  it('holds for random params against the mock', { timeout: 120_000 }, async () => {
    const h = await startMock({ incidents: 50, rateLimits: false });
    const client = h.client({ maxRetries: 0 });
    let refused = 0;
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(params, async (input) => {
        const before = h.calls.length;
        const logBefore = h.service.callLog.length;
        try {
          const page = await client.listIncidents(input as unknown as ListIncidentsParams);
          expect(page).toBeInstanceOf(IncidentPage);
          sent++;
        } catch (error) {
          expect(error).toBeInstanceOf(FlashdutyError);
          if (error instanceof RequestValidationError) {
            refused++;
            expect(h.calls.length).toBe(before); // nothing went out
            return;
          }
          // Anything else came from the server, which must not have refused the request as invalid.
          throw error;
        }
        const answered = h.service.callLog.slice(logBefore);
        expect(answered.map((c) => c.status)).toEqual([200]);
      }),
      { numRuns: scale(300, 3000) },
    );
    figure('random params: refused locally / sent and answered 200', `${refused} / ${sent}`);
    expect(refused).toBeGreaterThan(0);
    expect(sent).toBeGreaterThan(0);
  });
});

describe('any answer → a typed result or a typed FlashdutyError', () => {
  let reply: { status: number; headers: Record<string, string>; body: Buffer } = {
    status: 200,
    headers: {},
    body: Buffer.alloc(0),
  };
  let server: Server;
  afterAll(() => server?.close());

  const body = fc.oneof(
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
    fc.string({ maxLength: 200 }).map((s) => Buffer.from(s)),
    fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v))),
    fc
      .record(
        {
          request_id: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)),
          data: fc.oneof(
            fc.record(
              {
                items: fc.oneof(fc.array(fc.object({ maxDepth: 1 }), { maxLength: 3 }), fc.jsonValue()),
                total: fc.oneof(fc.nat(), fc.jsonValue()),
                has_next_page: fc.oneof(fc.boolean(), fc.jsonValue()),
                search_after_ctx: fc.oneof(fc.string(), fc.jsonValue()),
              },
              { requiredKeys: [] },
            ),
            fc.jsonValue(),
          ),
          error: fc.oneof(
            fc.constant(undefined),
            fc.record(
              {
                code: fc.oneof(
                  fc.constantFrom('OK', 'InvalidParameter', 'RequestTooFrequently', 'Whatever'),
                  fc.jsonValue(),
                ),
                message: fc.oneof(fc.string(), fc.jsonValue()),
              },
              { requiredKeys: [] },
            ),
            fc.jsonValue(),
          ),
        },
        { requiredKeys: [] },
      )
      .map((v) => Buffer.from(JSON.stringify(v))),
  );
  const answer = fc.record({
    status: fc.oneof(
      fc.constantFrom(200, 201, 204, 400, 401, 403, 404, 413, 429, 500, 502, 503),
      fc.integer({ min: 200, max: 599 }),
    ),
    contentType: fc.constantFrom('application/json', 'text/html', 'application/octet-stream', ''),
    retryAfter: fc.constantFrom(undefined, '0', '-1', 'soon', '0.01', new Date(0).toUTCString(), '999999'),
    requestIdHeader: fc.constantFrom(undefined, 'hdr-id', ''),
    body,
  });

  it('holds for random status, headers and bytes', { timeout: 120_000 }, async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(reply.status, reply.headers);
        res.end(reply.status === 204 || reply.status === 304 ? undefined : reply.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new Flashduty({ appKey: 'k-123456', baseUrl, maxRetries: 1, logLevel: 'off', rateLimit: false });
    const deep = new Flashduty({
      appKey: 'k-123456',
      baseUrl,
      maxRetries: 0,
      logLevel: 'off',
      rateLimit: false,
      validate: 'deep',
    });
    const kinds = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(answer, fc.boolean(), async (a, useDeep) => {
        reply = {
          status: a.status,
          headers: {
            ...(a.contentType ? { 'Content-Type': a.contentType } : {}),
            ...(a.retryAfter !== undefined ? { 'Retry-After': a.retryAfter } : {}),
            ...(a.requestIdHeader !== undefined ? { 'Service-Request-Id': a.requestIdHeader } : {}),
          },
          body: a.body,
        };
        const settled = await Promise.allSettled([
          (useDeep ? deep : client).listIncidents({ start_time: NOW - DAY, end_time: NOW }),
          client.enableA2AAgent('a2a_x'),
        ]);
        for (const outcome of settled) {
          if (outcome.status === 'fulfilled') {
            kinds.set('result', (kinds.get('result') ?? 0) + 1);
            const result = outcome.value;
            expect(
              result instanceof IncidentPage || typeof (result as { requestId?: unknown }).requestId === 'string',
            ).toBe(true);
          } else {
            const error = outcome.reason as Error;
            expect(error, String(error)).toBeInstanceOf(FlashdutyError);
            kinds.set(error.name, (kinds.get(error.name) ?? 0) + 1);
          }
        }
      }),
      { numRuns: scale(200, 2000) },
    );
    figure('random answers → outcomes', JSON.stringify(Object.fromEntries(kinds)));
  });
});

describe('any webhook delivery → a documented answer; no thrown error, no leaked claim, no handler for invalid input', () => {
  it('holds for random bodies and headers', { timeout: 120_000 }, async () => {
    const claims = new Map<string, number>();
    const store = new MemoryStateStore();
    const wrap = {
      claim: async (request: ClaimRequest): Promise<Claim> => {
        const c = store.claim(request);
        if (c.status === 'claimed') claims.set(request.eventId, (claims.get(request.eventId) ?? 0) + 1);
        return c;
      },
      complete: async (id: string, token: string) => {
        claims.set(id, (claims.get(id) ?? 1) - 1);
        return store.complete(id, token);
      },
      release: async (id: string, token: string) => {
        claims.set(id, (claims.get(id) ?? 1) - 1);
        return store.release(id, token);
      },
      advance: (incident: string, t: number, now: number) => store.advance(incident, t, now),
    };
    const receiver = new WebhookReceiver({
      store: wrap,
      secret: { header: 'x-token', values: ['right'] },
      maxBodyBytes: 4096,
    });
    let handled = 0;
    receiver.on('event', () => void handled++);
    const statuses = new Map<number, number>();
    const valid = buildWebhookEvent('i_new');
    const delivery = fc.record({
      body: fc.oneof(
        fc.nat().map((n) => JSON.stringify({ ...valid, event_id: `valid-${n}-${Math.random()}` })),
        fc.string({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 300 }),
        fc.jsonValue({ maxDepth: 3 }),
        fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
        fc
          .record({
            field: fc.constantFrom('event_id', 'event_time', 'event_type', 'incident', 'person'),
            value: fc.jsonValue({ maxDepth: 2 }),
          })
          .map(({ field, value }) => JSON.stringify({ ...valid, event_id: `${Math.random()}`, [field]: value })),
        fc.constant(JSON.stringify({ ...valid, incident: { ...valid.incident, description: 'x'.repeat(5000) } })),
        fc.constant(null),
      ),
      contentType: fc.constantFrom(
        'application/json',
        'application/cloudevents+json',
        'text/plain',
        undefined,
        'APPLICATION/JSON; charset=utf-8',
      ),
      token: fc.constantFrom('right', 'right', 'wrong', undefined),
    });
    await fc.assert(
      fc.asyncProperty(delivery, async ({ body, contentType, token }) => {
        const before = handled;
        const headers: Record<string, string> = {};
        if (contentType) headers['content-type'] = contentType;
        if (token) headers['x-token'] = token;
        const result = await receiver.receive({ body: body as string, headers });
        statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
        expect([200, 400, 401, 413, 415]).toContain(result.status);
        if (result.outcome !== 'accepted') expect(handled).toBe(before);
        if (token !== 'right') expect(result.status).toBe(401);
      }),
      { numRuns: scale(500, 5000) },
    );
    expect([...claims.values()].every((open) => open === 0)).toBe(true); // every claim completed or released
    figure('random deliveries → statuses', JSON.stringify(Object.fromEntries(statuses)));
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(0);
  });
});
