// The mock's clock: real time by default; tests can pin it and move it forward by hand.

import { ConfigError } from '../internal/flashduty-error.js';

/** The mock's clock: real time until a test pins or advances it. */
export class MockClock {
  #fixed: number | undefined;

  constructor(start?: Date | number) {
    if (start !== undefined) this.#fixed = toMs(start);
  }

  /** Whether the clock is pinned (by `now`, `set` or `advance`) rather than following real time. */
  get pinned(): boolean {
    return this.#fixed !== undefined;
  }

  /** Unix ms. */
  now(): number {
    return this.#fixed ?? Date.now();
  }

  /** Pins the clock to a moment. */
  set(at: Date | number): void {
    this.#fixed = toMs(at);
  }

  /** Moves the clock forward (pinning it first if it was following real time). */
  advance(ms: number): void {
    this.#fixed = this.now() + ms;
  }

  /** Follows real time again. */
  useRealTime(): void {
    this.#fixed = undefined;
  }
}

function toMs(at: Date | number): number {
  const ms = at instanceof Date ? at.getTime() : at;
  if (!Number.isFinite(ms)) throw new ConfigError(`clock: not a valid time: ${String(at)}`);
  return ms;
}
