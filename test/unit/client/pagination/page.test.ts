// One page of a list (src/client/pagination/page.ts), as the real client makes it against the mock
// service served by MSW in process (no socket). Rules checked:
// - a page holds what its answer said: the items, the total (undefined where the answer has none),
//   whether there is a next page, the cursor (undefined where the list does not page by cursor),
//   the request id;
// - its request is the wire request, frozen, and not the caller's params object;
// - nextPage() asks its call for the page after it: of the same class, by the list's own scheme
//   (cursor, else page number), each item once, null after the last page without a request; a page
//   is not used up by asking;
// - its resume token is the same each time it is read, and continues right after the page;
// - toJSON() shows its fields and its resume token;
// - each page keeps the HTTP answer it came from (withResponse), the app key redacted.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Flashduty, IncidentPage, ListPage } from '../../../../src/index.js';
import { RESPONSE } from '../../../../src/core/api-promise.js';
import { PAGE_RECORD } from '../../../../src/client/pagination/page.js';
import { createMockService } from '../../../../src/testing/index.js';
import { collect, rejection } from '../../../helpers.js';

const NOW_MS = Date.UTC(2026, 10, 1);
const NOW = NOW_MS / 1000;
const window = { start_time: NOW - 30 * 86_400, end_time: NOW };

const service = createMockService({ seed: 4, incidents: 30, now: NOW_MS, rateLimits: false });
const server = setupServer(...service.handlers);
/** The JSON bodies of the calls the mock received, in order. */
const received: Array<Record<string, unknown> | undefined> = [];
server.events.on('request:start', ({ request }) => {
  received.push(undefined);
  const at = received.length - 1;
  void request
    .clone()
    .text()
    .then((text) => (received[at] = text ? (JSON.parse(text) as Record<string, unknown>) : {}));
});
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
afterEach(() => {
  received.length = 0;
});

const client = () => new Flashduty({ appKey: service.appKey, baseUrl: 'https://api.flashcat.cloud', logLevel: 'off' });

