// Logging goes through one place so that every line is scrubbed of the app_key before it leaves.

import type { Redactor } from './redact.js';

/** The least severe level that is logged; `off` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** Anything with console's four methods; `console` itself is the default. */
export interface Logger {
  /** Per-attempt details: URL (key redacted), status, timing. */
  debug(message: string, ...rest: unknown[]): void;
  /** Informational messages. */
  info(message: string, ...rest: unknown[]): void;
  /** Retries, and iteration stopped by a server that repeats a cursor. */
  warn(message: string, ...rest: unknown[]): void;
  /** Errors. */
  error(message: string, ...rest: unknown[]): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

export type LogFn = (level: Exclude<LogLevel, 'off'>, message: string) => void;

/**
 * The SDK only ever logs strings it built, and scrubs each one. Without a logger, lines go to
 * stderr (`console.error`, `console.warn` for warnings): never into what a program prints on stdout.
 * A logger that throws (a transport down) loses its line and nothing else: a call logs mid-flight,
 * and a throw there would turn a success into a failure, or a sent mutation into one sent again.
 */
export function createLog(logger: Logger | undefined, level: LogLevel, scrub: Redactor): LogFn {
  const threshold = RANK[level];
  return (at, message) => {
    if (RANK[at] < threshold) return;
    const line = `[flashduty] ${scrub(message)}`;
    try {
      if (logger) logger[at](line);
      else if (at === 'warn') console.warn(line);
      else console.error(line);
    } catch {
      // Nowhere to tell that the logger failed; the call goes on.
    }
  };
}
