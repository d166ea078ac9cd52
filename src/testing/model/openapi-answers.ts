// The mock's answer to every operation of the OpenAPI it does not model: the request is checked
// against the operation's request schema (InvalidParameter naming the field, as the service does),
// then answered with data that fits the operation's response schema: the OpenAPI's own example
// where it fits, else the smallest value the schema allows. A list operation (the generated rules
// say which, and how it pages) answers pages of a fixed collection made from its example's first
// item, one per path, so that walks by page number or cursor see every item once and end: the same
// answer to the same request, nothing remembered. An operation that answers NDJSON answers lines:
// the session export a `session_meta` line naming the session, then the events of the OpenAPI's
// example of that session's detail; the replay segments one record per segment, a page of them, the
// next page's cursor in `X-Search-After-Ctx` (or, asked with `url_mode: true`, an envelope of URLs).

import { RULES } from '../../generated/operation-rules.js';
import { checkSchema, type Schema } from '../../internal/schema.js';
import { sample } from '../../internal/schema-sample.js';
import { RESPONSES } from '../generated/responses.js';
import { DEFS } from '../world/records.js';

/** Paths the OpenAPI describes. */
export const OPENAPI_PATHS = Object.keys(RESPONSES);

/** Schema-valid `data` for a path's success answer to `body`. */
export function answerFor(path: string, body: Record<string, unknown> = {}): unknown {
  const response = RESPONSES[path];
  if (!response) return null;
  const data =
    response.example !== undefined && !checkSchema(response.example, response.schema, DEFS)
      ? structuredClone(response.example)
      : sample(response.schema, DEFS);
  const paging = RULES[path]?.paging;
  return paging && (paging.cursor || paging.number) ? collectionPage(path, data, body) : data;
}

/**
 * NDJSON operations, and the operation whose example's `events` make their lines: the OpenAPI types
 * the export's answer only as text, and describes its lines as the session's events after a
 * `session_meta` line.
 */
const TRANSCRIPTS: Record<string, string> = { '/safari/session/export': '/safari/session/get' };

/** Operations that answer NDJSON unless the request asks for an envelope, and how it asks. */
const ENVELOPE_ASKED: Record<string, (body: Record<string, unknown>) => boolean> = {
  '/rum/session-replay/segments': (body) => body.url_mode === true,
};

/** Whether an NDJSON operation's answer to `body` is lines (else an envelope, as the request asked). */
export function answersLines(path: string, body: Record<string, unknown>): boolean {
  return !(ENVELOPE_ASKED[path]?.(body) ?? false);
}

/** The lines of an NDJSON operation's answer to `body`, as NDJSON text, and the next page's cursor where it pages. */
export function linesFor(path: string, body: Record<string, unknown> = {}): { text: string; cursor?: string } {
  if (path === '/rum/session-replay/segments') return segmentLines(body);
  const source = TRANSCRIPTS[path];
  const detail = source ? (RESPONSES[source]?.example as { events?: unknown[] } | undefined) : undefined;
  const session = typeof body.session_id === 'string' ? body.session_id : '';
  const lines = [
    { type: 'session_meta', session_id: session, include_subagents: body.include_subagents === true },
    ...(detail?.events ?? []).map((event) => ({ ...(event as object), session_id: session })),
  ];
  return { text: lines.map((line) => `${JSON.stringify(line)}\n`).join('') };
}

/** A session's replay segments, as records, paged: `limit` of them from the cursor (a segment number). */
function segmentLines(body: Record<string, unknown>): { text: string; cursor?: string } {
  const session = typeof body.session_id === 'string' ? body.session_id : '';
  const size = collectionSize(`/rum/session-replay/segments/${session}`);
  const limit = typeof body.limit === 'number' && body.limit > 0 ? body.limit : 20;
  const cursor = typeof body.search_after_ctx === 'string' ? /^s(\d+)$/.exec(body.search_after_ctx) : null;
  const from = cursor ? Number(cursor[1]) : 0;
  const count = Math.max(0, Math.min(limit, size - from));
  const lines = Array.from({ length: count }, (_, i) => ({ session_id: session, segment: from + i, records: [] }));
  const text = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  return from + count < size ? { text, cursor: `s${from + count}` } : { text };
}

