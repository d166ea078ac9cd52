// The resource types derive from the generated OpenAPI types, and each zod/mini schema is held to its
// type by `Agrees` (src/schemas/common.ts). Checked at compile time (`npm run typecheck` covers
// test/): `Agrees` accepts a schema that matches its type and turns every kind of drift into `never`;
// the public types are the generated ones, with only the fields we narrow (open enums, `null` images)
// told apart, and a response typed by the generated OpenAPI is one of ours.
import * as z from 'zod/mini';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  AlertEventItem,
  AlertInfo,
  components,
  IncidentInfo,
  IncidentListResponse,
  ListIncidentsRequest,
  ListWebhookHistoryResponse,
  WebhookHistoryDetail,
} from '../../../src/index.js';
import { IncidentInfoSchema } from '../../../src/index.js';
import type { Agrees } from '../../../src/schemas/common.js';

type Schemas = components['schemas'];

const schema = z.looseObject({
  id: z.string(),
  count: z.optional(z.int()),
  state: z.string(),
  tags: z.record(z.string(), z.string()),
  images: z.nullable(z.array(z.looseObject({ src: z.string() }))),
});
type Schema = typeof schema;
interface Wire {
  id: string;
  count?: number;
  state: 'open' | 'closed' | (string & {});
  tags: Record<string, string>;
  images: Array<{ src: string }> | null;
}

describe('Agrees', () => {
  it('accepts a schema that states every field of its type (open enums, loose objects, null)', () => {
    expectTypeOf<Agrees<Schema, Wire>>().toEqualTypeOf<Schema>();
    const wire: Wire = { id: 'a', state: 'reopened', tags: {}, images: null };
    expect(z.parse(schema, wire)).toEqual(wire);
  });

  it('turns every drift into never', () => {
    expectTypeOf<Agrees<Schema, Wire & { added: string }>>().toBeNever();
    expectTypeOf<Agrees<Schema, Wire & { added?: string }>>().toBeNever();
    expectTypeOf<Agrees<Schema, Omit<Wire, 'id'>>>().toBeNever();
    expectTypeOf<Agrees<Schema, Omit<Wire, 'count'>>>().toBeNever();
    expectTypeOf<Agrees<Schema, Omit<Wire, 'id'> & { id?: string }>>().toBeNever();
    expectTypeOf<Agrees<Schema, Omit<Wire, 'count'> & { count: number }>>().toBeNever();
    expectTypeOf<Agrees<Schema, Omit<Wire, 'count'> & { count?: string }>>().toBeNever();
    expectTypeOf<Agrees<Schema, Omit<Wire, 'images'> & { images: Array<{ src: number }> }>>().toBeNever();
    expectTypeOf<Agrees<Schema, Omit<Wire, 'tags'> & { tags: Record<string, number> }>>().toBeNever();
  });
});

describe('the resource types', () => {
  it('are the generated OpenAPI types where they describe the same wire', () => {
    expectTypeOf<ListIncidentsRequest>().toEqualTypeOf<Schemas['ListIncidentsRequest']>();
    type Narrowed =
      | 'incident_status'
      | 'incident_severity'
      | 'progress'
      | 'frequency'
      | 'group_method'
      | 'assigned_to'
      | 'alerts'
      | 'links'
      | 'images';
    expectTypeOf<Omit<IncidentInfo, Narrowed>>().toEqualTypeOf<Omit<Schemas['IncidentInfo'], Narrowed>>();
    type AlertNarrowed = 'alert_severity' | 'alert_status' | 'incident' | 'events' | 'images';
    expectTypeOf<Omit<AlertInfo, AlertNarrowed>>().toEqualTypeOf<Omit<Schemas['AlertInfo'], AlertNarrowed>>();
    expectTypeOf<keyof WebhookHistoryDetail>().toEqualTypeOf<keyof Schemas['WebhookHistoryDetail']>();
  });

  it('take every response the generated OpenAPI types describe', () => {
    expectTypeOf<Schemas['IncidentListResponse']>().toExtend<IncidentListResponse>();
    expectTypeOf<Schemas['AlertEventItem']>().toExtend<AlertEventItem>();
    expectTypeOf<Schemas['ListWebhookHistoryResponse']>().toExtend<ListWebhookHistoryResponse>();
    expectTypeOf<Schemas['WebhookHistoryDetail']>().toExtend<WebhookHistoryDetail>();
  });

  it('keep enums open and images nullable, as the schemas check them', () => {
    expectTypeOf<'Escalated'>().toExtend<IncidentInfo['progress']>();
    expectTypeOf<'Fatal'>().toExtend<AlertInfo['alert_severity']>();
    expectTypeOf<null>().toExtend<IncidentInfo['images']>();
    const incident = { images: null, progress: 'Escalated' };
    const problem = z
      .safeParse(IncidentInfoSchema, incident)
      .error?.issues.find((i) => /images|progress/.test(String(i.path[0])));
    expect(problem).toBeUndefined();
  });
});
