// Resume tokens (src/client/pagination/resume-token.ts): a token holds its list's name, its params'
// fingerprint and where the walk goes next, and is read back only by the same list and params; the
// fingerprint ignores key order and undefined fields, and tells any other value apart.
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../../src/index.js';
import { decodeToken, encodeToken, fingerprint } from '../../../../src/client/pagination/resume-token.js';

const params = { start_time: 1, end_time: 2, progress: 'Triggered', channel_ids: [3, 4] };

describe('fingerprint', () => {
  it('is the same for the same params in any key order, undefined fields left out', () => {
    expect(
      fingerprint({ end_time: 2, channel_ids: [3, 4], progress: 'Triggered', start_time: 1, asc: undefined }),
    ).toBe(fingerprint(params));
  });

  it('differs for any other value, an array’s order included', () => {
    const print = fingerprint(params);
    for (const other of [
      { ...params, end_time: 3 },
      { ...params, channel_ids: [4, 3] },
      { ...params, limit: 10 },
    ]) {
      expect(fingerprint(other)).not.toBe(print);
    }
  });
});

describe('tokens', () => {
  const print = fingerprint(params);

  it('are read back where they were written, with their window and position', () => {
    for (const next of [
      { w: 0, c: 'cursor ✓ with "quotes"' },
      { w: 2, p: 7 },
      { w: 1 },
      { w: 3, end: true as const },
    ]) {
      const token = encodeToken('alerts.list', print, next);
      expect(token).toMatch(/^[A-Za-z0-9+/]+$/); // base64 without padding: safe in JSON and most URLs
      expect(decodeToken(token, 'alerts.list', print)).toEqual({ v: 1, op: 'alerts.list', f: print, ...next });
    }
  });

  it('are refused by another list or other params, naming the list', () => {
    const token = encodeToken('alerts.list', print, { w: 0, p: 2 });
    expect(() => decodeToken(token, 'listIncidents', print)).toThrow(/another list than listIncidents/);
    expect(() => decodeToken(token, 'alerts.list', fingerprint({ ...params, end_time: 9 }))).toThrow(
      RequestValidationError,
    );
  });

  it.each([['not base64 at all'], [btoa('{"v":1}')], [btoa('[]')], [btoa(encodeURIComponent('{"v":2,"w":0}'))], [42]])(
    'refuses %s as no token of a page',
    (text) => {
      expect(() => decodeToken(text, 'alerts.list', print)).toThrow('resumeFrom: expected the resumeToken of a page');
    },
  );
});
