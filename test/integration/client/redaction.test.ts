import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Flashduty, FlashdutyError } from '../../../src/index.js';
import { closedPort, DAY, NOW, rejection, startMock } from '../../helpers.js';

const h = await startMock({ incidents: 10 });
const window = { start_time: NOW - DAY, end_time: NOW };

/** Everything a user could print about an error: message, stack, causes, JSON and inspect output. */
function renderings(error: unknown): string {
  const parts: string[] = [String(error), inspect(error, { depth: 10, showHidden: true }), JSON.stringify(error)];
  for (let e: unknown = error; e instanceof Error; e = e.cause)
    parts.push(e.message, e.stack ?? '', inspect(e, { showHidden: true }));
  return parts.join('\n');
}

function logCollector() {
  const lines: string[] = [];
  const push = (...args: unknown[]) => lines.push(args.map((a) => (typeof a === 'string' ? a : inspect(a))).join(' '));
  return { lines, logger: { debug: push, info: push, warn: push, error: push } };
}

describe('the app_key never shows', () => {
  const secretKeys = [h.service.appKey, 'fdk_s3cr3t+/with=special&chars'];

  it.each(secretKeys)('in errors, causes, stacks, JSON, inspect and logs (%#)', async (key) => {
    const { lines, logger } = logCollector();
    const client = new Flashduty({ appKey: key, baseUrl: h.server.url, logger, logLevel: 'debug', maxRetries: 1 });
    const leaky: typeof fetch = async (input) => {
      const url = input instanceof Request ? input.url : String(input);
      throw new TypeError(`fetch to ${url} failed (key ${key})`, { cause: new Error(`socket for ${url}`) });
    };
    const leakyClient = new Flashduty({
      appKey: key,
      baseUrl: h.server.url,
      fetch: leaky,
      logger,
      logLevel: 'debug',
      maxRetries: 1,
    });
    const closed = new Flashduty({
      appKey: key,
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      logger,
      logLevel: 'debug',
      maxRetries: 1,
    });
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- whatever String() gives (today '[object Object]') must not hold the key
    const outputs: string[] = [inspect(client), JSON.stringify(client), String(client)];

    const echo = `<html>upstream said: GET /incident/list?app_key=${key} and ${encodeURIComponent(key)}</html>`;
    h.service.faults.add({ status: 502, body: echo, times: 2 }); // a read retries a 502
    outputs.push(renderings(await rejection(client.listIncidents(window))));
    h.service.faults.add({ code: 'InvalidParameter', message: `bad key ${key}` });
    outputs.push(renderings(await rejection(client.listIncidents(window))));
    // Only this call has a short timeout: elsewhere a busy machine's slow answer would time out and be retried.
    h.service.faults.add({ delayMs: 400, times: 2 });
    outputs.push(renderings(await rejection(client.listIncidents(window, { timeout: 200 }))));
    h.service.faults.add({ drop: true, times: 2 });
    outputs.push(renderings(await rejection(client.enableA2AAgent('a2a_demo'))));
    h.service.faults.clear();
    outputs.push(renderings(await rejection(leakyClient.listIncidents(window))));
    outputs.push(renderings(await rejection(closed.deleteSkill('skill_demo'))));
    outputs.push(renderings(await rejection(client.listIncidents(window, { signal: AbortSignal.abort() }))));
    outputs.push(renderings(await rejection(client.listIncidents({ start_time: NOW, end_time: NOW }))));
    outputs.push(...lines);

    const all = outputs.join('\n');
    expect(lines.length).toBeGreaterThan(5); // debug logging was on and did log
    expect(all).toContain('app_key=***');
    expect(all).not.toContain(key);
    expect(all).not.toContain(encodeURIComponent(key));
  });

  it('keeps useful detail in the scrubbed cause', async () => {
    const port = await closedPort();
    const closed = new Flashduty({
      appKey: 'k-123456',
      baseUrl: `http://127.0.0.1:${port}`,
      maxRetries: 0,
      logLevel: 'off',
    });
    const error = (await rejection(closed.listIncidents(window))) as FlashdutyError;
    const codes: unknown[] = [];
    for (let e: unknown = error.cause; e instanceof Error; e = e.cause) codes.push((e as { code?: unknown }).code);
    expect(codes).toContain('ECONNREFUSED');
    expect(error.url).toBe(`http://127.0.0.1:${port}/incident/list?app_key=***`);
  });
});
