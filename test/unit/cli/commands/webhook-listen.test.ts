// `webhooks listen` without the service: the follower's windows over a stand-in history (each event
// given once, none skipped between polls, a late record found by the lookback, a failed poll asked
// again, memory bounded); the command's flags refused before anything is asked (bounds of --interval
// and --since); and its run over a stand-in client, forwarding with a stubbed fetch, printing each
// delivery with the receiver's outcome, a passing error tried again and a lasting one ending it,
// stopped by its stop signal. (The real bin against the mock: test/integration/cli/listen.test.ts.)
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HistoryFollower, LOOKBACK_MS } from '../../../../src/cli/commands/history-follower.js';
import { WEBHOOK_COMMANDS } from '../../../../src/cli/commands/webhooks.js';
import { commandOf, contextOf, jsonLines, recordingIo, usageError } from '../support.js';

const listen = commandOf(WEBHOOK_COMMANDS, 'webhooks listen');
const T0 = 1_800_000_000_000;

/** A stand-in history: records by event time, listed as the service lists them (window, ascending), asks kept. */
function historyOf(records: Array<{ event_id: string; at: number }>) {
  const asked: Array<{ start_time: number; end_time: number }> = [];
  let failAfter: number | undefined;
  return {
    asked,
    records,
    failNextAfter: (n: number) => void (failAfter = n),
    webhookHistory: {
      async *list(params: { start_time: number | Date; end_time: number | Date; asc?: boolean }) {
        const [start, end] = [Number(params.start_time), Number(params.end_time)];
        asked.push({ start_time: start, end_time: end });
        const found = records.filter((r) => r.at >= start && r.at <= end).sort((a, b) => a.at - b.at);
        for (const [i, record] of found.entries()) {
          if (failAfter !== undefined && i === failAfter) {
            failAfter = undefined;
            throw Object.assign(new Error('service unavailable'), { name: 'ServiceUnavailableError', status: 503 });
          }
          yield {
            event_id: record.event_id,
            event_type: 'i_new',
            event_time: new Date(record.at).toISOString(),
            request_body: `{"event_id":"${record.event_id}"}`,
            request_headers: '{"X-Token":"s3cret"}',
          };
        }
      },
    },
  };
}

async function ids(follower: HistoryFollower, until: number): Promise<string[]> {
  const given: string[] = [];
  for await (const record of follower.poll(until)) given.push(record.event_id);
  return given;
}

describe('HistoryFollower', () => {
  it('gives each event once, oldest first, and finds a record the service wrote late within the lookback', async () => {
    const history = historyOf([
      { event_id: 'a', at: T0 + 1_000 },
      { event_id: 'b', at: T0 + 2_000 },
    ]);
    const follower = new HistoryFollower(history as never, 7, T0);
    expect(await ids(follower, T0 + 5_000)).toEqual(['a', 'b']);
    // Written after that poll, dated before its end: found by the next.
    history.records.push({ event_id: 'late', at: T0 + 3_000 }, { event_id: 'c', at: T0 + 6_000 });
    expect(await ids(follower, T0 + 10_000)).toEqual(['late', 'c']);
    expect(await ids(follower, T0 + 15_000)).toEqual([]);
    expect(history.asked).toEqual([
      { start_time: T0, end_time: T0 + 5_000 },
      { start_time: T0, end_time: T0 + 10_000 }, // the lookback reaches back to the start given
      { start_time: T0, end_time: T0 + 15_000 },
    ]);
  });

  it('looks back a fixed time before the last poll’s end; a record written later than that after its event is missed', async () => {
    const history = historyOf([]);
    const follower = new HistoryFollower(history as never, 7, T0);
    const later = T0 + 3 * LOOKBACK_MS;
    expect(await ids(follower, later)).toEqual([]);
    history.records.push(
      { event_id: 'in', at: later - LOOKBACK_MS + 1 },
      { event_id: 'out', at: later - LOOKBACK_MS - 1 },
    );
    expect(await ids(follower, later + 1_000)).toEqual(['in']);
    expect(history.asked[1]).toEqual({ start_time: later - LOOKBACK_MS, end_time: later + 1_000 });
  });

  it('asks a poll that failed part way again whole, without giving again what it gave', async () => {
    const history = historyOf([
      { event_id: 'a', at: T0 + 1 },
      { event_id: 'b', at: T0 + 2 },
      { event_id: 'c', at: T0 + 3 },
    ]);
    const follower = new HistoryFollower(history as never, 7, T0);
    history.failNextAfter(1);
    const given: string[] = [];
    await expect(async () => {
      for await (const record of follower.poll(T0 + 10)) given.push(record.event_id);
    }).rejects.toThrow('service unavailable');
    expect(given).toEqual(['a']);
    expect(await ids(follower, T0 + 20)).toEqual(['b', 'c']);
    expect(history.asked.map((ask) => ask.start_time)).toEqual([T0, T0]);
  });

  it('remembers only the events the next window can still hold, however long it runs', async () => {
    const history = historyOf([]);
    const follower = new HistoryFollower(history as never, 7, T0);
    const step = 5_000;
    const polls = (3 * LOOKBACK_MS) / step;
    for (let i = 1; i <= polls; i++) {
      history.records.push({ event_id: `e${i}`, at: T0 + i * step - 1 });
      expect(await ids(follower, T0 + i * step)).toEqual([`e${i}`]);
    }
    expect(follower.remembered).toBeLessThanOrEqual(LOOKBACK_MS / step + 1);
  });

  it('asks nothing for a window that has not begun', async () => {
    const history = historyOf([]);
    const follower = new HistoryFollower(history as never, 7, T0);
    expect(await ids(follower, T0)).toEqual([]);
    expect(history.asked).toEqual([]);
  });
});

