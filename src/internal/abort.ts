// One signal per attempt that fires on the caller's abort or the attempt's timeout, telling the two
// apart afterwards. Linked by hand because AbortSignal.any is missing from older browsers.

export interface AttemptSignal {
  signal: AbortSignal;
  timedOut(): boolean;
  /**
   * Settles with the promise, or rejects as soon as the attempt is aborted. Passing the signal to
   * fetch is not enough on its own: ky links it through AbortSignal.any, whose links Node 20 can
   * lose to garbage collection, and then a timed-out request would simply go on.
   */
  guard<T>(promise: Promise<T>): Promise<T>;
  dispose(): void;
}

export function attemptSignal(timeoutMs: number, userSignal?: AbortSignal): AttemptSignal {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, timeoutMs);
  const onAbort = () => controller.abort(userSignal?.reason);
  if (userSignal?.aborted) onAbort();
  else userSignal?.addEventListener('abort', onAbort, { once: true });
  const aborted = new Promise<never>((_, reject) => {
    // A caller may abort with any reason (a string, say); the rejection is always an Error that keeps it.
    const fail = () => {
      const reason: unknown = controller.signal.reason;
      reject(reason instanceof Error ? reason : new Error('aborted', { cause: reason }));
    };
    if (controller.signal.aborted) fail();
    else controller.signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => {}); // only a guarded promise reports it
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    guard: (promise) => Promise.race([promise, aborted]),
    dispose() {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onAbort);
    },
  };
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
