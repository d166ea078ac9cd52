// The client against the mock over real HTTP while the network and the server misbehave: for each
// fault, reads and mutations make exactly the attempts their policy allows, a mutation that may
// have taken effect is never sent again, the final error has the right class and request id, and
// the app key is never printed.
import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type FlashdutyError,
  InternalError,
  RequestTooFrequentlyError,
  ServiceUnavailableError,
} from '../../../src/index.js';
import type { Fault } from '../../../src/testing/index.js';
import { DAY, NOW, startMock } from '../../helpers.js';
import { figure, scale } from './scale.js';

const ROUNDS = scale(1, 10);
const MAX_RETRIES = 2;
const lines: string[] = [];
const logger = {
  debug: (m: string) => lines.push(m),
  info: (m: string) => lines.push(m),
  warn: (m: string) => lines.push(m),
  error: (m: string) => lines.push(m),
};
const h = await startMock({
  incidents: 20,
  rateLimits: false,
  agents: Array.from({ length: 400 }, (_, i) => ({ agent_id: `agent_${i}` })),
});
const client = h.client({ maxRetries: MAX_RETRIES, logger, logLevel: 'debug' });
const window = { start_time: NOW - DAY, end_time: NOW };
let nextAgent = 0;

interface Scenario {
  name: string;
  fault: Fault;
  /**
   * A per-call timeout, only where the fault is a slow answer: the client's timer starts first and
   * fires first however busy the machine; a short timeout on every call would cut off answers that
   * are merely slow under load.
   */
  timeout?: number;
  /** Attempts of a read and of a mutation under this fault, when it lasts. */
  readAttempts: number;
  mutationAttempts: number;
  /** Whether a mutation's single attempt took effect on the server. */
  mutationTookEffect: boolean;
  error: abstract new (...args: never[]) => FlashdutyError;
  /** The server answered, so the error carries its request id. */
  hasRequestId: boolean;
}

const all = MAX_RETRIES + 1;
const SCENARIOS: Scenario[] = [
  {
    name: 'connection reset before the answer',
    fault: { drop: true },
    readAttempts: all,
    mutationAttempts: 1,
    mutationTookEffect: false,
    error: APIConnectionError,
    hasRequestId: false,
  },
  {
    name: 'connection reset after the call took effect',
    fault: { dropAfter: true },
    readAttempts: all,
    mutationAttempts: 1,
    mutationTookEffect: true,
    error: APIConnectionError,
    hasRequestId: false,
  },
  {
    name: 'slow headers (timeout)',
    fault: { delayMs: 600 },
    timeout: 300,
    readAttempts: all,
    mutationAttempts: 1,
    mutationTookEffect: true,
    error: APIConnectionTimeoutError,
    hasRequestId: false,
  },
  {
    name: 'truncated body',
    fault: { truncate: true },
    readAttempts: all,
    mutationAttempts: 1,
    mutationTookEffect: true,
    error: APIConnectionError,
    hasRequestId: false,
  },
  {
    name: '429 storm with Retry-After',
    fault: { code: 'RequestTooFrequently', headers: { 'Retry-After': '0' } },
    readAttempts: all,
    mutationAttempts: all,
    mutationTookEffect: false,
    error: RequestTooFrequentlyError,
    hasRequestId: true,
  },
  {
    name: '429 storm without Retry-After',
    fault: { code: 'RequestTooFrequently' },
    readAttempts: all,
    mutationAttempts: all,
    mutationTookEffect: false,
    error: RequestTooFrequentlyError,
    hasRequestId: true,
  },
  {
    name: 'burst of 500',
    fault: { status: 500 },
    readAttempts: all,
    mutationAttempts: 1,
    mutationTookEffect: false,
    error: InternalError,
    hasRequestId: true,
  },
  {
    name: 'burst of 503',
    fault: { status: 503 },
    readAttempts: all,
    mutationAttempts: 1,
    mutationTookEffect: false,
    error: ServiceUnavailableError,
    hasRequestId: true,
  },
];

/** Runs one call under a lasting fault; returns what the server saw and how the call ended. */
async function underFault(fault: Fault, path: string, call: () => PromiseLike<unknown>) {
  const TIMES = 100;
  h.service.faults.clear();
  h.service.faults.add({ ...fault, path, times: TIMES });
  const before = h.service.callLog.filter((c) => c.path === path).length;
  // Attempts are counted as the client sent them: a request on a connection the server has just
  // dropped can fail before the server logs it (seen on a busy machine: 2 logged of 3 sent).
  const sent = () => h.calls.filter((c) => new URL(c.url).pathname === path).length;
  const sentBefore = sent();
  let error: unknown;
  const started = Date.now();
  try {
    await call();
  } catch (e) {
    error = e;
  }
  // Every call that reached the server took the fault, and the server logs each once it ends: a
  // call held by a delay lands later (and may take effect then). Wait until all have landed.
  const tookFault = TIMES - h.service.faults.pending;
  h.service.faults.clear();
  const count = () => h.service.callLog.filter((c) => c.path === path).length - before;
  await vi.waitFor(
    () =>
      expect(count(), `calls to ${path} logged, of ${tookFault} that took the fault`).toBeGreaterThanOrEqual(tookFault),
    { timeout: 10_000, interval: 10 },
  );
  return { attempts: sent() - sentBefore, error, ms: Date.now() - started };
}

describe('faults', () => {
  const summary: string[] = [];

  for (const s of SCENARIOS) {
    it(s.name, { timeout: 60_000 }, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const perCall = s.timeout === undefined ? {} : { timeout: s.timeout };
        const read = await underFault(s.fault, '/incident/list', () => client.listIncidents(window, perCall));
        expect(read.attempts, `read under ${s.name} (${String(read.error)} after ${read.ms} ms)`).toBe(s.readAttempts);
        expect(read.error).toBeInstanceOf(s.error);

        const agent = `agent_${nextAgent++}`;
        const auditBefore = h.service.auditLog.filter((e) => e.target === agent).length;
        const write = await underFault(s.fault, '/safari/a2a-agent/enable', () =>
          client.enableA2AAgent(agent, perCall),
        );
        expect(write.attempts, `mutation under ${s.name}`).toBe(s.mutationAttempts);
        expect(write.error).toBeInstanceOf(s.error);
        const effects = h.service.auditLog.filter((e) => e.target === agent).length - auditBefore;
        expect(effects).toBe(s.mutationTookEffect ? 1 : 0); // never twice
        expect(h.service.agentEnabled(agent)).toBe(s.mutationTookEffect);
        for (const error of [read.error, write.error] as FlashdutyError[]) {
          const requestId = (error as { requestId?: string }).requestId;
          if (s.hasRequestId) expect(requestId).toMatch(/^[0-9a-f]{32}$/);
          lines.push(String(error), error.stack ?? '', inspect(error, { depth: 8 }), JSON.stringify(error));
        }
        if (round === 0)
          summary.push(
            `${s.name}: read ${read.attempts} attempts, mutation ${write.attempts} (took effect ${effects}×) → ${(read.error as Error).name}`,
          );
      }
    });
  }

  it('never printed the app key, in logs or errors', () => {
    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThan(50);
    expect(text).toContain('app_key=***');
    expect(text).not.toContain(h.service.appKey);
    for (const line of summary) figure('fault', line);
  });
});
