// The host environment (src/internal/env.ts): a variable trimmed, none when unset, empty or not
// readable (a runtime that refuses the read); a browser page told from Node and workers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isBrowser, readEnv } from '../../../src/internal/env.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('readEnv', () => {
  it('reads a variable trimmed, and none for an empty one', () => {
    vi.stubEnv('FLASHDUTY_TEST_VAR', '  value ');
    expect(readEnv('FLASHDUTY_TEST_VAR')).toBe('value');
    vi.stubEnv('FLASHDUTY_TEST_VAR', '   ');
    expect(readEnv('FLASHDUTY_TEST_VAR')).toBeUndefined();
  });

  it('takes a refused read for an unset variable', () => {
    const env = new Proxy(
      {},
      {
        get: () => {
          throw new Error('NotCapable');
        },
      },
    );
    vi.stubGlobal('process', { env });
    expect(readEnv('FLASHDUTY_APP_KEY')).toBeUndefined();
  });
});

describe('isBrowser', () => {
  it('is true only with a window, a document and a navigator', () => {
    expect(isBrowser()).toBe(false);
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    vi.stubGlobal('navigator', {});
    expect(isBrowser()).toBe(true);
  });
});
