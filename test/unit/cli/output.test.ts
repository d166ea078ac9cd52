// What the command line prints: --json as one JSON object per line, written as items arrive; for
// people a table of the columns that matter (dates for Unix times in s or ms, long cells cut) or the
// result as indented JSON; progress on stderr only when it is a terminal.
import { describe, expect, it } from 'vitest';
import { printData, printItems, renderTable, shellWord } from '../../../src/cli/output.js';
import { itemsOf, jsonLines, recordingIo } from './support.js';

const INCIDENT = {
  incident_id: '69da451ef77b1b51f40e83ee',
  num: 'F40E83',
  title: 'Disk full on db-1',
  incident_severity: 'Critical',
  progress: 'Triggered',
  start_time: 1_793_491_200, // 2026-11-01 00:00 UTC, Unix seconds
  labels: { check: 'disk' },
  channel_id: 1,
};

describe('printItems', () => {
  it('with --json, writes each item as its line as it arrives', async () => {
    const io = recordingIo();
    const seen: number[] = [];
    async function* walk() {
      for (const n of [1, 2, 3]) {
        yield { n };
        seen.push(io.printed.out.split('\n').length - 1);
      }
    }
    expect(await printItems(io, walk(), true)).toBe(3);
    expect(seen).toEqual([1, 2, 3]); // a line per item before the next was asked for
    expect(jsonLines(io.printed.out)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('for people, a table once all items are in', async () => {
    const io = recordingIo();
    await printItems(io, itemsOf([INCIDENT]), false);
    expect(io.printed.out).toBe(
      [
        'NUM     INCIDENT_ID               INCIDENT_SEVERITY  PROGRESS   TITLE              START_TIME',
        'F40E83  69da451ef77b1b51f40e83ee  Critical           Triggered  Disk full on db-1  2026-11-01 00:00:00',
        '',
      ].join('\n'),
    );
  });

  it('counts on stderr every 100 items when it is a terminal, and never when it is not', async () => {
    const many = Array.from({ length: 250 }, (_, id) => ({ id }));
    const tty = recordingIo(true);
    await printItems(tty, itemsOf(many), true);
    expect(tty.printed.err).toBe('\r100 items…\r200 items…\r');
    const pipe = recordingIo(false);
    await printItems(pipe, itemsOf(many), true);
    expect(pipe.printed.err).toBe('');
  });
});

describe('printData', () => {
  it('prints a result as one line with --json, indented for people; nothing as null', () => {
    const io = recordingIo();
    printData(io, { a: [1] }, true);
    printData(io, { a: [1] }, false);
    printData(io, undefined, true);
    expect(io.printed.out).toBe('{"a":[1]}\n{\n  "a": [\n    1\n  ]\n}\nnull\n');
  });
});

describe('renderTable', () => {
  it('says (none) for no items', () => {
    expect(renderTable([])).toBe('(none)\n');
  });

  it('takes one field of each group the items have, ids before states before names', () => {
    const members = [{ email: 'ada@example.com', member_name: 'Ada', member_id: 7, status: 'enabled', extra: 'x' }];
    expect(renderTable(members).split('\n')[0]).toBe('MEMBER_ID  STATUS   MEMBER_NAME  EMAIL');
  });

  it('falls back to the first scalar fields of items of no known shape, at most seven', () => {
    const row = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, i]));
    expect(renderTable([{ ...row, nested: { a: 1 } }]).split('\n')[0]).toBe('F0  F1  F2  F3  F4  F5  F6');
    expect(renderTable(['plain', 3])).toBe('VALUE\nplain\n3\n');
  });

  it('shows the given columns the items have, in that order', () => {
    const rows = [{ status: 'success', event_type: 'i_new', attempts: 1, ok: true }];
    expect(renderTable(rows, ['event_type', 'event_id', 'status', 'attempts'])).toBe(
      'EVENT_TYPE  STATUS   ATTEMPTS\ni_new       success  1\n',
    );
  });

  it('cuts long cells, folds whitespace, leaves null and missing cells empty', () => {
    const table = renderTable([
      { id: 1, title: `${'x'.repeat(60)}\nsecond line` },
      { id: 2, title: null },
    ]);
    const [, first, second] = table.split('\n');
    expect(first).toBe(`1   ${'x'.repeat(47)}…`);
    expect(second).toBe('2');
  });

  it('reads Unix seconds and milliseconds in *_time and *_at columns as dates, and leaves other numbers', () => {
    expect(renderTable([{ id: 1, created_at: 1_793_491_205 }])).toContain('2026-11-01 00:00:05');
    // An incident's feed dates its rows in ms: as dates too (its CREATED_AT was raw ms).
    const feed = renderTable([{ type: 'i_ack', created_at: 1_793_491_205_123 }]);
    expect(feed).toBe('TYPE   CREATED_AT\ni_ack  2026-11-01 00:00:05\n');
    expect(renderTable([{ id: 1, count: 1_793_491_205 }])).toContain('1793491205'); // not a time column
    expect(renderTable([{ id: 1, created_at: 42 }])).toContain('42'); // too small for a time
  });
});

describe('shellWord', () => {
  it('leaves a word a shell reads as it is, and quotes the rest as a POSIX shell reads them back', () => {
    expect(shellWord('http://127.0.0.1:4010/')).toBe('http://127.0.0.1:4010/');
    expect(shellWord('http://r/hooks?a=1&b=2')).toBe("'http://r/hooks?a=1&b=2'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
  });
});