describe('webhooks listen: refused before anything is asked', () => {
  it('needs an integration and a receiver; takes no argument', async () => {
    expect(await usageError(listen.run(contextOf(listen, ['--to', 'http://r'])))).toBe('--integration is required');
    expect(await usageError(listen.run(contextOf(listen, ['--integration', '7'])))).toBe('--to is required');
    expect(await usageError(listen.run(contextOf(listen, ['x', '--integration', '7', '--to', 'http://r'])))).toBe(
      'unexpected argument "x"',
    );
  });

  it('bounds --interval (1s to 5m) and --since (within the 7 days of history, not ahead)', async () => {
    const base = ['--integration', '7', '--to', 'http://r'];
    for (const interval of ['0s', '500ms', '6m', '1h', 'often'])
      expect(await usageError(listen.run(contextOf(listen, [...base, '--interval', interval])))).toBe(
        `--interval: expected a duration from 1s to 5m (such as 5s or 1m), got ${JSON.stringify(interval)}`,
      );
    const future = new Date(Date.now() + 86_400_000).toISOString();
    for (const since of ['8d', '2w', future])
      expect(await usageError(listen.run(contextOf(listen, [...base, '--since', since])))).toBe(
        '--since: the history reaches back 7d: give a time within it, such as 10m or 2h',
      );
    expect(await usageError(listen.run(contextOf(listen, [...base, '--since', 'soon'])))).toMatch(/^--since: expected/);
  });
});

