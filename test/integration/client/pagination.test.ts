import { afterEach, describe, expect, it } from 'vitest';
import { FlashdutyError, type IncidentInfo, IncidentPage, RequestValidationError } from '../../../src/index.js';
import { STALE_PAGES } from '../../../src/client/pagination/walk.js';
import { collect, DAY, NOW, NOW_MS, rejection, startMock } from '../../helpers.js';

const h = await startMock({ incidents: 150, rateLimits: false });
afterEach(() => h.service.faults.clear());
const client = h.client();
const last7 = { start_time: NOW - 7 * DAY, end_time: NOW };

/** What the service holds for a window, newest first (or oldest first), as the spec sorts it. */
function expected(start: number, end: number, asc = false): string[] {
  return h.service.world.incidents
    .filter((i) => i.start_time >= start && i.start_time <= end)
    .sort((a, b) => (a.start_time - b.start_time || (a.incident_id < b.incident_id ? -1 : 1)) * (asc ? 1 : -1))
    .map((i) => i.incident_id);
}
const ids = (incidents: IncidentInfo[]) => incidents.map((i) => i.incident_id);

function addIncidentAt(start_time: number): IncidentInfo {
  const template = h.service.world.incidents[0] as IncidentInfo;
  const suffix = (h.service.world.incidents.length + 1).toString(16).padStart(16, '0');
  const incident = {
    ...structuredClone(template),
    start_time,
    incident_id: start_time.toString(16).padStart(8, '0') + suffix,
  };
  h.service.world.incidents.push(incident);
  return incident;
}

