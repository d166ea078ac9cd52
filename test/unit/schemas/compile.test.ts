// The compiled checker of `validate: 'deep'` must say yes exactly when zod does: checked here on
// real items and on random mutations of them (fast-check).
import fc from 'fast-check';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { AlertInfoSchema, EnvelopeSchema, IncidentInfoSchema, IncidentListResponseSchema } from '../../../src/index.js';
import { compile } from '../../../src/schemas/compile.js';
import { createMockService } from '../../../src/testing/index.js';
import openapiExample from '../../fixtures/openapi-incident-list.example.json' with { type: 'json' };

const service = createMockService({ seed: 5, incidents: 20, now: Date.UTC(2026, 10, 1) });
const incident = structuredClone(service.world.incidents[0]) as unknown as Record<string, unknown>;
const alert = structuredClone([...service.world.alerts.values()][0]?.[0]) as unknown as Record<string, unknown>;
const page = { items: service.world.incidents.slice(0, 3), total: 3, has_next_page: false };

const oddValues = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant(Number.NaN),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.constant(2 ** 60),
  fc.double(),
  fc.integer(),
  fc.string(),
  fc.constant('64b1352e376e32c85c56e25b'),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxKeys: 3 }),
  fc.constant(new Date(0)),
);

/** Replaces the value at a random path (top level or one level down) with an odd value. */
function mutate(value: unknown, pathSeed: number[], replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  let target: Record<string, unknown> = copy;
  for (const [depth, n] of pathSeed.entries()) {
    const keys = Object.keys(target);
    if (keys.length === 0) break;
    const key = keys[n % keys.length] as string;
    const next = target[key];
    if (depth === pathSeed.length - 1 || typeof next !== 'object' || next === null) {
      if (replacement === undefined) delete target[key];
      else target[key] = replacement;
      break;
    }
    target = next as Record<string, unknown>;
  }
  return copy;
}

const cases: Array<[string, z.ZodMiniType, unknown]> = [
  ['IncidentInfo', IncidentInfoSchema, incident],
  ['AlertInfo', AlertInfoSchema, alert],
  ['IncidentListResponse', IncidentListResponseSchema, page],
  ['Envelope', EnvelopeSchema, { request_id: 'r', data: page }],
];

describe('compiled deep checker agrees with zod', () => {
  it.each(cases)('%s: compiles, and accepts the real thing', (_name, schema, value) => {
    const check = compile(schema);
    expect(check).toBeTypeOf('function');
    expect(check?.(value)).toBe(true);
    expect(z.safeParse(schema, value).success).toBe(true);
  });

  it('accepts the OpenAPI example page', () => {
    expect(compile(IncidentListResponseSchema)?.(openapiExample.data)).toBe(true);
  });

  it.each(cases)('%s: same verdict on random mutations', (_name, schema, value) => {
    const check = compile(schema) as (v: unknown) => boolean;
    const verdicts = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), oddValues, (path, replacement) => {
        const mutated = mutate(value, path, replacement);
        const zodSays = z.safeParse(schema, mutated).success;
        verdicts[zodSays ? 'valid' : 'invalid']++;
        expect(check(mutated)).toBe(zodSays);
      }),
      { numRuns: 400 },
    );
    expect(verdicts.valid).toBeGreaterThan(10); // both kinds of input were tried
    expect(verdicts.invalid).toBeGreaterThan(10);
  });

  it('declines what it does not know, so zod decides', () => {
    expect(compile(z.custom((v) => v === 1))).toBeUndefined();
    expect(compile(z.strictObject({ a: z.string() }))).toBeUndefined();
    expect(compile(z.string().check(z.minLength(2)))).toBeUndefined();
  });
});
