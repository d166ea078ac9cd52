// What a flag's value means, read before anything is sent: --data (JSON, @file, stdin), files, points
// in time and windows, durations within a range, URLs, ids, counts within their range and headers;
// each refusal a UsageError naming the flag, and none quoting a header's value.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/exit.js';
import {
  formatDuration,
  readCount,
  readData,
  readDuration,
  readFile,
  readHeaders,
  readId,
  readJsonFile,
  readText,
  readTime,
  readUrl,
  readWindow,
} from '../../../src/cli/values.js';
import { scratch } from './support.js';

const { dir, file } = scratch('flashduty-cli-values-');
const missing = path.join(dir, 'missing.json');

/** The UsageError `read` throws. */
function refusal(read: () => unknown): UsageError {
  try {
    read();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('not refused');
}

const NOW = Date.UTC(2026, 10, 1, 12);

describe('readTime', () => {
  it('reads now, a duration ago in s, m, h, d or w, and an ISO date', () => {
    expect(readTime('now', '--since', 'x', NOW)).toBe(NOW);
    expect(readTime('30s', '--since', 'x', NOW)).toBe(NOW - 30_000);
    expect(readTime('30m', '--since', 'x', NOW)).toBe(NOW - 1_800_000);
    expect(readTime('24h', '--since', 'x', NOW)).toBe(NOW - 86_400_000);
    expect(readTime('7d', '--since', 'x', NOW)).toBe(NOW - 7 * 86_400_000);
    expect(readTime('2w', '--since', 'x', NOW)).toBe(NOW - 14 * 86_400_000);
    expect(readTime('2026-10-31', '--since', 'x', NOW)).toBe(Date.UTC(2026, 9, 31));
    expect(readTime('2026-10-31T10:00:00Z', '--since', 'x', NOW)).toBe(Date.UTC(2026, 9, 31, 10));
    expect(readTime('2028-02-29', '--since', 'x', NOW)).toBe(Date.UTC(2028, 1, 29)); // a leap day
  });

  it('refuses anything else, naming the flag and what it takes', () => {
    for (const text of ['yesterday', '7days', '-1d', '1.5h', '2026-13-45', '2026-02-30', '2026-11-31T10:00:00Z', '']) {
      const error = refusal(() => readTime(text, '--until', 'incidents list', NOW));
      expect(error.message).toBe(
        `--until: expected a duration (30m, 24h, 7d), now, or an ISO date; got ${JSON.stringify(text)}`,
      );
      expect(error.command).toBe('incidents list');
    }
  });
});

describe('readWindow', () => {
  it('is the day before now unless told otherwise', () => {
    expect(readWindow({}, 'x', NOW)).toEqual({ since: NOW - 86_400_000, until: NOW });
    expect(readWindow({ since: '7d' }, 'x', NOW)).toEqual({ since: NOW - 7 * 86_400_000, until: NOW });
    // --since alone is read from now; --until alone moves the default start with it.
    expect(readWindow({ until: '1h' }, 'x', NOW)).toEqual({ since: NOW - 25 * 3_600_000, until: NOW - 3_600_000 });
  });

  it('refuses a window that ends before it starts', () => {
    expect(refusal(() => readWindow({ since: '1h', until: '2h' }, 'x', NOW)).message).toBe(
      '--since must be before --until',
    );
    expect(refusal(() => readWindow({ since: 'now', until: 'now' }, 'x', NOW)).message).toBe(
      '--since must be before --until',
    );
  });
});

describe('readData', () => {
  const noStdin = () => {
    throw new Error('stdin read');
  };

  it('reads JSON text, @file and - (standard input); nothing when not given', () => {
    expect(readData('{"a":1}', 'x', noStdin)).toEqual({ a: 1 });
    expect(readData('[1,2]', 'x', noStdin)).toEqual([1, 2]);
    expect(readData(`@${file('body.json', '{"b":2}')}`, 'x', noStdin)).toEqual({ b: 2 });
    expect(readData('-', 'x', () => '{"c":3}')).toEqual({ c: 3 });
    expect(readData(undefined, 'x', noStdin)).toBeUndefined();
  });

  it('refuses text that is not JSON, and a file that cannot be read', () => {
    expect(refusal(() => readData('{', 'api', noStdin)).message).toMatch(/^--data is not valid JSON: /);
    expect(refusal(() => readData(`@${missing}`, 'api', noStdin)).message).toBe(
      `--data: cannot read ${missing}: ENOENT`,
    );
  });
});

describe('files', () => {
  it('reads a text file, a JSON file and a file to upload under its name on disk', async () => {
    expect(readText(file('t.txt', 'hello'), 'template', 'x')).toBe('hello');
    expect(readJsonFile(file('m.json', '{"k":{"a":"b"}}'), '--value-mapping', 'x')).toEqual({ k: { a: 'b' } });
    const upload = readFile(file('skill.zip', 'PK'), '--file', 'x');
    expect(upload.name).toBe('skill.zip');
    expect(await upload.text()).toBe('PK');
  });

  it('refuses an unreadable file or JSON that does not parse, naming the flag', () => {
    expect(refusal(() => readText(missing, 'template', 'x')).message).toBe(`template: cannot read ${missing}: ENOENT`);
    expect(refusal(() => readFile(dir, '--file', 'x')).message).toBe(`--file: cannot read ${dir}: EISDIR`);
    const broken = file('broken.json', '{"a":');
    expect(refusal(() => readJsonFile(broken, '--value-mapping', 'x')).message).toMatch(
      new RegExp(`^--value-mapping: ${broken.replaceAll('\\', '\\\\')} is not valid JSON: `),
    );
  });
});

describe('readUrl, readId, readCount, readDuration, readHeaders', () => {
  it('takes http and https URLs, normalized; refuses others and a missing one', () => {
    expect(readUrl('http://localhost:3000/hooks', '--to', 'x')).toBe('http://localhost:3000/hooks');
    expect(readUrl('https://EXAMPLE.com', '--to', 'x')).toBe('https://example.com/');
    expect(refusal(() => readUrl(undefined, '--to', 'x')).message).toBe('--to is required');
    expect(refusal(() => readUrl('localhost:3000', '--to', 'x')).message).toBe(
      '--to: expected an http:// or https:// URL, got "localhost:3000"',
    );
    expect(refusal(() => readUrl('not a url', '--to', 'x')).message).toBe('--to: not a URL: "not a url"');
  });

  it('takes ids: whole numbers from 1', () => {
    expect(readId('5000001000001', '--integration', 'x')).toBe(5000001000001);
    expect(readId(undefined, '--integration', 'x')).toBeUndefined();
    for (const text of ['0', '-1', '1.5', '1e3', ' 2', '99999999999999999999']) {
      expect(refusal(() => readId(text, '--integration', 'x')).message).toBe(
        `--integration: expected an id (a whole number ≥ 1), got ${JSON.stringify(text)}`,
      );
    }
  });

  it('takes counts within their range, naming the flag and the range otherwise', () => {
    const range = { min: 1, max: 10 };
    expect(readCount('1', '--duplicate', range, 'x')).toBe(1);
    expect(readCount('10', '--duplicate', range, 'x')).toBe(10);
    expect(readCount('0', '--port', { min: 0, max: 65_535 }, 'x')).toBe(0);
    for (const text of ['0', '11', '-1', '1000000', '1.5', '1e3', ' 2', '', 'two', '99999999999999999999']) {
      expect(refusal(() => readCount(text, '--duplicate', range, 'x')).message).toBe(
        `--duplicate: expected a whole number from 1 to 10, got ${JSON.stringify(text)}`,
      );
    }
  });

  it('takes durations within their range, in ms', () => {
    const range = { min: 1_000, max: 300_000 };
    expect(readDuration('1s', '--interval', range, 'x')).toBe(1_000);
    expect(readDuration('5m', '--interval', range, 'x')).toBe(300_000);
    for (const text of ['0s', '500ms', '6m', '1h', '5', 'soon', '-5s']) {
      expect(refusal(() => readDuration(text, '--interval', range, 'x')).message).toBe(
        `--interval: expected a duration from 1s to 5m (such as 5s or 1m), got ${JSON.stringify(text)}`,
      );
    }
    expect([1_000, 90_000, 7_200_000, 7 * 86_400_000].map(formatDuration)).toEqual(['1s', '90s', '2h', '7d']);
  });

  it('reads headers as Name: value, trimmed; refuses one without a valid name, quoting nothing of it', () => {
    expect(readHeaders(['X-Token: s3cret', 'Accept:  */* ', 'Empty:', 'Tab: a\tb', 'Utf8: café'], 'x')).toEqual({
      'X-Token': 's3cret',
      Accept: '*/*',
      Empty: '',
      Tab: 'a\tb',
      Utf8: 'café',
    });
    expect(readHeaders(undefined, 'x')).toEqual({});
    for (const text of ['X-Token s3cret', ': s3cret', 'Bad Name: s3cret', 'Ünï: s3cret']) {
      const { message } = refusal(() => readHeaders([text], 'x'));
      expect(message).toBe(
        "--header: expected 'Name: value', an HTTP header name and a colon before the value (what was given is not shown: it may hold a secret)",
      );
    }
  });

  it('refuses a value HTTP cannot send (a line break, another control character), naming the header, not the value', () => {
    for (const value of ['s3cret\nX-Admin: 1', 's3\rcret', 'a\u0000b', 'bell\u0007', 'del\u007f']) {
      const { message } = refusal(() => readHeaders([`X-Token: ${value}`], 'x'));
      expect(message).toBe(
        '--header X-Token: its value has a line break or another control character, which HTTP cannot send; give it on one line',
      );
    }
  });
});
