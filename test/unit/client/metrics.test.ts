// The client's metric (src/client/metrics.ts), with a meter provider of its own registered where
// `@opentelemetry/api` 1.x keeps it: one measurement per attempt, with the method, the status or
// the error's class, the host and the operation's path template (never the path with its parameters
// filled in, never the query; `_OTHER` for a path no operation matches); nothing without a provider.
// And the lookup of that template (src/client/operation-template.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { attemptTimer } from '../../../src/client/metrics.js';
import { operationTemplate } from '../../../src/client/operation-template.js';
import { OPERATIONS } from '../../../src/operations.js';

const REGISTRY = Symbol.for('opentelemetry.js.api.1');
const registry = globalThis as { [REGISTRY]?: unknown };

afterEach(() => {
  delete registry[REGISTRY];
});

/** A meter provider that keeps what was recorded, and the options its instruments were made with. */
function register() {
  const recorded: Array<[string, number, Record<string, unknown>]> = [];
  const made: Array<[string, Record<string, unknown>]> = [];
  const meter = {
    createCounter: () => ({ add: () => {} }),
    createHistogram: (name: string, options: Record<string, unknown>) => {
      made.push([name, options]);
      return {
        record: (value: number, attributes: Record<string, unknown>) => recorded.push([name, value, attributes]),
      };
    },
  };
  registry[REGISTRY] = { metrics: { getMeter: () => meter } };
  return { recorded, made };
}

describe('operationTemplate', () => {
  it('is the path itself for an operation without parameters', async () => {
    for (const path of Object.keys(OPERATIONS).filter((path) => !path.includes('{')))
      expect(await operationTemplate(path.slice(1))).toBe(path);
  });

  it('is the template of a path sent with its parameters filled in, whatever their values', async () => {
    for (const id of ['trg_1', 'a%2Fb', '%F0%9F%94%A5', 'x'.repeat(10_000)])
      expect(await operationTemplate(`safari/automation/triggers/${id}/fire`)).toBe(
        '/safari/automation/triggers/{trigger_id}/fire',
      );
  });

  it('is undefined for a path no operation matches', async () => {
    for (const path of [
      'no/such/route',
      'safari/automation/triggers//fire',
      'safari/automation/triggers/a/b/fire',
      'safari/automation/triggers/a/fire/x',
      'incident/list/extra',
      'constructor',
      '__proto__',
    ])
      expect(await operationTemplate(path), path).toBeUndefined();
  });

  it('before the manifest has loaded, loads it and answers once it has', async () => {
    // A copy of its own, not loaded yet: the test files of a worker share their modules (vitest.config.ts).
    const unloaded = '../../../src/client/operation-template.js?unloaded';
    const fresh = (await import(
      /* @vite-ignore */ unloaded
    )) as typeof import('../../../src/client/operation-template.js');
    const template = fresh.operationTemplate('safari/automation/triggers/trg_1/fire');
    expect(template).toBeInstanceOf(Promise);
    expect(await template).toBe('/safari/automation/triggers/{trigger_id}/fire');
    expect(fresh.operationTemplate('incident/list')).toBe('/incident/list');
  });

  it('answers at once, without a promise, once the manifest has loaded', async () => {
    await operationTemplate('incident/list');
    expect(operationTemplate('incident/list')).toBe('/incident/list');
  });
});

describe('attemptTimer', () => {
  it('is nothing without a meter provider', () => {
    expect(attemptTimer('POST', 'incident/list', 'https://api.test')).toBeUndefined();
  });

  it('a meter that throws costs the measurement, never the call', async () => {
    await operationTemplate('incident/list');
    const broken = () => {
      throw new Error('meter broke');
    };
    registry[REGISTRY] = { metrics: { getMeter: () => ({ createHistogram: () => ({ record: broken }) }) } };
    expect(() => attemptTimer('POST', 'incident/list', 'https://api.test')?.(200)).not.toThrow();
    registry[REGISTRY] = { metrics: { getMeter: broken } };
    expect(() => attemptTimer('POST', 'incident/list', 'https://api.test')?.(200)).not.toThrow();
  });

  it('makes its histogram with a description, a unit and the conventions’ buckets', () => {
    const { made } = register();
    attemptTimer('POST', 'incident/list', 'https://api.test');
    expect(made).toEqual([
      [
        'http.client.request.duration',
        {
          unit: 's',
          description: 'Duration of HTTP client requests',
          advice: {
            explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10],
          },
        },
      ],
    ]);
  });

  it('records each attempt’s duration in seconds, with its answer or its failure, by path template', async () => {
    await operationTemplate('incident/list');
    const { recorded } = register();
    attemptTimer('POST', 'incident/list', 'https://api.test:8443/base')?.(200);
    attemptTimer('GET', 'x', 'https://api.test')?.(undefined, { name: 'APIConnectionTimeoutError' });
    attemptTimer('POST', 'safari/automation/triggers/trg_42/fire', 'https://api.test')?.(200);
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
          'flashduty.operation': '_OTHER',
          'error.type': 'APIConnectionTimeoutError',
        },
      ],
      [
        'http.client.request.duration',
        {
          'http.request.method': 'POST',
          'http.response.status_code': 200,
          'server.address': 'api.test',
          'flashduty.operation': '/safari/automation/triggers/{trigger_id}/fire',
          'error.type': undefined,
        },
      ],
    ]);
    expect(recorded[0]?.[1]).toBeGreaterThanOrEqual(0);
  });
});
