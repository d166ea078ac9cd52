// `validate: 'deep'`: every field through the zod schemas. Loaded on demand, so clients that keep
// the default validation never load zod. A checker compiled from the same schemas answers first;
// zod runs only on a failure, to say exactly what and where.

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

export function checkIncidentListDeep(data: unknown): Problem | undefined {
  return deepCheck(IncidentListResponseSchema, data, 'data');
}

export function checkEnvelopeDeep(body: unknown): Problem | undefined {
  return deepCheck(EnvelopeSchema, body, '');
}
