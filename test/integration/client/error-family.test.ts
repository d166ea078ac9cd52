// One error family: every refused option is a ConfigError (a FlashdutyError), and errors of one copy
// of the SDK are recognised by another (the CJS and the ESM build loaded in one process).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { APIError, ConfigError, Flashduty, FlashdutyError, isFlashdutyError } from '../../../src/index.js';
import { MemoryStateStore, RedisStateStore, WebhookReceiver } from '../../../src/webhooks/index.js';
import { DAY, NOW, rejection } from '../../helpers.js';

const root = path.resolve(import.meta.dirname, '../../..');

describe('every option error is a ConfigError', () => {
  const key = { appKey: 'k-1234', logLevel: 'off' as const };
  const constructions: Array<[string, () => unknown]> = [
    ['appKey missing', () => new Flashduty({ appKey: ' ' })],
    ['appKey unencodable', () => new Flashduty({ appKey: 'k\udc00' })],
    ['baseUrl', () => new Flashduty({ ...key, baseUrl: 'nope' })],
    ['timeout', () => new Flashduty({ ...key, timeout: -1 })],
    ['maxRetries', () => new Flashduty({ ...key, maxRetries: 0.5 })],
    ['validate', () => new Flashduty({ ...key, validate: 'all' as never })],
    ['logLevel', () => new Flashduty({ ...key, logLevel: 'loud' as never })],
    ['rateLimit.perSecond', () => new Flashduty({ ...key, rateLimit: { perSecond: 0 } })],
    ['rateLimit.perMinute', () => new Flashduty({ ...key, rateLimit: { perMinute: 1.5 } })],
    ['rateLimit.redis', () => new Flashduty({ ...key, rateLimit: { redis: {} as never } })],
    [
      'rateLimit.keyPrefix',
      () => new Flashduty({ ...key, rateLimit: { redis: { call: async () => 0 }, keyPrefix: '' } }),
    ],
    ['receiver ackTimeoutMs', () => new WebhookReceiver({ ackTimeoutMs: 0 })],
    ['receiver secret', () => new WebhookReceiver({ secret: { header: '', values: ['x'] } })],
    ['receiver queue', () => new WebhookReceiver({ queue: {} as never })],
    ['MemoryStateStore maxEntries', () => new MemoryStateStore({ maxEntries: 1 })],
    ['RedisStateStore client', () => new RedisStateStore({ client: {} as never })],
  ];
  it.each(constructions)('%s', (_name, construct) => {
    let thrown: unknown;
    try {
      construct();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(thrown).toBeInstanceOf(FlashdutyError);
    expect(isFlashdutyError(thrown)).toBe(true);
    expect((thrown as Error).name).toBe('ConfigError');
  });

  it('per-call options too (the promise rejects, nothing is sent)', async () => {
    const client = new Flashduty({ ...key, baseUrl: 'http://127.0.0.1:9' });
    const window = { start_time: NOW - DAY, end_time: NOW };
    expect(await rejection(client.listIncidents(window, { timeout: 0 }))).toBeInstanceOf(ConfigError);
    expect(await rejection(client.deleteSkill('s', { maxRetries: -1 }))).toBeInstanceOf(ConfigError);
  });
});

describe('the brand', () => {
  it('recognises errors, and nothing else', () => {
    expect(isFlashdutyError(new APIError('x', { status: 500 }))).toBe(true);
    for (const other of [new Error('x'), { name: 'FlashdutyError' }, null, undefined, 'FlashdutyError']) {
      expect(isFlashdutyError(other)).toBe(false);
      expect(other instanceof FlashdutyError).toBe(false);
    }
    // Subclasses keep the prototype check: a ConfigError is no APIError.
    expect(new ConfigError('x') instanceof APIError).toBe(false);
  });

  it('holds across the CJS and the ESM build in one process', async () => {
    expect(existsSync(path.join(root, 'dist/index.cjs')), 'run `npm run build` first').toBe(true);
    const script = `
      const cjs = require('./dist/index.cjs');
      import('./dist/index.js').then((esm) => {
        if (cjs.FlashdutyError === esm.FlashdutyError) throw new Error('expected two copies');
        const fromEsm = new esm.APIError('esm', { status: 500 });
        const fromCjs = new cjs.ConfigError('cjs');
        console.log(JSON.stringify({
          cjsGuardOnEsm: cjs.isFlashdutyError(fromEsm),
          esmGuardOnCjs: esm.isFlashdutyError(fromCjs),
          cjsInstanceofOnEsm: fromEsm instanceof cjs.FlashdutyError,
          esmInstanceofOnCjs: fromCjs instanceof esm.FlashdutyError,
          plainError: cjs.isFlashdutyError(new Error('x')),
          subclassAcross: fromEsm instanceof cjs.APIError,
        }));
      });`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: root, timeout: 20_000 });
    expect(JSON.parse(stdout)).toEqual({
      cjsGuardOnEsm: true,
      esmGuardOnCjs: true,
      cjsInstanceofOnEsm: true,
      esmInstanceofOnCjs: true,
      plainError: false,
      subclassAcross: false,
    });
  });
});
