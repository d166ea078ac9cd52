// The walk's rules (src/client/pagination/walk.ts), through `client.incidents.list` and a few other
// lists against a list service in memory (no socket): every item once across pages and 31-day
// windows (the edge second, ids repeated within a window), no loop (a cursor sent before, pages of
// only items already yielded, more pages said but no way to ask), maxPages, the awaited first page
// reused, and resuming from a page's token.
import { describe, expect, it } from 'vitest';
import { FlashdutyError, type ListPage, RequestValidationError } from '../../../../src/index.js';
import { STALE_PAGES } from '../../../../src/client/pagination/walk.js';
import { collect, rejection } from '../../../helpers.js';
import { type Handler, memoryClient, ok, type Sent } from '../../../support/responder.js';

const DAY = 86_400;
const END = 1_790_000_000;

interface Item {
  incident_id: string;
  start_time: number;
}

const item = (n: number, start_time: number): Item => ({ incident_id: n.toString(16).padStart(24, '0'), start_time });

/**
 * The incident list as the service pages it: the items in the request's window, newest first (or
 * oldest), from the cursor (the next row's index) or page `p`; `quirk` may change the answer.
 */
function listService(items: Item[], quirk?: (data: Record<string, unknown>, sent: Sent) => void): Handler {
  return (sent) => {
    const body = sent.body as { start_time: number; end_time: number; asc?: boolean; limit?: number; p?: number };
    const cursor = sent.body?.search_after_ctx as string | undefined;
    const order = body.asc ? 1 : -1;
    const matching = items
      .filter((i) => i.start_time >= body.start_time && i.start_time <= body.end_time)
      .sort((a, b) => (a.start_time - b.start_time || (a.incident_id < b.incident_id ? -1 : 1)) * order);
    const limit = body.limit ?? 20;
    const from = cursor !== undefined ? Number(cursor) : ((body.p ?? 1) - 1) * limit;
    const page = matching.slice(from, from + limit);
    const more = from + page.length < matching.length;
    const data: Record<string, unknown> = { items: page, total: matching.length, has_next_page: more };
    if (more) data.search_after_ctx = String(from + page.length);
    quirk?.(data, sent);
    return ok(data, `r${sent.url.pathname}`);
  };
}

const ids = (items: Item[]) => items.map((i) => i.incident_id);
const week = { start_time: END - 7 * DAY, end_time: END };
const spread = (count: number, every: number) => Array.from({ length: count }, (_, n) => item(n + 1, END - n * every));

