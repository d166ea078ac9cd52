// The rows of an enrichment mapping schema (`/enrichment/mapping/data/*`): a batch upsert whose rows
// are keyed by their source labels' values, which the engine's rules (a family with an id of its
// own) cannot say. Rules owned here: a row must hold every source and result label of its schema
// (else InvalidParameter naming the label); its key is its source labels' values, in the schema's
// order, joined by `,`; an upsert replaces the row of its key; the list filters by source label
// values (`query`: all of them) and pages by number or cursor; a delete of a key the schema does
// not have is ResourceNotFound; truncate empties the schema; an upload (CSV, a header of labels
// then rows) replaces the schema's rows; a download answers them as CSV; a schema that does not
// exist is ResourceNotFound. A schema's rows go with it (family-hooks.ts).

import { RULES } from '../../generated/operation-rules.js';
import type { OperationResult } from '../model/operation-result.js';
import type { WorldContext, WorldHandler } from './handler.js';
import { pageAnswer, pageOf } from './list-query.js';
import { RESPONSE_DEFS, RESPONSES } from '../generated/responses.js';

/** Where the rows are kept: `world.resources`, under this path, each with its schema's id. */
export const MAPPING_DATA = '/enrichment/mapping/data';

interface Row extends Record<string, unknown> {
  schema_id: string;
  key: string;
  fields: Record<string, string>;
  created_at: number;
  updated_at: number;
}

const ok = (data: unknown): OperationResult => ({ data });
const refuse = (reason: string): OperationResult => ({ code: 'InvalidParameter', key: 'action', vars: { reason } });

/** The labels of the schema a call names (its source labels first), if it exists. */
function schemaOf(context: WorldContext, id: unknown): { source: string[]; labels: string[] } | undefined {
  const schema = context.engine.find('/enrichment/mapping/schema', id);
  if (!schema) return undefined;
  const source = (schema.source_labels as string[] | undefined) ?? [];
  return { source, labels: [...source, ...((schema.result_labels as string[] | undefined) ?? [])] };
}

const noSchema = (id: unknown): OperationResult => ({
  code: 'ResourceNotFound',
  key: 'notFound',
  vars: { id: String(id) },
});

function rowsOf(context: WorldContext, schemaId: unknown): Row[] {
  let rows = context.world.resources.get(MAPPING_DATA);
  if (!rows) context.world.resources.set(MAPPING_DATA, (rows = []));
  return (rows as Row[]).filter((row) => row.schema_id === String(schemaId));
}

/** Removes rows of a schema (`keep` says which stay). */
export function removeRows(
  rows: Array<Record<string, unknown>> | undefined,
  schemaId: unknown,
  keep: (row: Row) => boolean = () => false,
): void {
  if (!rows) return;
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i] as Row;
    if (row.schema_id === String(schemaId) && !keep(row)) rows.splice(i, 1);
  }
}

/** Adds or replaces rows, each checked to hold every label first (a refused batch changes nothing). */
function upsert(context: WorldContext, schemaId: unknown, docs: Array<Record<string, unknown>>): OperationResult {
  const schema = schemaOf(context, schemaId);
  if (!schema) return noSchema(schemaId);
  for (const [i, doc] of docs.entries()) {
    const missing = schema.labels.find((label) => typeof doc[label] !== 'string');
    if (missing !== undefined) return refuse(`docs[${i}] has no ${missing}`);
  }
  const all = context.world.resources.get(MAPPING_DATA) ?? [];
  context.world.resources.set(MAPPING_DATA, all);
  const keys = docs.map((doc) => {
    const fields = Object.fromEntries(Object.entries(doc).map(([name, value]) => [name, String(value)]));
    const key = schema.source.map((label) => fields[label]).join(',');
    const old = rowsOf(context, schemaId).find((row) => row.key === key);
    if (old) Object.assign(old, { fields, updated_at: context.now });
    else all.push({ schema_id: String(schemaId), key, fields, created_at: context.now, updated_at: context.now });
    return key;
  });
  return ok({ keys });
}