describe('webhooks listen: a run', () => {
  afterEach(() => void vi.unstubAllGlobals());

  /** Forwards answered by `answer`; the run stopped after `stopAfter` of them. */
  function forwarding(answer: () => Response, stop: AbortController, stopAfter: number) {
    const posted: Array<{ url: string; init: RequestInit }> = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      posted.push({ url: String(url), init });
      if (posted.length >= stopAfter) stop.abort();
      return answer();
    });
    return posted;
  }

  it('forwards each new delivery with its recorded body and headers, printing it with the receiver’s outcome', async () => {
    const now = Date.now();
    const history = historyOf([
      { event_id: 'old', at: now - 600_000 },
      { event_id: 'e1', at: now - 60_000 },
      { event_id: 'e2', at: now - 30_000 },
    ]);
    const stop = new AbortController();
    const posted = forwarding(() => Response.json({ outcome: 'accepted' }), stop, 2);
    const context = contextOf(
      listen,
      ['--integration', '7', '--since', '2m', '--to', 'http://r/hooks', '--json'],
      history,
      {
        stop: stop.signal,
      },
    );
    expect(await listen.run(context)).toBe(0);
    expect(
      posted.map(({ url, init }) => [url, init.body, (init.headers as Record<string, string>)['X-Token']]),
    ).toEqual([
      ['http://r/hooks', '{"event_id":"e1"}', 's3cret'],
      ['http://r/hooks', '{"event_id":"e2"}', 's3cret'],
    ]);
    expect(jsonLines(context.io.printed.out)).toEqual(
      ['e1', 'e2'].map((event_id) => ({
        event_time: expect.any(String),
        event_type: 'i_new',
        event_id,
        http_status: 200,
        outcome: 'accepted',
        duration_ms: expect.any(Number),
        ok: true,
      })),
    );
    expect(context.io.printed.err).toBe(
      'flashduty: forwarding the new deliveries of integration 7 to http://r/hooks, asking every 5s; Ctrl-C to stop\n',
    );
    expect(context.io.printed.err).not.toContain('s3cret');
  });

  it('prints a line per delivery for people: its time, type, id, and what the receiver answered', async () => {
    const now = Date.now();
    const stop = new AbortController();
    forwarding(() => new Response('{"outcome":"duplicate"}', { status: 200 }), stop, 1);
    const context = contextOf(
      listen,
      ['--integration', '7', '--since', '1m', '--to', 'http://r/'],
      historyOf([{ event_id: 'e1', at: now - 1_000 }]),
      {
        stop: stop.signal,
      },
    );
    expect(await listen.run(context)).toBe(0);
    expect(context.io.printed.out).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}i_new {2}e1 {2}→ 200 duplicate \(\d+ ms\)\n$/,
    );
  });

  it(
    'forwards the others while one delivery’s request cannot be read, tries it again at the next polls, and gives up on it after 5',
    { timeout: 20_000 },
    async () => {
      const now = Date.now();
      const history = historyOf([
        { event_id: 'a', at: now - 3_000 },
        { event_id: 'b', at: now - 2_000 },
        { event_id: 'poison', at: now - 1_500 },
        { event_id: 'c', at: now - 1_000 },
      ]);
      // b's and poison's requests are not in the list: their detail is asked, and fails (b twice).
      const failures = new Map([
        ['b', 2],
        ['poison', Infinity],
      ]);
      const client = {
        webhookHistory: {
          async *list(params: Parameters<typeof history.webhookHistory.list>[0]) {
            for await (const record of history.webhookHistory.list(params))
              yield failures.has(record.event_id) ? { ...record, request_body: undefined } : record;
          },
          async detail({ event_id }: { event_id: string }) {
            const left = failures.get(event_id) ?? 0;
            if (left > 0) {
              failures.set(event_id, left - 1);
              throw Object.assign(new Error('bad gateway'), { name: 'BadGatewayError', status: 502 });
            }
            return { event_id, request_body: `{"event_id":"${event_id}"}`, request_headers: '{}' };
          },
        },
      };
      const stop = new AbortController();
      const io = recordingIo();
      const posted = forwarding(() => new Response('ok'), stop, Infinity);
      const watch = setInterval(() => io.printed.err.includes('gave up') && stop.abort(), 20);
      try {
        const context = contextOf(
          listen,
          ['--integration', '7', '--since', '1m', '--interval', '1s', '--to', 'http://r/'],
          client,
          { stop: stop.signal, io },
        );
        expect(await listen.run(context)).toBe(0);
      } finally {
        clearInterval(watch);
      }
      expect(posted.map(({ init }) => init.body)).toEqual(['a', 'c', 'b'].map((id) => `{"event_id":"${id}"}`));
      expect(io.printed.err).toContain(
        'flashduty: delivery b could not be forwarded (BadGatewayError: bad gateway); trying it again in 1s\n',
      );
      expect(io.printed.err).toContain(
        'flashduty: gave up on delivery poison after 5 tries (BadGatewayError: bad gateway); flashduty webhooks replay --integration 7 --to http://r/ sends it again\n',
      );
    },
  );

  it('asks again after a passing error (the service’s 503), and ends on one that cannot pass (a refused credential)', async () => {
    const now = Date.now();
    const history = historyOf([
      { event_id: 'e1', at: now - 2_000 },
      { event_id: 'e2', at: now - 1_000 },
    ]);
    history.failNextAfter(1);
    const stop = new AbortController();
    const posted = forwarding(() => new Response('ok'), stop, 2);
    const io = recordingIo();
    const context = contextOf(
      listen,
      ['--integration', '7', '--since', '1m', '--interval', '1s', '--to', 'http://r/'],
      history,
      {
        stop: stop.signal,
        io,
      },
    );
    expect(await listen.run(context)).toBe(0);
    expect(posted).toHaveLength(2); // e1 before the failure, e2 after it; e1 not again
    expect(io.printed.err).toContain(
      'flashduty: the history could not be read (ServiceUnavailableError: service unavailable); asking again in 1s\n',
    );

    const refused = {
      webhookHistory: {
        // eslint-disable-next-line require-yield
        async *list() {
          throw Object.assign(new Error('You are unauthorized.'), { name: 'UnauthorizedError', status: 401 });
        },
      },
    };
    const ended = contextOf(listen, ['--integration', '7', '--since', '1m', '--to', 'http://r/'], refused);
    await expect(listen.run(ended)).rejects.toMatchObject({ status: 401 });
  });
});
