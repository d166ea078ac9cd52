// The paging contract (src/client/pagination/scheme.ts): limitOf, and the rules every PagingScheme
// keeps, checked over every list operation the generator wrote a paging rule for. Rules checked:
// - limitOf: the request's `limit` where it is a positive number, else the operation's default;
//   through the real client against the mock (MSW, in process), that is the page size the paging
//   works with (a full page, a page an offset starts, the deepest page);
// - every generated paging rule names at least one scheme; a scheme is keyed by its mode
//   (PagingMode: 'cursor' or 'number'), which is its class's;
// - place() sets the position in the scheme's own field and leaves every other field; placing
//   again replaces it; with no position, the field is left out and read() finds none;
// - read() gives back what place() put: a walk starts where it was placed (origin);
// - origin() and next() give positions of the scheme's own mode; next() only where more();
// - only a cursor scheme reads a cursor from the answer.
import fc from 'fast-check';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Flashduty, RequestValidationError } from '../../../../src/index.js';
import { limitOf, type PagingMode, type Position } from '../../../../src/client/pagination/scheme.js';
import { SCHEMES, schemesOf } from '../../../../src/client/pagination/schemes/index.js';
import type { PagingRule } from '../../../../src/client/resources/rules.js';
import { RULES } from '../../../../src/generated/operation-rules.js';
import { createMockService } from '../../../../src/testing/index.js';
import { rejection } from '../../../helpers.js';

const rule: PagingRule = { items: 'items', limit: 20, number: true };

describe('limitOf', () => {
  it("is the request's limit where it is a positive number", () => {
    expect(limitOf({ limit: 5 }, rule)).toBe(5);
    expect(limitOf({ limit: 1, p: 3, offset: 40 }, rule)).toBe(1);
    expect(limitOf({ limit: 1000 }, { ...rule, limit: 10 })).toBe(1000);
  });

  it("is the operation's default otherwise", () => {
    for (const limit of [undefined, null, 0, -5, Number.NaN, '5', [5], { limit: 5 }])
      expect(limitOf({ limit }, rule), JSON.stringify(limit)).toBe(20);
    expect(limitOf({}, { ...rule, limit: 100 })).toBe(100);
  });
});

/** Every generated list operation's paging rule, by path. */
const PAGED = Object.entries(RULES)
  .filter(([, operation]) => operation.paging !== undefined)
  .map(([path, operation]) => [path, operation.paging as PagingRule] as const);

