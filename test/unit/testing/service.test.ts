// createMockService: its credentials (a key with every permission, one without on-call, an expired
// one, an access token; the same for the same seed), its options' defaults, and fetch(): one call
// answered in process, a dropped connection as fetch's own TypeError.
import { describe, expect, it } from 'vitest';
import { createMockService } from '../../../src/testing/index.js';
import { NOW_MS } from './support.js';

const ack = (service: ReturnType<typeof createMockService>, key: string, id: string) =>
  service.fetch(
    new Request(`http://mock.test/incident/ack?app_key=${key}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ incident_ids: [id] }),
    }),
  );

describe('createMockService', () => {
  it('makes its credentials from the seed: every permission, no on-call, expired, an access token', async () => {
    const service = createMockService({ seed: 4, incidents: 5, now: NOW_MS });
    expect(createMockService({ seed: 4, incidents: 5, now: NOW_MS }).appKey).toBe(service.appKey);
    expect(createMockService({ seed: 5, incidents: 5, now: NOW_MS }).appKey).not.toBe(service.appKey);
    expect(service.keys.full).toBe(service.appKey);
    expect(service.appKey).toMatch(/^fdk_[0-9a-f]{32}$/);
    expect(service.accessToken).toMatch(/^fdt_[0-9a-f]{40}$/);
    expect(service.personId).toBe(service.world.members[0]?.person_id);
    const id = service.world.incidents[0]?.incident_id as string;
    expect((await ack(service, service.appKey, id)).status).toBe(200);
    expect((await ack(service, service.keys.noPermission, id)).status).toBe(403);
    expect((await ack(service, service.keys.expired, id)).status).toBe(401);
  });

  it('starts with 200 incidents, the demo agents and skill, and the clock given', () => {
    const service = createMockService({ now: NOW_MS });
    expect(service.world.incidents).toHaveLength(200);
    expect(service.clock.now()).toBe(NOW_MS);
    expect(service.agentEnabled('a2a_demo')).toBe(false);
    expect(service.agentEnabled('a2a_enabled')).toBe(true);
    expect(service.agentEnabled('nope')).toBeUndefined();
    expect(service.hasSkill('skill_demo')).toBe(true);
  });

  it('answers fetch() in process, and rejects it as fetch does when the connection is dropped', async () => {
    const service = createMockService({ incidents: 5, now: NOW_MS });
    service.faults.add({ drop: true });
    expect(service.faults.pending).toBe(1);
    await expect(ack(service, service.appKey, 'x')).rejects.toThrow(TypeError);
    service.faults.add({ truncate: true });
    await expect(ack(service, service.appKey, 'x')).rejects.toThrow(
      'fetch failed: the mock service dropped the connection',
    );
    service.faults.add({ status: 503, times: 3 });
    service.faults.clear();
    expect(service.faults.pending).toBe(0);
    expect(service.callLog.map((entry) => entry.status)).toEqual([0, 400]);
  });
});
