// One signal per attempt that fires on the caller's abort or the attempt's timeout, telling the two
// apart afterwards. Linked by hand because AbortSignal.any is missing from older browsers.

export interface AttemptSignal {
  signal: AbortSignal;
  timedOut(): boolean;
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
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onAbort);
    },
  };
}

/** Resolves after `ms`, or rejects with `onAbort()` as soon as the signal fires. */
export function sleep(ms: number, signal: AbortSignal | undefined, onAbort: () => unknown): Promise<void> {
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