describe('walking pages', () => {
  it('yields every item once by cursor, the default, and ends on the last page', async () => {
    const items = spread(25, 3600);
    const { client, sent } = memoryClient(listService(items));
    expect(ids(await collect(client.incidents.list({ ...week, limit: 10 })))).toEqual(ids(items));
    expect(sent.map((s) => s.body?.search_after_ctx)).toEqual([undefined, '10', '20']);
  });

  it('counts p up by number, from the params’ page or the first', async () => {
    const items = spread(25, 3600);
    const { client, sent } = memoryClient(listService(items));
    const pages = await collect(client.incidents.list({ ...week, limit: 10 }).pages({ by: 'number' }));
    expect(pages.map((page) => page.items.length)).toEqual([10, 10, 5]);
    expect(sent.map((s) => s.body?.p)).toEqual([1, 2, 3]);
    const later = await collect(client.incidents.list({ ...week, limit: 10, p: 2 }).items({ by: 'number' }));
    expect(ids(later)).toEqual(ids(items.slice(10)));
  });

  it('splits a range over 31 days into windows in the requested order, an item at the edge second once', async () => {
    const edge = END - 31 * DAY;
    const items = [item(1, END - 10), item(2, edge + 1), item(3, edge), item(4, edge - 1), item(5, END - 60 * DAY)];
    for (const asc of [false, true]) {
      const { client, sent } = memoryClient(listService(items));
      const range = { start_time: END - 62 * DAY, end_time: END, asc, limit: 2 };
      const got = ids(await collect(client.incidents.list(range)));
      expect(got, `asc=${asc}`).toEqual(ids(asc ? [...items].reverse() : items));
      const windows = [...new Set(sent.map((s) => `${String(s.body?.start_time)}..${String(s.body?.end_time)}`))];
      expect(windows, `asc=${asc}`).toEqual(
        asc
          ? [`${END - 62 * DAY}..${END - 31 * DAY}`, `${edge}..${END}`]
          : [`${edge}..${END}`, `${END - 62 * DAY}..${edge}`],
      );
    }
  });

  it(`walks on past ${STALE_PAGES} and more pages of only the edge second's items (yielded by the window before)`, async () => {
    const edge = END - 31 * DAY;
    const storm = Array.from({ length: 2 * STALE_PAGES + 1 }, (_, n) => item(100 + n, edge)); // an alert storm's second
    const items = [item(1, END - 10), ...storm, item(2, END - 40 * DAY)];
    for (const asc of [false, true]) {
      const { client } = memoryClient(listService(items));
      const range = { start_time: END - 62 * DAY, end_time: END, asc, limit: 1 };
      const got = ids(await collect(client.incidents.list(range)));
      expect(got.sort(), `asc=${asc}`).toEqual(ids(items).sort());
    }
  });

  it("yields an audit doc at a window's edge once, by its created_at in ms against the windows' seconds", async () => {
    const edge = END - 90 * DAY;
    const docs = [END * 1000 - 10, edge * 1000 + 500, edge * 1000, edge * 1000 - 500].map((created_at, n) => ({
      request_id: `r${n}`,
      created_at,
    }));
    const { client } = memoryClient((sent) => {
      const body = sent.body as { start_time: number; end_time: number; search_after_ctx?: string; limit?: number };
      const matching = docs.filter(
        (d) => d.created_at >= body.start_time * 1000 && d.created_at <= body.end_time * 1000,
      );
      const from = Number(body.search_after_ctx ?? 0);
      const page = matching.slice(from, from + (body.limit ?? 20));
      const more = from + page.length < matching.length;
      return ok({
        docs: page,
        total: matching.length,
        ...(more ? { search_after_ctx: String(from + page.length) } : {}),
      });
    });
    const got = await collect(client.audits.search({ start_time: END - 100 * DAY, end_time: END, limit: 1 }));
    expect(got.map((d) => d.request_id).sort()).toEqual(['r0', 'r1', 'r2', 'r3']);
  });

  it('does not yield an id twice within a window (pages shifting while items are added)', async () => {
    const items = spread(6, 60);
    // Each page after the first starts one row early, as when an item arrived in front meanwhile.
    const { client } = memoryClient(
      listService(items, (data, sent) => {
        const p = Number(sent.body?.p ?? 1);
        if (p > 1) data.items = items.slice((p - 1) * 2 - 1, p * 2);
      }),
    );
    const got = await collect(client.incidents.list({ ...week, limit: 2 }).items({ by: 'number' }));
    expect(ids(got)).toEqual(ids(items));
  });

  it('stops at maxPages and maxItems, asking for no page more', async () => {
    const { client, sent } = memoryClient(listService(spread(30, 60)));
    expect(await collect(client.incidents.list({ ...week, limit: 5 }).pages({ maxPages: 2 }))).toHaveLength(2);
    expect(sent).toHaveLength(2);
    expect(await collect(client.incidents.list({ ...week, limit: 5 }).items({ maxItems: 7 }))).toHaveLength(7);
    expect(sent).toHaveLength(4);
  });

  it('awaiting and then iterating one call sends its first request once', async () => {
    const items = spread(12, 60);
    const { client, sent } = memoryClient(listService(items));
    const pending = client.incidents.list({ ...week, limit: 5 });
    const first = await pending;
    expect(ids(await collect(pending))).toEqual(ids(items));
    expect(sent).toHaveLength(3);
    expect(ids(first.items)).toEqual(ids(items.slice(0, 5)));
  });

  it('refuses a mode the list does not page by', async () => {
    const { client } = memoryClient(listService([]));
    const walk = client.webhookHistory
      .list({ start_time: END * 1000 - 1000, end_time: END * 1000 })
      .pages({ by: 'number' });
    const error = await rejection(collect(walk));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).message).toBe('by: webhookHistory.list pages by cursor only');
  });
});

