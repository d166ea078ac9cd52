// Testing your own code against the mock service with vitest: copy into your test folder.
// Run: npx vitest run examples/testing-with-vitest.test.ts
import { Flashduty, InvalidParameterError, RequestTooFrequentlyError } from 'flashduty-sdk';
import { createMockService } from 'flashduty-sdk/testing';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';

// The code under test: counts open critical incidents of the last day.
async function openCriticals(client: Flashduty): Promise<number> {
  const end = new Date();
  let n = 0;
  for await (const _ of client.listIncidents({
    start_time: new Date(end.getTime() - 86_400_000),
    end_time: end,
    progress: ['Triggered', 'Processing'],
    incident_severity: ['Critical'],
  }))
    n++;
  return n;
}

const service = createMockService({ seed: 1, incidents: 200 });
const server = setupServer(...service.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
const client = new Flashduty({ appKey: service.appKey, baseUrl: 'https://api.flashcat.cloud', maxRetries: 1 });

it('counts what the service holds', async () => {
  const since = Date.now() / 1000 - 86_400;
  const expected = service.world.incidents.filter(
    (i) => i.start_time >= since && i.incident_severity === 'Critical' && i.progress !== 'Closed',
  ).length;
  expect(await openCriticals(client)).toBe(expected);
});

it('survives a rate-limited answer (the client retries it)', async () => {
  service.faults.add({ code: 'RequestTooFrequently', headers: { 'Retry-After': '0' } });
  await expect(openCriticals(client)).resolves.toBeGreaterThanOrEqual(0);
});

it('sees the typed errors', async () => {
  service.faults.add({ code: 'RequestTooFrequently', times: 2, headers: { 'Retry-After': '0' } });
  await expect(openCriticals(client)).rejects.toBeInstanceOf(RequestTooFrequentlyError);
  await client.enableA2AAgent('a2a_demo');
  await expect(client.enableA2AAgent('a2a_demo')).rejects.toBeInstanceOf(InvalidParameterError);
});
