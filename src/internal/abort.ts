// One attempt's deadline and the caller's abort. The request is sent with ky's own `timeout` (what is
// left of the attempt's time) and the caller's signal as given: the SDK adds no AbortSignal of its
// own, so an attempt builds no AbortSignal.any link (each is a measurable share of a call's cost).
// What ky's timeout does not cover, reading the body, is guarded here: when the
// time runs out or the caller aborts, the read is cancelled (which closes the connection) and
// rejects at once.

export interface Attempt {
  /** Milliseconds left before the attempt's deadline (at least 1). */
  remaining(): number;
  /** Whether a guarded step ran out of time. */
  timedOut(): boolean;
  /**
   * Settles with `promise`, or rejects as soon as the caller aborts or, with `timed`, the deadline
   * passes; `cancel` then stops the work behind the promise. The caller's abort is watched here too,
   * not only through fetch: ky links a caller's signal through AbortSignal.any, whose links Node 20
   * can lose to garbage collection, and the request would then simply go on.
   */
  guard<T>(promise: Promise<T>, stop?: { timed?: boolean; cancel?: () => void }): Promise<T>;
}

export function startAttempt(timeoutMs: number, signal?: AbortSignal): Attempt {
  const deadline = performance.now() + timeoutMs;
  let timedOut = false;
  const remaining = () => Math.max(1, Math.ceil(deadline - performance.now()));
  return {
    remaining,
    timedOut: () => timedOut,
    guard<T>(promise: Promise<T>, { timed = false, cancel }: { timed?: boolean; cancel?: () => void } = {}) {
      if (!signal && !timed) return promise;
      return new Promise<T>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const settle = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        const stop = (error: Error) => {
          settle();
          cancel?.();
          promise.catch(() => {}); // the attempt is over: its late outcome goes nowhere
          reject(error);
        };
        const onAbort = () => stop(asError(signal?.reason));
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        if (timed) {
          timer = setTimeout(() => {
            timedOut = true;
            stop(new Error('timeout'));
          }, remaining());
        }
        promise.finally(settle).then(resolve, reject);
      });
    },
  };
}

/** A caller may abort with any reason (a string, say); the rejection is always an Error that keeps it. */
function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error('aborted', { cause: reason });
}

/** Resolves after `ms`, or rejects with `onAbort()` as soon as the signal fires. */
export function sleep(ms: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(onAbort());
    const abort = () => {
      clearTimeout(timer);
      reject(onAbort());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}
