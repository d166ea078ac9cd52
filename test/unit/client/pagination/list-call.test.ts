// A list call (src/client/pagination/list-call.ts), against answers in memory (no socket): the
// awaited page is the params as given; a page's next page, of its class, is asked by its scheme's
// field (a cursor sent as `cursor` and read from `next_cursor`, a page sent as its first row); a page's
// request is what went on the wire; its resume token, its JSON and its HTTP answer; an invalid page
// named by its list and place, with `validate: 'deep'` down to an item's field.
import { describe, expect, it } from 'vitest';
import { IncidentPage, ListPage, ResponseValidationError } from '../../../../src/index.js';
import { rejection } from '../../../helpers.js';
import { memoryClient, ok } from '../../../support/responder.js';

const END = 1_790_000_000;
const week = { start_time: END - 7 * 86_400, end_time: END };

describe('a list call', () => {
  it('sends the params as given for the awaited page, and each next page of the same class by cursor', async () => {
    const { client, sent } = memoryClient((_, n) =>
      ok({ items: [{ incident_id: `i${n}` }], total: 3, has_next_page: n < 2, search_after_ctx: n < 2 ? `c${n}` : '' }),
    );
    const first = await client.incidents.list({ ...week, p: 1, limit: 1 });
    expect(first).toBeInstanceOf(IncidentPage);
    expect(first.request).toEqual({ ...week, p: 1, limit: 1 });
    const second = await first.nextPage();
    expect(second).toBeInstanceOf(IncidentPage);
    expect(second?.request).toEqual({ ...week, limit: 1, search_after_ctx: 'c0' }); // by cursor, the page number dropped
    const third = await second?.nextPage();
    expect([third?.hasNextPage, third?.searchAfterCtx]).toEqual([false, undefined]);
    expect(await third?.nextPage()).toBeNull();
    expect(sent.map((s) => s.body?.search_after_ctx)).toEqual([undefined, 'c0', 'c1']);
  });

  it('asks for a cursor under the field the operation sends it in, and reads it where the answer gives it', async () => {
    const { client, sent } = memoryClient((_, n) => ok({ items: [{ target: n }], next_cursor: n < 1 ? 'n1' : '' }));
    const first = await client.monitors.targets({ limit: 1, cursor: '' });
    expect(first.searchAfterCtx).toBe('n1');
    const second = await first.nextPage();
    expect(second?.request).toEqual({ limit: 1, cursor: 'n1' });
    expect(sent.map((s) => s.body)).toEqual([
      { limit: 1, cursor: '' },
      { limit: 1, cursor: 'n1' },
    ]);
    expect(await second?.nextPage()).toBeNull();
  });

  it('asks for a page by its first row where the operation pages by offset', async () => {
    const { client, sent } = memoryClient((_, n) => ok({ items: [{ agent_id: n }, { agent_id: n + 10 }], total: 5 }));
    const first = await client.a2aAgents.list({ limit: 2, offset: 2 });
    const next = await first.nextPage();
    expect(next).toBeInstanceOf(ListPage);
    expect(sent.map((s) => s.body?.offset)).toEqual([2, 4]);
    expect(next?.request).toEqual({ limit: 2, offset: 4 });
    expect(next?.hasNextPage).toBe(false); // rows 5 and 6 asked for: the total is 5
    expect(await next?.nextPage()).toBeNull();
  });

  it('gives a page its resume token, its JSON and the HTTP answer it came from', async () => {
    const { client } = memoryClient(() =>
      ok({ items: [{}], total: 2, has_next_page: true, search_after_ctx: 'c' }, 'rid'),
    );
    const { data: page, response } = await client.incidents.list(week).withResponse();
    expect(response).toMatchObject({
      status: 200,
      requestId: 'rid',
      url: 'https://api.test/incident/list?app_key=***',
    });
    expect(page.toJSON()).toEqual({
      items: [{}],
      total: 2,
      hasNextPage: true,
      searchAfterCtx: 'c',
      requestId: 'rid',
      request: week,
      resumeToken: page.resumeToken,
    });
    expect(JSON.parse(decodeURIComponent(atob(page.resumeToken)))).toMatchObject({ op: 'listIncidents', w: 0, c: 'c' });
  });

  it('refuses an invalid page, naming the list and the place', async () => {
    const { client } = memoryClient(() => ok({ docs: 'none', total: 0 }));
    const error = (await rejection(client.audits.search(week))) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toBe('Invalid audits.search page at data.docs: expected an array, got string');
    expect([error.path, error.status, error.requestId]).toEqual(['data.docs', 200, 'r1']);
  });

  it("checks every field of the incident list's items with validate: 'deep'", async () => {
    const { client } = memoryClient(() => ok({ items: [{ incident_id: 5 }], total: 1, has_next_page: false }), {
      validate: 'deep',
    });
    const error = (await rejection(client.incidents.list(week))) as ResponseValidationError;
    expect(error.path).toMatch(/^data\.items\.0\./);
  });
});
