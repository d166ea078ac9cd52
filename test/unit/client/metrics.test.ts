// The client's metric (src/client/metrics.ts), with a meter provider of its own registered where
// `@opentelemetry/api` 1.x keeps it: one measurement per attempt, with the method, the status or
// the error's class, the host and the operation's path (never its query); nothing without a provider.
import { afterEach, describe, expect, it } from 'vitest';
import { attemptTimer } from '../../../src/client/metrics.js';

const REGISTRY = Symbol.for('opentelemetry.js.api.1');
const registry = globalThis as { [REGISTRY]?: unknown };

afterEach(() => {
  delete registry[REGISTRY];
});

/** A meter provider that keeps what was recorded. */
function register(): Array<[string, number, Record<string, unknown>]> {
  const recorded: Array<[string, number, Record<string, unknown>]> = [];
  const meter = {
    createCounter: () => ({ add: () => {} }),
    createHistogram: (name: string) => ({
      record: (value: number, attributes: Record<string, unknown>) => recorded.push([name, value, attributes]),
    }),
  };
  registry[REGISTRY] = { metrics: { getMeter: () => meter } };
  return recorded;
}

describe('attemptTimer', () => {
  it('is nothing without a meter provider', () => {
    expect(attemptTimer('POST', 'incident/list', 'https://api.test')).toBeUndefined();
  });

  it('records each attempt’s duration in seconds, with its answer or its failure', () => {
    const recorded = register();
    attemptTimer('POST', 'incident/list', 'https://api.test:8443/base')?.(200);
    attemptTimer('GET', 'x', 'https://api.test')?.(undefined, { name: 'APIConnectionTimeoutError' });
    expect(recorded.map(([name, , attributes]) => [name, attributes])).toEqual([
      [
        'http.client.request.duration',
        {
          'http.request.method': 'POST',
          'http.response.status_code': 200,
          'server.address': 'api.test',
          'flashduty.operation': '/incident/list',
          'error.type': undefined,
        },
      ],
      [
        'http.client.request.duration',
        {
          'http.request.method': 'GET',
          'http.response.status_code': undefined,
          'server.address': 'api.test',
          'flashduty.operation': '/x',
          'error.type': 'APIConnectionTimeoutError',
        },
      ],
    ]);
    expect(recorded[0]?.[1]).toBeGreaterThanOrEqual(0);
  });
});
