// The answers to the operations the mock does not model: data that fits the response schema (the
// OpenAPI's example where it fits), a list as pages of a fixed collection that a walk by number,
// offset or cursor sees once and leaves; NDJSON answers as lines (a session's transcript, replay
// segments a page at a time).
import { describe, expect, it } from 'vitest';
import { RULES } from '../../../../src/generated/operation-rules.js';
import { SCHEMA_DEFS } from '../../../../src/generated/request-schemas.js';
import { checkSchema } from '../../../../src/internal/schema.js';
import { RESPONSE_DEFS, RESPONSES } from '../../../../src/testing/generated/responses.js';
import { answerFor, answersLines, linesFor, OPENAPI_PATHS } from '../../../../src/testing/model/openapi-answers.js';

const DEFS = { ...SCHEMA_DEFS, ...RESPONSE_DEFS };

/** Every item of a list operation, walked by cursor or by page number. */
function walk(path: string): unknown[] {
  const paging = RULES[path]!.paging!;
  const items: unknown[] = [];
  let body: Record<string, unknown> = { limit: 5 };
  for (let page = 1; page < 50; page++) {
    const data = answerFor(path, body) as Record<string, unknown>;
    items.push(...(data[paging.items] as unknown[]));
    const cursor = data[paging.cursorFields?.response ?? 'search_after_ctx'];
    if (paging.cursor && typeof cursor === 'string' && cursor !== '')
      body = { limit: 5, [paging.cursorFields?.request ?? 'search_after_ctx']: cursor };
    else if (!paging.cursor && (data[paging.items] as unknown[]).length === 5)
      body = paging.offset ? { limit: 5, offset: page * 5 } : { limit: 5, p: page + 1 };
    else return items;
  }
  throw new Error(`${path} did not end`);
}

describe('answerFor', () => {
  it('answers every operation of the OpenAPI with data that fits its response schema', () => {
    expect(OPENAPI_PATHS.length).toBeGreaterThan(280);
    for (const path of OPENAPI_PATHS) {
      const response = RESPONSES[path]!;
      expect(checkSchema(answerFor(path), response.schema, DEFS), path).toBeUndefined();
    }
    expect(answerFor('/not/an/operation')).toBeNull();
  });

  it('gives the same answer to the same request', () => {
    for (const path of OPENAPI_PATHS.slice(0, 40))
      expect(answerFor(path, { limit: 3 }), path).toEqual(answerFor(path, { limit: 3 }));
  });

  it('walks a list operation’s collection once, by cursor, number or offset, each item told apart', () => {
    const lists = OPENAPI_PATHS.filter(
      (path) => RULES[path]?.paging && (RULES[path]?.paging?.cursor || RULES[path]?.paging?.number),
    );
    expect(lists.length).toBeGreaterThan(20);
    for (const path of lists) {
      const items = walk(path);
      expect(items.length, path).toBeGreaterThanOrEqual(12);
      expect(items.length, path).toBeLessThanOrEqual(41);
      expect(new Set(items.map((item) => JSON.stringify(item))).size, path).toBe(items.length);
    }
  });
});

describe('NDJSON answers', () => {
  it('are a session’s transcript after a session_meta line naming it', () => {
    const { text, cursor } = linesFor('/safari/session/export', { session_id: 'sess_1' });
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toEqual({ type: 'session_meta', session_id: 'sess_1', include_subagents: false });
    expect(lines.every((line) => line.session_id === 'sess_1')).toBe(true);
    expect(cursor).toBeUndefined();
  });

  it('are replay segments a page at a time, the next page’s cursor beside them; an envelope when asked', () => {
    const first = linesFor('/rum/session-replay/segments', { session_id: 's', limit: 5 });
    expect(first.text.trim().split('\n')).toHaveLength(5);
    expect(first.cursor).toBe('s5');
    const next = linesFor('/rum/session-replay/segments', {
      session_id: 's',
      limit: 5,
      search_after_ctx: first.cursor,
    });
    expect(JSON.parse(next.text.split('\n')[0]!)).toMatchObject({ segment: 5 });
    expect(answersLines('/rum/session-replay/segments', { url_mode: true })).toBe(false);
    expect(answersLines('/rum/session-replay/segments', {})).toBe(true);
  });
});
