// The mock's control route (`POST /__mock/webhooks/trigger`): a trigger run inside the mock, its
// records answered and its history kept for replay; what is not a trigger's options refused with 400.
import { describe, expect, it } from 'vitest';
import { answerControlRoute, isControlRoute, TRIGGER_PATH } from '../../../src/testing/control.js';
import { createMockServiceWith } from '../../../src/testing/service.js';
import { NOW_MS, recordingPost } from './support.js';

const service = createMockServiceWith({ now: NOW_MS, incidents: 5, rateLimits: false }, { post: recordingPost() });
const call = (body: string, method = 'POST') =>
  answerControlRoute(
    service,
    new Request(`http://mock.test${TRIGGER_PATH}`, { method, ...(method === 'POST' ? { body } : {}) }),
  );

describe('the control route', () => {
  it('is the trigger path alone', () => {
    expect(isControlRoute(new Request(`http://mock.test${TRIGGER_PATH}`))).toBe(true);
    expect(isControlRoute(new Request('http://mock.test/incident/list'))).toBe(false);
  });

  it('runs a trigger inside the mock, answers its records and keeps its history', async () => {
    const response = await call(JSON.stringify({ eventType: 'i_new', endpoint: 'http://r.test/' }));
    expect(response.status).toBe(200);
    const { integration_id, records } = (await response.json()) as { integration_id: number; records: unknown[] };
    expect(records).toEqual([expect.objectContaining({ event_type: 'i_new', status: 'success' })]);
    expect(service.webhooks.history(integration_id)).toEqual(records);
    expect(service.webhooks.list().map((hook) => hook.id)).not.toContain(integration_id);
  });

  it('refuses another method, a body that is not JSON or not a trigger’s options, and a trigger’s error', async () => {
    expect((await call('', 'GET')).status).toBe(405);
    const refused = async (body: string) => {
      const response = await call(body);
      expect(response.status).toBe(400);
      return ((await response.json()) as { error: string }).error;
    };
    expect(await refused('{')).toBe('the body is not JSON');
    expect(await refused('{"eventType":"i_new"}')).toBe('expected the trigger options: { eventType, endpoint, … }');
    expect(await refused('{"eventType":"i_nope","endpoint":"http://r.test"}')).toMatch(/^trigger: unknown event type/);
  });
});