/** How many items each list operation's collection holds: 12 to 41, fixed per path, so walks take several pages. */
function collectionSize(path: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return 12 + ((hash >>> 0) % 30);
}

/**
 * One page of the path's collection, by cursor (an item's position; `search_after_ctx`, or the
 * fields the rules name), by `p` and `limit`, or by `offset` and `limit`.
 */
function collectionPage(path: string, example: unknown, body: Record<string, unknown>): unknown {
  const paging = RULES[path]?.paging;
  if (!paging || typeof example !== 'object' || example === null) return example;
  const data = example as Record<string, unknown>;
  const first = (data[paging.items] as unknown[] | undefined)?.[0] ?? sampleItem(path, paging.items);
  const size = first === undefined ? 0 : collectionSize(path);
  const limit = typeof body.limit === 'number' && body.limit > 0 ? body.limit : paging.limit;
  const sent = body[paging.cursorFields?.request ?? 'search_after_ctx'];
  const cursor = typeof sent === 'string' ? /^c(\d+)$/.exec(sent) : null;
  const p = typeof body.p === 'number' && body.p > 0 ? body.p : 1;
  // An operation paged by offset reads that alone, as the service would (a `p` there is not its field).
  const offset = typeof body.offset === 'number' && body.offset > 0 ? body.offset : 0;
  const from = cursor ? Number(cursor[1]) : paging.offset ? offset : (p - 1) * limit;
  const count = Math.max(0, Math.min(limit, size - from));
  let items = Array.from({ length: count }, (_, i) => variant(first, from + i, true));
  // A string id with a pattern of its own may not take a suffix: then only the numeric ids vary.
  const itemSchema = RESPONSES[path] && items[0] !== undefined ? listItemSchema(path, paging.items) : undefined;
  if (itemSchema && checkSchema(items[0], itemSchema, DEFS)) {
    items = Array.from({ length: count }, (_, i) => variant(first, from + i, false));
  }
  const more = from + items.length < size;
  const page: Record<string, unknown> = { ...data, [paging.items]: items };
  if ('total' in data || paging.total) page.total = size;
  if ('has_next_page' in data || paging.hasNext) page.has_next_page = more;
  if ('p' in data) page.p = p;
  if ('limit' in data) page.limit = limit;
  if (paging.cursor) {
    // The last page has no cursor: an empty one where the operation always answers the field.
    const field = paging.cursorFields?.response ?? 'search_after_ctx';
    if (more) page[field] = `c${from + items.length}`;
    else if (field in data) page[field] = '';
  }
  return page;
}

/** The schema of one item of the path's list. */
function listItemSchema(path: string, key: string): Schema | undefined {
  let schema: Schema | undefined = RESPONSES[path]?.schema;
  for (let hops = 0; schema?.$ref !== undefined && hops < 8; hops++) schema = DEFS[schema.$ref];
  return schema?.properties?.[key]?.items;
}

/** The smallest item the path's response schema allows in its list (for a list whose example does not fit its schema). */
function sampleItem(path: string, key: string): unknown {
  const items = listItemSchema(path, key);
  return items ? sample(items, DEFS) : undefined;
}

/** The example item made the `index`-th of its collection: its ids changed, so that every item is told apart. */
function variant(item: unknown, index: number, strings: boolean): unknown {
  if (typeof item !== 'object' || item === null) return item;
  const copy = structuredClone(item) as Record<string, unknown>;
  const ids = Object.keys(copy).filter((key) => key.endsWith('_id') || key === 'id');
  // An item without ids (a free-form row of mapping data) is told apart by a field of its own.
  if (ids.length === 0) return { ...copy, row: index };
  for (const [key, value] of Object.entries(copy)) {
    if (!ids.includes(key)) continue;
    if (typeof value === 'number') copy[key] = value + index;
    else if (typeof value === 'string' && /^[0-9a-f]{24}$/i.test(value)) {
      copy[key] = value.slice(0, 16) + index.toString(16).padStart(8, '0');
    } else if (strings && typeof value === 'string' && value !== '') copy[key] = `${value}${index}`;
  }
  return copy;
}