describe('one page', () => {
  it('awaits to an IncidentPage with the wire fields in camelCase', async () => {
    const page = await client.listIncidents({ ...last7, limit: 5 });
    expect(page).toBeInstanceOf(IncidentPage);
    expect(page.items).toHaveLength(5);
    expect(ids(page.items)).toEqual(expected(last7.start_time, last7.end_time).slice(0, 5));
    expect(page.total).toBe(expected(last7.start_time, last7.end_time).length);
    expect(page.hasNextPage).toBe(true);
    expect(page.searchAfterCtx).toEqual(expect.any(String));
    expect(page.requestId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('walks on with nextPage() by cursor and ends with null', async () => {
    const all = expected(last7.start_time, last7.end_time);
    const seen: string[] = [];
    let page: IncidentPage | null = await client.listIncidents({ ...last7, limit: 7 });
    let requests = 0;
    while (page) {
      seen.push(...ids(page.items));
      page = await page.nextPage();
      if (page) expect(page).toBeInstanceOf(IncidentPage);
      requests++;
    }
    expect(seen).toEqual(all);
    expect(requests).toBe(Math.ceil(all.length / 7));
  });

  it('sends the params as they were at the call, whatever the caller changes before awaiting', async () => {
    const params = { ...last7, limit: 3 };
    const pending = client.listIncidents(params);
    params.limit = 9;
    const page = await pending;
    expect(page.items).toHaveLength(3);
    expect(h.calls.at(-1)?.body).toMatchObject({ limit: 3 });
  });

  it('sends nothing until awaited or iterated', async () => {
    const before = h.calls.length;
    const pending = client.listIncidents(last7);
    // A later call, awaited to its answer: had `pending` been sent when made, it would be on the
    // wire before this one.
    await client.listIncidents({ ...last7, limit: 1 });
    expect(h.calls.slice(before).map((c) => c.body)).toEqual([{ ...last7, limit: 1 }]);
    await pending;
    await pending; // awaiting twice sends once
    expect(h.calls.length).toBe(before + 2);
    expect(h.calls.at(-1)?.body).toEqual(last7);
  });

  it('converts Dates to Unix seconds and arrays to comma-separated strings on the wire', async () => {
    await client.listIncidents({
      start_time: new Date((NOW - DAY) * 1000 + 999),
      end_time: new Date(NOW * 1000),
      progress: ['Triggered', 'Processing'],
      incident_severity: ['Critical'],
      channel_ids: [0],
    });
    expect(h.calls.at(-1)?.body).toEqual({
      start_time: NOW - DAY,
      end_time: NOW,
      progress: 'Triggered,Processing',
      incident_severity: 'Critical',
      channel_ids: [0],
    });
    const page = await client.listIncidents({ ...last7, progress: 'Closed', limit: 100 });
    expect(page.items.every((i) => i.progress === 'Closed')).toBe(true);
  });

  it('refuses a single request over 31 days, pointing at iteration', async () => {
    const error = await rejection(client.listIncidents({ start_time: NOW - 40 * DAY, end_time: NOW }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toMatch(/31 days.*iterate/);
  });
});

describe('iteration', () => {
  it('yields every match once by cursor (the default)', async () => {
    const all = expected(last7.start_time, last7.end_time);
    expect(all.length).toBeGreaterThan(20);
    const before = h.calls.length;
    expect(ids(await collect(client.listIncidents({ ...last7, limit: 10 })))).toEqual(all);
    expect(h.calls.length - before).toBe(Math.ceil(all.length / 10));
    expect(
      h.calls
        .slice(before + 1)
        .every((c) => typeof (c.body as { search_after_ctx?: string }).search_after_ctx === 'string'),
    ).toBe(true);
  });

  it('yields the same by page number, counting p up', async () => {
    const before = h.calls.length;
    const pages = await collect(client.listIncidents({ ...last7, limit: 10, asc: true }).pages({ by: 'number' }));
    expect(ids(pages.flatMap((p) => p.items))).toEqual(expected(last7.start_time, last7.end_time, true));
    expect(h.calls.slice(before).map((c) => (c.body as { p: number }).p)).toEqual(pages.map((_, i) => i + 1));
  });

  it('stops at maxPages and maxItems', async () => {
    let before = h.calls.length;
    expect(await collect(client.listIncidents({ ...last7, limit: 5 }).pages({ maxPages: 3 }))).toHaveLength(3);
    expect(h.calls.length - before).toBe(3);
    before = h.calls.length;
    expect(await collect(client.listIncidents({ ...last7, limit: 10 }).items({ maxItems: 15 }))).toHaveLength(15);
    expect(h.calls.length - before).toBe(2);
    expect(await collect(client.listIncidents(last7).items({ by: 'number', maxItems: 0 }))).toEqual([]);
  });

  it('splits a range over 31 days into windows in the requested order, each incident once', async () => {
    const start = NOW - 70 * DAY;
    const end = NOW;
    const edge = end - 31 * DAY; // shared by the first two windows (newest first)
    addIncidentAt(edge);
    addIncidentAt(edge + 1);
    addIncidentAt(end - 62 * DAY);
    addIncidentAt(start);
    for (const asc of [false, true]) {
      for (const by of ['cursor', 'number'] as const) {
        const before = h.calls.length;
        const got = ids(
          await collect(client.listIncidents({ start_time: start, end_time: end, asc, limit: 50 }).items({ by })),
        );
        expect(got, `${by} asc=${asc}`).toEqual(expected(start, end, asc));
        const windows = h.calls.slice(before).map((c) => c.body as { start_time: number; end_time: number });
        expect(windows.every((w) => w.end_time - w.start_time <= 31 * DAY)).toBe(true);
        const firsts = [...new Set(windows.map((w) => w.start_time))];
        expect(firsts).toEqual([...firsts].sort((a, b) => (asc ? a - b : b - a)));
      }
    }
  });

  it('stays correct by cursor when incidents arrive between pages', async () => {
    const pages = client.listIncidents({ ...last7, limit: 10 }).pages();
    const iterator = pages[Symbol.asyncIterator]();
    const first = await iterator.next();
    const fresh = addIncidentAt(NOW - 60); // newer than anything sent: before the cursor
    const rest: IncidentInfo[] = [];
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) rest.push(...r.value.items);
    const got = [...ids((first.value as IncidentPage).items), ...ids(rest)];
    expect(got).toEqual(expected(last7.start_time, last7.end_time).filter((id) => id !== fresh.incident_id));
  });

  it('a cursor the service sent before ends the walk with a FlashdutyError, never a loop', async () => {
    const item = structuredClone(h.service.world.incidents[0]);
    const body = JSON.stringify({
      request_id: 'r',
      data: { items: [item], total: 99, has_next_page: true, search_after_ctx: 'same' },
    });
    h.service.faults.add({ body, times: 5, headers: { 'Content-Type': 'application/json' } });
    const before = h.calls.length;
    const pages: IncidentPage[] = [];
    const error = await rejection(
      (async () => {
        for await (const page of client.listIncidents(last7).pages()) pages.push(page);
      })(),
    );
    expect(error).toBeInstanceOf(FlashdutyError);
    expect((error as Error).message).toMatch(
      /listIncidents: the service sent a cursor it had sent before \(request r\)/,
    );
    expect(pages.map((page) => page.items.length)).toEqual([1, 0]); // the repeated incident is not yielded again
    expect(h.calls.length - before).toBe(2);
    h.service.faults.clear();
  });

  it.each(['cursor', 'number'] as const)(
    'pages of only items already yielded, by %s, end the walk with a FlashdutyError after a few pages',
    async (by) => {
      const item = structuredClone(h.service.world.incidents[0]);
      // A service that ignores the cursor or the page number: the same incident again, under a fresh cursor each time.
      for (let n = 0; n < 10; n++) {
        const data = { items: [item], total: 99, has_next_page: true, search_after_ctx: `c${n}` };
        h.service.faults.add({
          body: JSON.stringify({ request_id: `r${n}`, data }),
          headers: { 'Content-Type': 'application/json' },
        });
      }
      const before = h.calls.length;
      const error = await rejection(collect(client.listIncidents(last7).items({ by })));
      expect(error).toBeInstanceOf(FlashdutyError);
      expect((error as Error).message).toBe(
        `listIncidents: ${STALE_PAGES} pages in a row held only items already yielded (last: request r3): ` +
          'the service is not paging, so the walk stops here rather than looping',
      );
      expect(h.calls.length - before).toBe(1 + STALE_PAGES);
      h.service.faults.clear();
    },
  );

  it('the same for a list whose items have no id: judged by the items themselves', async () => {
    const member = { person_id: 1, person_name: 'Ann', email: 'ann@example.com' };
    for (let n = 0; n < 10; n++) {
      const data = { items: [member], total: 99, has_next_page: true, p: n + 1, limit: 1 };
      h.service.faults.add({
        body: JSON.stringify({ request_id: `m${n}`, data }),
        headers: { 'Content-Type': 'application/json' },
      });
    }
    const before = h.calls.length;
    const error = await rejection(collect(client.members.list({ limit: 1 })));
    expect((error as Error).message).toMatch(
      /^members\.list: 3 pages in a row held only items already yielded \(last: request m3\)/,
    );
    expect(h.calls.length - before).toBe(4);
    h.service.faults.clear();
  });

  it('stops when the server says more pages exist but sends no cursor', async () => {
    const body = JSON.stringify({ request_id: 'r', data: { items: [], total: 99, has_next_page: true } });
    h.service.faults.add({ body, times: 5, headers: { 'Content-Type': 'application/json' } });
    expect(await collect(client.listIncidents(last7).pages())).toHaveLength(1);
  });

  it('resumes from a saved cursor', async () => {
    const first = await client.listIncidents({ ...last7, limit: 10 });
    const resumed = ids(
      await collect(client.listIncidents({ ...last7, limit: 10, search_after_ctx: first.searchAfterCtx })),
    );
    expect(resumed).toEqual(expected(last7.start_time, last7.end_time).slice(10));
  });

  it('refuses page-number paging past p × limit = 10000 rather than stopping silently', async () => {
    const items = [structuredClone(h.service.world.incidents[1])];
    const body = JSON.stringify({ request_id: 'r', data: { items, total: 1000, has_next_page: true } });
    h.service.faults.add({ body, times: 1, headers: { 'Content-Type': 'application/json' } });
    const walk = collect(client.listIncidents({ ...last7, limit: 100, p: 100 }).pages({ by: 'number' }));
    expect(await rejection(walk)).toBeInstanceOf(RequestValidationError);
  });
});

describe('resuming and ending', () => {
  const range = { start_time: NOW - 70 * DAY, end_time: NOW, limit: 7 };

  it('continues exactly after any page from its resumeToken, across 31-day windows, either way', async () => {
    for (const by of ['cursor', 'number'] as const) {
      for (const asc of [false, true]) {
        const params = { ...range, asc };
        const all = expected(range.start_time, range.end_time, asc);
        const pages = await collect(client.listIncidents(params).pages({ by }));
        expect(ids(pages.flatMap((p) => p.items)), `${by} asc=${asc}`).toEqual(all);
        const windowEnds = pages
          .map((p, i) => i)
          .filter((i) => i + 1 < pages.length && pages[i + 1]!.request.start_time !== pages[i]!.request.start_time);
        expect(windowEnds.length).toBeGreaterThan(0); // the walk did cross windows
        for (const k of new Set([0, 3, ...windowEnds, pages.length - 1])) {
          const before = ids(pages.slice(0, k + 1).flatMap((p) => p.items));
          const rest = ids(
            await collect(client.listIncidents(params).items({ by, resumeFrom: pages[k]!.resumeToken })),
          );
          expect([...before, ...rest], `${by} asc=${asc} after page ${k}`).toEqual(all);
        }
      }
    }
  });

  it('a token of an awaited page resumes the iteration of the same params', async () => {
    const params = { ...last7, limit: 10 };
    const first = await client.listIncidents(params);
    const rest = ids(await collect(client.listIncidents(params).items({ resumeFrom: first.resumeToken })));
    expect([...ids(first.items), ...rest]).toEqual(expected(last7.start_time, last7.end_time));
  });

  it('a token read later, or from the page saved as JSON, is the same and resumes as well', async () => {
    const params = { ...last7, limit: 10 };
    const pages = await collect(client.listIncidents(params).pages({ maxPages: 2 }));
    const saved = JSON.parse(JSON.stringify(pages[1])) as { resumeToken: string; requestId: string; items: unknown[] };
    expect(saved).toMatchObject({ resumeToken: pages[1]!.resumeToken, requestId: pages[1]!.requestId });
    expect(saved.items).toHaveLength(10);
    const rest = ids(await collect(client.listIncidents(params).items({ resumeFrom: saved.resumeToken })));
    expect([...ids(pages.flatMap((p) => p.items)), ...rest]).toEqual(expected(last7.start_time, last7.end_time));
  });

  it('refuses a token of other params, another list or no token at all', async () => {
    const page = await client.listIncidents({ ...last7, limit: 10 });
    for (const [params, token] of [
      [{ ...last7, limit: 11 }, page.resumeToken],
      [{ ...last7, limit: 10, progress: 'Closed' }, page.resumeToken],
      [{ ...last7, limit: 10 }, 'not a token'],
      [{ ...last7, limit: 10 }, btoa('{"v":1}')],
    ] as const) {
      const error = await rejection(collect(client.listIncidents(params).items({ resumeFrom: token })));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe('resumeFrom');
    }
    const history = await client.webhookHistory.list({ start_time: NOW_MS - DAY * 1000, end_time: NOW_MS });
    expect(
      await rejection(
        collect(client.listIncidents({ ...last7, limit: 10 }).items({ resumeFrom: history.resumeToken })),
      ),
    ).toBeInstanceOf(RequestValidationError);
  });

  it('ends a cursor walk on an empty page, even with a fresh cursor', async () => {
    for (const cursor of ['c1', 'c2', 'c3']) {
      const body = JSON.stringify({
        request_id: 'r',
        data: { items: [], total: 99, has_next_page: true, search_after_ctx: cursor },
      });
      h.service.faults.add({ body, headers: { 'Content-Type': 'application/json' } });
    }
    const before = h.calls.length;
    expect(await collect(client.listIncidents(last7).pages())).toHaveLength(1);
    expect(h.calls.length - before).toBe(1);
    h.service.faults.clear();
  });

  it('awaiting and then iterating fetches the first page once', async () => {
    const before = h.calls.length;
    const pending = client.listIncidents({ ...last7, limit: 10 });
    const first = await pending;
    const all = ids(await collect(pending));
    expect(all).toEqual(expected(last7.start_time, last7.end_time));
    expect(h.calls.length - before).toBe(Math.ceil(all.length / 10));
    expect(ids(first.items)).toEqual(all.slice(0, 10));
  });
});