describe('a walk never loops', () => {
  it('ends with a FlashdutyError on a cursor the service sent before', async () => {
    const first = item(1, END);
    const { client, sent } = memoryClient(
      listService([first], (data) => {
        [data.items, data.has_next_page, data.search_after_ctx] = [[first], true, 'same'];
      }),
    );
    const pages: ListPage<unknown>[] = [];
    const error = await rejection(
      (async () => {
        for await (const page of client.incidents.list({ ...week, limit: 1 }).pages()) pages.push(page);
      })(),
    );
    expect(error).toBeInstanceOf(FlashdutyError);
    expect((error as Error).message).toMatch(
      /^listIncidents: the service sent a cursor it had sent before \(request r\/incident\/list\)/,
    );
    expect(sent).toHaveLength(2);
  });

  it.each(['cursor', 'number'] as const)('ends after %s pages of only items already yielded', async (by) => {
    let n = 0;
    const first = item(1, END);
    // A service that ignores the cursor and the page number: the same item, under a fresh cursor each time.
    const { client, sent } = memoryClient(
      listService([first], (data) => {
        [data.items, data.has_next_page, data.search_after_ctx] = [[first], true, `fresh-${n++}`];
      }),
    );
    const error = await rejection(collect(client.incidents.list(week).items({ by })));
    expect((error as Error).message).toMatch(
      new RegExp(`^listIncidents: ${STALE_PAGES} pages in a row held only items already yielded`),
    );
    expect(sent).toHaveLength(1 + STALE_PAGES);
  });

  it('judges a list whose items have no id by the items themselves', async () => {
    const { client, sent } = memoryClient(() => ok({ items: [{ person_id: 1 }], total: 99, has_next_page: true }));
    const error = await rejection(collect(client.members.list({ limit: 1 })));
    expect((error as Error).message).toMatch(/^members\.list: 3 pages in a row held only items already yielded/);
    expect(sent).toHaveLength(4);
  });

  it('stops, with a warning, where the service says more pages exist but not how to ask for them', async () => {
    const lines: string[] = [];
    const { client } = memoryClient(() => ok({ items: [item(1, END)], total: 9, has_next_page: true }), {
      logLevel: 'warn',
      logger: { warn: (line: string) => lines.push(line), error: () => {}, info: () => {}, debug: () => {} },
    });
    expect(await collect(client.incidents.list(week).pages())).toHaveLength(1);
    expect(lines).toEqual([
      expect.stringContaining('listIncidents: the server said more pages exist but not how to ask for them'),
    ]);
  });

  it('ends a cursor walk on an empty page, even with a fresh cursor', async () => {
    const { client, sent } = memoryClient(() =>
      ok({ items: [], total: 9, has_next_page: true, search_after_ctx: 'c' }),
    );
    expect(await collect(client.incidents.list(week).pages())).toHaveLength(1);
    expect(sent).toHaveLength(1);
  });
});

describe('resuming', () => {
  const range = { start_time: END - 62 * DAY, end_time: END, limit: 2 };
  const items = [
    item(1, END - 5),
    item(2, END - 6),
    item(3, END - 7),
    item(4, END - 40 * DAY),
    item(5, END - 41 * DAY),
  ];

  it.each(['cursor', 'number'] as const)('continues by %s right after any page, across windows', async (by) => {
    const { client } = memoryClient(listService(items));
    const pages = await collect(client.incidents.list(range).pages({ by }));
    expect(ids(pages.flatMap((page) => page.items))).toEqual(ids(items));
    for (const [k, page] of pages.entries()) {
      const rest = await collect(client.incidents.list(range).items({ by, resumeFrom: page.resumeToken }));
      expect([...ids(pages.slice(0, k + 1).flatMap((p) => p.items)), ...ids(rest)], `after page ${k}`).toEqual(
        ids(items),
      );
    }
  });

  it('refuses a token of other params, and one that is no token', async () => {
    const { client } = memoryClient(listService(items));
    const [page] = await collect(client.incidents.list(range).pages({ maxPages: 1 }));
    for (const [params, token] of [
      [{ ...range, limit: 3 }, page?.resumeToken],
      [range, 'not a token'],
    ] as const) {
      const error = await rejection(collect(client.incidents.list(params).items({ resumeFrom: token })));
      expect((error as RequestValidationError).field).toBe('resumeFrom');
    }
  });
});