/** A CSV field, quoted where it must be. */
const csvField = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The rows of a CSV text (quoted fields, doubled quotes), blank lines left out. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endRow = () => {
    row.push(field);
    if (row.some((cell) => cell !== '')) rows.push(row);
    row = [];
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted && c === '"' && text[i + 1] === '"') field += text[++i];
    else if (c === '"') quoted = !quoted;
    else if (quoted) field += c;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') endRow();
    else if (c !== '\r') field += c;
  }
  endRow();
  return rows;
}

export const MAPPING_DATA_HANDLERS: Record<string, WorldHandler> = {
  [`${MAPPING_DATA}/upsert`]: (context, body) =>
    upsert(context, body.schema_id, body.docs as Array<Record<string, unknown>>),
  [`${MAPPING_DATA}/list`]: (context, body) => {
    const schema = schemaOf(context, body.schema_id);
    if (!schema) return noSchema(body.schema_id);
    const query = (body.query ?? {}) as Record<string, string>;
    let rows = rowsOf(context, body.schema_id).filter((row) =>
      Object.entries(query).every(([label, value]) => row.fields[label] === value),
    );
    if (body.orderby === 'created_at' || body.orderby === 'updated_at') {
      const field = body.orderby;
      rows = rows.sort((a, b) => (a[field] - b[field]) * (body.asc === true ? 1 : -1));
    }
    const paging = RULES[`${MAPPING_DATA}/list`]?.paging;
    const page = pageOf(
      rows.map(({ schema_id: _schema, ...row }) => structuredClone(row)),
      body,
      paging,
    );
    return ok(pageAnswer(page, 'items', RESPONSES[`${MAPPING_DATA}/list`]?.schema, RESPONSE_DEFS, paging));
  },
  [`${MAPPING_DATA}/delete`]: (context, body) => {
    const schema = schemaOf(context, body.schema_id);
    if (!schema) return noSchema(body.schema_id);
    const keys = body.keys as string[];
    const held = new Set(rowsOf(context, body.schema_id).map((row) => row.key));
    const unknown = keys.find((key) => !held.has(key));
    if (unknown !== undefined) return { code: 'ResourceNotFound', key: 'notFound', vars: { id: unknown } };
    removeRows(context.world.resources.get(MAPPING_DATA), body.schema_id, (row) => !keys.includes(row.key));
    return ok({});
  },
  [`${MAPPING_DATA}/truncate`]: (context, body) => {
    const schema = schemaOf(context, body.schema_id);
    if (!schema) return noSchema(body.schema_id);
    removeRows(context.world.resources.get(MAPPING_DATA), body.schema_id);
    return ok({});
  },
  [`${MAPPING_DATA}/upload`]: (context, body) => {
    const schema = schemaOf(context, body.schema_id);
    if (!schema) return noSchema(body.schema_id);
    if (typeof body.file !== 'string') return refuse('file must be the CSV text');
    const [header = [], ...lines] = parseCsv(body.file);
    const docs = lines.map((cells) => Object.fromEntries(header.map((label, i) => [label, cells[i] ?? ''])));
    const before = [...rowsOf(context, body.schema_id)];
    removeRows(context.world.resources.get(MAPPING_DATA), body.schema_id);
    const result = upsert(context, body.schema_id, docs);
    if ('code' in result) context.world.resources.get(MAPPING_DATA)?.push(...before); // refused: as it was
    return 'code' in result ? result : ok({});
  },
  [`${MAPPING_DATA}/download`]: (context, body) => {
    const schema = schemaOf(context, body.schema_id);
    if (!schema) return noSchema(body.schema_id);
    const lines = [
      schema.labels,
      ...rowsOf(context, body.schema_id).map((row) => schema.labels.map((label) => row.fields[label] ?? '')),
    ];
    return ok(lines.map((cells) => `${cells.map(csvField).join(',')}\n`).join(''));
  },
};
