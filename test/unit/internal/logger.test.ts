// Logging (src/internal/logger.ts): lines at or above the level, each scrubbed and marked; without a
// logger on stderr (console.warn for warnings, console.error for the rest), never stdout.
import { describe, expect, it, vi } from 'vitest';
import { createLog, isLogLevel } from '../../../src/internal/logger.js';
import { createRedactor } from '../../../src/internal/redact.js';

const scrub = createRedactor('secret-key');

describe('createLog', () => {
  it('logs at and above its level, scrubbed', () => {
    const lines: string[] = [];
    const push = (line: string) => lines.push(line);
    const log = createLog({ debug: push, info: push, warn: push, error: push }, 'warn', scrub);
    log('info', 'hidden');
    log('warn', 'retry with secret-key');
    log('error', 'failed');
    expect(lines).toEqual(['[flashduty] retry with ***', '[flashduty] failed']);
    createLog({ debug: push, info: push, warn: push, error: push }, 'off', scrub)('error', 'never');
    expect(lines).toHaveLength(2);
  });

  it('writes to stderr without a logger', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const log = createLog(undefined, 'debug', scrub);
    log('warn', 'w');
    log('debug', 'd');
    expect(warn).toHaveBeenCalledWith('[flashduty] w');
    expect(error).toHaveBeenCalledWith('[flashduty] d');
  });

  it('knows its levels', () => {
    expect(['debug', 'off', 'loud', 7].map(isLogLevel)).toEqual([true, true, false, false]);
  });
});
