import { afterEach, describe, expect, it } from 'vitest';
import { IncidentInfoSchema, IncidentListResponseSchema, ResponseValidationError } from '../../../src/index.js';
import { DAY, NOW, rejection, startMock } from '../../helpers.js';
import openapiExample from '../../fixtures/openapi-incident-list.example.json' with { type: 'json' };

const h = await startMock({ incidents: 20 });
afterEach(() => h.service.faults.clear());
const window = { start_time: NOW - 7 * DAY, end_time: NOW };

function answerWith(data: unknown): void {
  h.service.faults.add({
    body: JSON.stringify({ request_id: 'r1', data }),
    headers: { 'Content-Type': 'application/json' },
  });
}
const base = () => structuredClone(h.service.world.incidents[0]) as unknown as Record<string, unknown>;
const page = (items: unknown[]) => ({ items, total: items.length, has_next_page: false });

describe('response validation modes', () => {
  it("'envelope' (the default) keeps unknown fields and enum values", async () => {
    const item = { ...base(), progress: 'Snoozed', incident_severity: 'Disaster', brand_new_field: { nested: [1] } };
    answerWith({ ...page([item]), next_gen_total: 5 });
    const got = await h.client().listIncidents(window);
    expect(got.items[0]).toMatchObject({
      progress: 'Snoozed',
      incident_severity: 'Disaster',
      brand_new_field: { nested: [1] },
    });
  });

  it("'deep' passes the same forward-compatible answer and the vendor's real example", async () => {
    const item = { ...base(), progress: 'Snoozed', brand_new_field: true, images: null };
    answerWith(page([item]));
    expect((await h.client({ validate: 'deep' }).listIncidents(window)).items[0]).toMatchObject({
      brand_new_field: true,
    });
    answerWith(openapiExample.data);
    const real = await h.client({ validate: 'deep' }).listIncidents(window);
    expect(real.items[0]?.incident_id).toBe('69da451ef77b1b51f40e83ee');
    expect(real.items[0]?.images).toBeNull();
  });

  it("'deep' catches contract drift inside items, with the path; 'envelope' lets it through", async () => {
    const { incident_id: _dropped, ...drifted } = base();
    answerWith(page([base(), drifted]));
    const error = (await rejection(h.client({ validate: 'deep' }).listIncidents(window))) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.path).toBe('data.items.1.incident_id');
    expect(error.requestId).toBe('r1');
    expect(error.status).toBe(200);

    answerWith(page([{ ...base(), start_time: '1700000000' }]));
    expect(
      ((await rejection(h.client({ validate: 'deep' }).listIncidents(window))) as ResponseValidationError).path,
    ).toBe('data.items.0.start_time');
    answerWith(page([drifted]));
    expect((await h.client({ validate: 'envelope' }).listIncidents(window)).items).toHaveLength(1);
  });

  it('every generated incident of the mock passes the deep schema', () => {
    for (const incident of h.service.world.incidents) {
      const result = IncidentInfoSchema['~standard'].validate(incident);
      expect(result, incident.incident_id).not.toHaveProperty('issues');
    }
  });

  it('false checks nothing but what iteration needs', async () => {
    answerWith({ items: [{ not: 'an incident' }], total: 'many', has_next_page: false });
    expect((await h.client({ validate: false }).listIncidents(window)).items).toEqual([{ not: 'an incident' }]);
    answerWith({ items: 'nope', total: 1, has_next_page: false });
    expect(await rejection(h.client({ validate: false }).listIncidents(window))).toBeInstanceOf(
      ResponseValidationError,
    );
  });

  it('true means envelope', async () => {
    expect(h.client({ validate: true }).validate).toBe('envelope');
  });

  it('the exported schemas parse the OpenAPI example page', () => {
    expect(IncidentListResponseSchema['~standard'].validate(openapiExample.data)).not.toHaveProperty('issues');
  });
});
