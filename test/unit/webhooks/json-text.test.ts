// Why a body is not a valid delivery: where refused JSON text stops being JSON (src/webhooks/json-text.ts), checked
// against JSON.parse on cut and spoiled texts of random values; the rules for ids and event_time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildWebhookEvent } from '../../../src/testing/index.js';
import { checkPayload } from '../../../src/webhooks/index.js';
import { jsonErrorAt } from '../../../src/webhooks/json-text.js';

describe('jsonErrorAt', () => {
  it.each([
    ['{"a": 1,}', 8],
    ['{"a" 1}', 5],
    ['[1, 2', 5],
    ['tru', 0],
    ['{"a": "\\x"}', 8],
    ['{"a": "line\nbreak"}', 11],
    ['{} {}', 3],
    ['-', 0],
    ['01', 1],
  ])('%j stops being JSON at %i', (text, at) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonErrorAt(text)).toBe(at);
  });

  it('finds a cut text ends too early, and a spoiled one where it was spoiled (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, at) => {
        const text = JSON.stringify(value);
        const cut = text.slice(0, at % text.length);
        let parses = true;
        try {
          JSON.parse(cut);
        } catch {
          parses = false;
        }
        if (!parses) expect(jsonErrorAt(cut)).toBeLessThanOrEqual(cut.length);
        expect(jsonErrorAt(`${text}#`)).toBe(text.length);
      }),
      { numRuns: 500 },
    );
  });
});

describe('checkPayload: ids and times', () => {
  it('refuses ids that are not well-formed Unicode, or hold U+FFFD (bytes lost in decoding)', () => {
    for (const id of ['e\uD800', '\uDC00e', 'e\uFFFD'])
      expect(checkPayload(buildWebhookEvent('i_new', { event_id: id }))).toEqual({
        path: 'event_id',
        message: 'not well-formed Unicode',
      });
    expect(checkPayload(buildWebhookEvent('i_new', { event_id: 'e\uD83D\uDE00' }))).toBeUndefined(); // a pair is fine
  });

  it('refuses an incident or alert event_time plainly in seconds, and keeps milliseconds', () => {
    const seconds = Math.floor(Date.now() / 1000);
    expect(checkPayload(buildWebhookEvent('i_ack', { event_time: seconds }))).toEqual({
      path: 'event_time',
      message: 'expected Unix milliseconds, got what reads as seconds',
    });
    expect(checkPayload(buildWebhookEvent('i_ack', { event_time: seconds * 1000 }))).toBeUndefined();
    // A kind the SDK does not know keeps its own units: only an integer is asked of it.
    expect(checkPayload({ event_id: 'e', event_type: 'x_future', event_time: seconds })).toBeUndefined();
  });
});
