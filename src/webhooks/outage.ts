// Failures of what the receiver records deliveries in (the state store, the queue), told to 'error'
// once per REPORT_MS while they keep coming: an outage of Redis fails every delivery and every job
// alike, and one report per interval, saying how many failures it stands for, tells it as well as
// thousands. The first failure is told at once; those that follow within the interval are told
// together when it ends; a failure after a quiet interval is told at once again.

import { FlashdutyError } from '../internal/flashduty-error.js';

/** Failures of one kind are told at most once in this long. */
const REPORT_MS = 10_000;

/** The state store or the queue kept failing: how many times since the last report, the latest as the cause. */
export class OutageError extends FlashdutyError {
  constructor(
    what: string,
    cause: unknown,
    /** Failures of the same kind since the last one told. */
    readonly failures: number,
  ) {
    super(
      `${what} failed ${failures} more times in the last ${REPORT_MS / 1000} s (told once per ${REPORT_MS / 1000} s); the latest: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
  }
}
OutageError.prototype.name = 'OutageError';

/** Tells the failures of one thing (`what`) through `tell`, at most once per REPORT_MS. */
export class OutageReport {
  /** The interval after a failure was told, while it runs; `undefined` when none does. */
  #interval: ReturnType<typeof setTimeout> | undefined;
  /** Failures within the interval, not told yet, and the latest of them. */
  #untold = 0;
  #latest: { error: unknown; subject: unknown } | undefined;

  constructor(
    readonly what: string,
    readonly tell: (error: unknown, subject?: unknown) => void,
  ) {}

  /** A failure: told now, or with the others of its interval when it ends. */
  failed(error: unknown, subject?: unknown): void {
    if (this.#interval !== undefined) {
      this.#untold++;
      this.#latest = { error, subject };
      return;
    }
    this.tell(error, subject);
    this.#startInterval();
  }

  /** Waits REPORT_MS; tells what failed meanwhile, and waits again if anything did. */
  #startInterval(): void {
    const timer = setTimeout(() => {
      this.#interval = undefined;
      const latest = this.#latest;
      if (this.#untold === 0 || latest === undefined) return;
      this.tell(new OutageError(this.what, latest.error, this.#untold), latest.subject);
      this.#untold = 0;
      this.#latest = undefined;
      this.#startInterval();
    }, REPORT_MS);
    // Nothing waits on a report: it keeps no process alive.
    (timer as { unref?: () => void }).unref?.();
    this.#interval = timer;
  }
}
