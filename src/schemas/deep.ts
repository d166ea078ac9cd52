// `validate: 'deep'`: every field through the zod schemas: every answer's envelope, and the pages of
// the lists that have a schema of their pages (PAGE_SCHEMAS, by path). Loaded on demand, so clients
// that keep the default validation never load zod. A checker compiled from the same schemas answers
// first; zod runs only on a failure, to say exactly what and where.

import * as z from 'zod/mini';
import { type Check, compile } from './compile.js';
import { EnvelopeSchema } from './envelope.js';
import { IncidentListResponseSchema } from './list.js';
import type { Problem } from '../core/problem.js';

const compiled = new WeakMap<z.ZodMiniType, Check | null>();

export function deepCheck(schema: z.ZodMiniType, value: unknown, prefix: string): Problem | undefined {
  let check = compiled.get(schema);
  if (check === undefined) compiled.set(schema, (check = compile(schema) ?? null));
  if (check?.(value)) return undefined;
  const result = z.safeParse(schema, value);
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  const path = [prefix, ...(issue?.path ?? []).map(String)].filter(Boolean).join('.');
  return { path, message: describeIssue(issue) };
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'invalid value';
  if (issue.code === 'invalid_type') return `expected ${issue.expected}`;
  if (issue.code === 'invalid_format') return `expected ${issue.format} format`;
  return issue.message || issue.code;
}

/** The `data` schemas of list pages, by operation path: every field of every item. */
const PAGE_SCHEMAS: Readonly<Record<string, z.ZodMiniType>> = {
  '/incident/list': IncidentListResponseSchema,
};

/** Where a page of the operation at `path` breaks its schema; undefined where it has none or keeps to it. */
export function checkPageDeep(path: string, data: unknown): Problem | undefined {
  const schema = PAGE_SCHEMAS[path];
  return schema ? deepCheck(schema, data, 'data') : undefined;
}

export function checkEnvelopeDeep(body: unknown): Problem | undefined {
  return deepCheck(EnvelopeSchema, body, '');
}