/** The incident list's answer for `body`, asked of the mock directly. */
async function answerOf(body: object): Promise<Record<string, unknown>> {
  const response = await service.fetch(
    new Request(`https://api.flashcat.cloud/incident/list?app_key=${service.appKey}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  return ((await response.json()) as { data: Record<string, unknown> }).data;
}

const idsOf = (items: Array<{ incident_id: string }>) => items.map((item) => item.incident_id);

describe('a page', () => {
  it('holds what its answer said: items, total, next page, cursor, request id', async () => {
    const params = { ...window, limit: 7 };
    const expected = await answerOf(params);
    expect(expected.has_next_page).toBe(true);
    const { data: page, response } = await client().incidents.list(params).withResponse();
    expect(page).toBeInstanceOf(IncidentPage);
    expect(page.items).toEqual(expected.items);
    expect(page.total).toBe(expected.total);
    expect(page.hasNextPage).toBe(true);
    expect(page.searchAfterCtx).toBe(expected.search_after_ctx);
    expect(page.searchAfterCtx).toEqual(expect.any(String));
    expect(page.requestId).toBe(response.requestId);
    expect(page.requestId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('has no total or cursor where its list answers none, and a ListPage class where the API names none', async () => {
    // An alert's feed: the mock answers its items alone (a collection made from the OpenAPI's example).
    const page = await client().alerts.feed({ alert_id: 'a1', limit: 5 });
    expect(page).toBeInstanceOf(ListPage);
    expect(page).not.toBeInstanceOf(IncidentPage);
    expect(page.items).toHaveLength(5);
    expect([page.total, page.searchAfterCtx, page.hasNextPage]).toEqual([undefined, undefined, true]);
  });

  it('keeps the wire request, frozen, apart from the params given', async () => {
    const params = { ...window, limit: 3, progress: ['Triggered', 'Processing'] as Array<'Triggered' | 'Processing'> };
    const page = await client().incidents.list(params);
    expect(page.request).toEqual({ ...window, limit: 3, progress: 'Triggered,Processing' }); // as sent
    expect(received).toEqual([page.request]);
    expect(Object.isFrozen(page.request)).toBe(true);
    expect(() => {
      (page.request as { limit: number }).limit = 99;
    }).toThrow(TypeError);
    expect(Object.isFrozen(params)).toBe(false);
    params.limit = 50;
    expect(page.request.limit).toBe(3);
    // Params with nothing to convert, sent as they are: still not frozen by the page.
    const plain = { limit: 2 };
    const other = await client().rum.applications.list(plain);
    expect(other.request).toEqual(plain);
    expect([Object.isFrozen(other.request), Object.isFrozen(plain)]).toEqual([true, false]);
  });

  it('shows its fields and its resume token as JSON', async () => {
    const page = await client().incidents.list({ ...window, limit: 4 });
    const json = page.toJSON();
    expect(json).toEqual({
      items: page.items,
      total: page.total,
      hasNextPage: true,
      searchAfterCtx: page.searchAfterCtx,
      requestId: page.requestId,
      request: page.request,
      resumeToken: page.resumeToken,
    });
    expect(JSON.parse(JSON.stringify(page))).toEqual(JSON.parse(JSON.stringify(json)));
  });
});

describe('nextPage', () => {
  it('gives the page after it by cursor, of its class, each item once, then null without asking', async () => {
    const params = { ...window, limit: 8 };
    const every = idsOf(await collect(client().incidents.list(params)));
    expect(every.length).toBeGreaterThan(16);
    received.length = 0;
    const pages: IncidentPage[] = [];
    for (let page: IncidentPage | null = await client().incidents.list(params); page; page = await page.nextPage())
      pages.push(page);
    expect(pages.every((page) => page instanceof IncidentPage)).toBe(true);
    expect(idsOf(pages.flatMap((page) => page.items))).toEqual(every);
    expect(pages.map((page) => page.hasNextPage)).toEqual([...pages.slice(1).map(() => true), false]);
    // Each next page asked by the cursor of the one before; none asked after the last.
    expect(received).toHaveLength(pages.length);
    expect(received.slice(1).map((body) => body?.search_after_ctx)).toEqual(
      pages.slice(0, -1).map((page) => page.searchAfterCtx),
    );
    expect(pages.at(-1)?.searchAfterCtx).toBeUndefined();
    expect(await pages.at(-1)?.nextPage()).toBeNull();
    expect(received).toHaveLength(pages.length);
  });

  it('gives the page after it by number where the list pages by number only', async () => {
    const first = await client().alerts.feed({ alert_id: 'a1', limit: 15 }); // 35 rows
    const second = await first.nextPage();
    const third = await second?.nextPage();
    expect([second?.request, third?.request]).toEqual([
      { alert_id: 'a1', limit: 15, p: 2 },
      { alert_id: 'a1', limit: 15, p: 3 },
    ]);
    expect(third?.constructor).toBe(first.constructor);
    expect(third?.hasNextPage).toBe(false); // 5 of 15: not a full page
    expect(await third?.nextPage()).toBeNull();
    expect(received).toHaveLength(3);
  });

  it('leaves the page as it was: asked twice, the same next page', async () => {
    const first = await client().incidents.list({ ...window, limit: 5 });
    const [a, b] = await Promise.all([first.nextPage(), first.nextPage()]);
    expect(a).not.toBe(b);
    expect(idsOf(a?.items ?? [])).toEqual(idsOf(b?.items ?? []));
    expect(a?.request).toEqual(b?.request);
    expect(first.hasNextPage).toBe(true);
  });
});

describe('resumeToken', () => {
  it('is the same each time, and continues right after its page', async () => {
    const params = { ...window, limit: 6 };
    const every = idsOf(await collect(client().incidents.list(params)));
    const first = await client().incidents.list(params);
    const second = (await first.nextPage()) as IncidentPage;
    expect(second.resumeToken).toBe(second.resumeToken);
    expect(second.resumeToken).not.toBe(first.resumeToken);
    const rest = idsOf(await collect(client().incidents.list(params).items({ resumeFrom: second.resumeToken })));
    expect([...idsOf(first.items), ...idsOf(second.items), ...rest]).toEqual(every);
  });

  it("resumes by the mode that wrote it (a page number's token read by cursor started over); another mode asked is refused", async () => {
    const params = { ...window, limit: 4 };
    const every = idsOf(await collect(client().incidents.list(params).items({ by: 'number' })));
    const walked: string[] = [];
    let token = '';
    for await (const page of client().incidents.list(params).pages({ by: 'number', maxPages: 2 })) {
      walked.push(...idsOf(page.items));
      token = page.resumeToken;
    }
    const rest = idsOf(await collect(client().incidents.list(params).items({ resumeFrom: token })));
    expect([...walked, ...rest]).toEqual(every);
    const refused = await rejection(
      collect(client().incidents.list(params).items({ by: 'cursor', resumeFrom: token })),
    );
    expect(refused).toMatchObject({
      name: 'RequestValidationError',
      field: 'resumeFrom',
      message: expect.stringContaining("resume with by: 'number', or without by"),
    });
  });

  it('of the last page resumes to nothing', async () => {
    const params = { ...window, limit: 50 };
    const last = await client().incidents.list(params);
    expect(last.hasNextPage).toBe(false);
    received.length = 0;
    expect(await collect(client().incidents.list(params).items({ resumeFrom: last.resumeToken }))).toEqual([]);
    expect(received).toEqual([]);
  });
});

describe('the HTTP answer', () => {
  it('each page keeps its own, the app key redacted', async () => {
    const { data: first, response } = await client()
      .incidents.list({ ...window, limit: 5 })
      .withResponse();
    const second = (await first.nextPage()) as IncidentPage;
    const own = [first[RESPONSE](), second[RESPONSE]()];
    expect(own[0]).toEqual(response);
    expect(own.map((info) => [info.status, info.requestId, info.url])).toEqual([
      [200, first.requestId, 'https://api.flashcat.cloud/incident/list?app_key=***'],
      [200, second.requestId, 'https://api.flashcat.cloud/incident/list?app_key=***'],
    ]);
    expect(first.requestId).not.toBe(second.requestId);
    expect(JSON.stringify(own.map((info) => [...info.headers]))).not.toContain(service.appKey);
    // What the call keeps of a page is the page's own, the same each time it is asked.
    expect(first[PAGE_RECORD]()).toBe(first[PAGE_RECORD]());
    expect(first[PAGE_RECORD]()).not.toBe(second[PAGE_RECORD]());
  });
});
