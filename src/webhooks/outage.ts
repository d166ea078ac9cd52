// Failures of what the receiver records deliveries in (the state store, the queue), told to 'error'
// once per REPORT_MS while they keep coming: an outage of Redis fails every delivery and every job
// alike, and one report per interval, saying how many it stands for, tells it as well as thousands.

import { FlashdutyError } from '../internal/flashduty-error.js';

/** Failures of one kind are told at most once in this long. */
const REPORT_MS = 10_000;

/** The state store or the queue kept failing: its latest failure (the cause), and how many were not told. */
export class OutageError extends FlashdutyError {
  constructor(
    what: string,
    cause: unknown,
    /** Failures of the same kind not told to 'error' since the last one told. */
    readonly hidden: number,
    sinceMs: number,
  ) {
    super(
      `${what} failed ${hidden + 1} times in ${Math.round(sinceMs / 1000)} s (told once per ${REPORT_MS / 1000} s): ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
  }
}
OutageError.prototype.name = 'OutageError';

/** Tells the failures of one thing (`what`) through `tell`, at most once per REPORT_MS. */
export class OutageReport {
  #toldAt = -Infinity;
  #hidden = 0;

  constructor(
    readonly what: string,
    readonly tell: (error: unknown, subject?: unknown) => void,
  ) {}

  /** A failure: told now, or counted into the next one told. */
  failed(error: unknown, subject?: unknown): void {
    const now = Date.now();
    if (now - this.#toldAt < REPORT_MS) {
      this.#hidden++;
      return;
    }
    const hidden = this.#hidden;
    const since = now - this.#toldAt;
    this.#toldAt = now;
    this.#hidden = 0;
    this.tell(hidden === 0 ? error : new OutageError(this.what, error, hidden, since), subject);
  }
}