describe('the schemes of every generated list operation', () => {
  it('are found for each, at least one, keyed by their mode', () => {
    expect(PAGED.length).toBeGreaterThan(20);
    const modes = new Set<PagingMode>(['cursor', 'number']);
    for (const [path, paging] of PAGED) {
      const schemes = schemesOf(paging);
      expect(schemes.size, path).toBeGreaterThan(0);
      for (const [mode, scheme] of schemes) {
        expect(modes.has(mode), path).toBe(true);
        expect(scheme.by, path).toBe(mode);
      }
      // A scheme's mode is its class's.
      for (const kind of SCHEMES) expect(kind.of(paging)?.by ?? kind.by, path).toBe(kind.by);
      expect(schemes.has('cursor'), path).toBe(paging.cursor === true);
      expect(schemes.has('number'), path).toBe(paging.number === true);
    }
  });

  /** A position of `mode` that `paging` can ask for with page size `limit`. */
  const positionOf = (mode: PagingMode, paging: PagingRule, limit: number): fc.Arbitrary<Position> =>
    mode === 'cursor'
      ? fc.string({ minLength: 1, maxLength: 12 }).map((c) => ({ c }))
      : fc.integer({ min: 1, max: Math.max(1, Math.floor((paging.depth ?? 10_000) / limit)) }).map((p) => ({ p }));

  const cases = PAGED.flatMap(([path, paging]) =>
    [...schemesOf(paging)].map(([mode, scheme]) => ({ path, paging, mode, scheme })),
  );

  it.each(cases)('$path by $mode: place, read and origin agree; other fields are left', ({ paging, mode, scheme }) => {
    const limits = fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined });
    const inputs = fc.tuple(limits, fc.string()).chain(([limit, other]) => {
      const base = { ...(limit === undefined ? {} : { limit }), x_other: other };
      const size = limitOf(base, paging);
      return fc.tuple(fc.constant(base), positionOf(mode, paging, size), positionOf(mode, paging, size));
    });
    fc.assert(
      fc.property(inputs, ([base, at, again]) => {
        const placed = scheme.place(base, at, paging);
        expect(placed).toMatchObject(base);
        expect(scheme.origin(scheme.read(placed, paging))).toEqual(scheme.origin(at));
        expect(scheme.place(scheme.place(base, again, paging), at, paging)).toEqual(placed);
        const none = scheme.place(placed, {}, paging);
        expect(none).toEqual(base);
        expect(scheme.read(none, paging)).toEqual({});
        for (const position of [scheme.origin(at), scheme.origin({})])
          for (const key of Object.keys(position)) expect(key).toBe(mode === 'cursor' ? 'c' : 'p');
      }),
      { numRuns: 50 },
    );
  });

  it.each(cases)(
    '$path by $mode: a next page only where there is more, at a position of its mode',
    ({ mode, scheme }) => {
      const answer = fc.record({
        data: fc.record(
          {
            has_next_page: fc.boolean(),
            total: fc.integer({ min: 0, max: 200 }),
            search_after_ctx: fc.constantFrom('', 'c1', 'c2'),
            next_cursor: fc.constantFrom('', 'n1'),
          },
          { requiredKeys: [] },
        ),
        items: fc.array(fc.constant({}), { maxLength: 30 }),
        at: fc.oneof(
          fc.constant({}),
          fc.record({ c: fc.constant('c0') }),
          fc.record({ p: fc.integer({ min: 1, max: 5 }) }),
        ),
        limit: fc.integer({ min: 1, max: 30 }),
      });
      fc.assert(
        fc.property(answer, (page) => {
          const next = scheme.next(page);
          if (next === undefined) return;
          expect(scheme.more(page)).toBe(true);
          expect(Object.keys(next)).toEqual([mode === 'cursor' ? 'c' : 'p']);
          if (mode === 'cursor') expect(next.c).toBe(scheme.cursorOf?.(page.data));
        }),
        { numRuns: 200 },
      );
      expect(typeof scheme.cursorOf === 'function').toBe(mode === 'cursor');
    },
  );
});

describe("limitOf, as the client's paging uses it (against the mock, MSW in process)", () => {
  const agents = Array.from({ length: 20 }, (_, i) => ({ agent_id: `a2a_${i}` }));
  const service = createMockService({ seed: 4, incidents: 5, now: Date.UTC(2026, 10, 1), rateLimits: false, agents });
  const server = setupServer(...service.handlers);
  const sent: string[] = [];
  server.events.on('request:start', ({ request }) => void sent.push(new URL(request.url).pathname));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  afterEach(() => {
    sent.length = 0;
  });
  const client = () =>
    new Flashduty({ appKey: service.appKey, baseUrl: 'https://api.flashcat.cloud', logLevel: 'off' });

  it('a page is full by the request’s limit, else by the default (20)', async () => {
    // An alert's feed in the mock: 35 rows, and the list says nothing of a next page.
    const byDefault = await client().alerts.feed({ alert_id: 'a1' });
    expect([byDefault.items.length, byDefault.hasNextPage]).toEqual([20, true]);
    const full = await client().alerts.feed({ alert_id: 'a1', limit: 35 });
    expect([full.items.length, full.hasNextPage]).toEqual([35, true]);
    const short = await client().alerts.feed({ alert_id: 'a1', limit: 40 });
    expect([short.items.length, short.hasNextPage]).toEqual([35, false]);
  });

  it('an offset must start a page of the request’s limit, else of the default', async () => {
    const error = await rejection(client().a2aAgents.list({ offset: 10 }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toBe('offset: must be a multiple of limit (20) to page from it, got 10');
    expect(sent).toEqual([]);
    const page = await client().a2aAgents.list({ offset: 10, limit: 5 });
    expect((await page.nextPage())?.request).toEqual({ offset: 15, limit: 5 });
  });

  it('the deepest page the service serves counts by the request’s limit, else by the default', async () => {
    const window = { start_time: 1_790_000_000 - 86_400, end_time: 1_790_000_000 };
    const error = await rejection(client().incidents.list({ ...window, p: 501 }));
    expect((error as Error).message).toBe(
      'p: p × limit must not exceed 10000 (got 501 × 20); page by cursor to go further',
    );
    expect(sent).toEqual([]);
    await client().incidents.list({ ...window, p: 501, limit: 10 });
    expect(sent).toEqual(['/incident/list']);
  });
});
