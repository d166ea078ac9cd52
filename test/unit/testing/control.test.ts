// The mock's control routes: `POST /__mock/webhooks/trigger`, a trigger run inside the mock, its
// records answered and its history kept for replay, what is not a trigger's options refused with
// 400; `GET /__mock/credentials`, the mock's own app key (for `webhooks replay --via`).
import { describe, expect, it } from 'vitest';
import { answerControlRoute, CREDENTIALS_PATH, isControlRoute, TRIGGER_PATH } from '../../../src/testing/control.js';
import { createMockServiceWith } from '../../../src/testing/service.js';
import { NOW_MS, recordingPost } from './support.js';

const service = createMockServiceWith({ now: NOW_MS, incidents: 5, rateLimits: false }, { post: recordingPost() });
const call = (body: string, method = 'POST') =>
  answerControlRoute(
    service,
    new Request(`http://mock.test${TRIGGER_PATH}`, { method, ...(method === 'POST' ? { body } : {}) }),
  );

describe('the control route', () => {
  it('is the trigger path and the credentials path alone', () => {
    expect(isControlRoute(new Request(`http://mock.test${TRIGGER_PATH}`))).toBe(true);
    expect(isControlRoute(new Request(`http://mock.test${CREDENTIALS_PATH}`))).toBe(true);
    expect(isControlRoute(new Request('http://mock.test/incident/list'))).toBe(false);
    expect(isControlRoute(new Request('http://mock.test/__mock/other'))).toBe(false);
  });

  it('answers the mock’s own app key to GET, and 405 to another method', async () => {
    const url = `http://mock.test${CREDENTIALS_PATH}`;
    const response = await answerControlRoute(service, new Request(url));
    expect([response.status, await response.json()]).toEqual([200, { app_key: service.appKey }]);
    expect((await answerControlRoute(service, new Request(url, { method: 'POST', body: '{}' }))).status).toBe(405);
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
