// A claim's settlement (complete or release) that the store refused, tried again until the store
// takes it, as a store restarts: about 30 s in all (the pipeline settles a claim in one call
// otherwise).

/** The waits before each try, in ms: about 30 s in all. */
const DELAYS_MS = [50, 100, 200, 400, 800, 1600, 3200, 6400, 6400, 6400, 6400];

/**
 * Tries `settle` again after each wait until it resolves, telling each failure to `failed`; rejects
 * with the last failure when the waits run out. `background`: timers that keep no process alive
 * (nothing waits on a delivery's settlement once it was answered).
 */
export async function settleAgain(
  settle: () => void | Promise<void>,
  failed: (error: unknown) => void,
  background: boolean,
): Promise<void> {
  for (let i = 0; ; i++) {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, DELAYS_MS[i]);
      if (background) (timer as { unref?: () => void }).unref?.();
    });
    try {
      return await settle();
    } catch (error) {
      failed(error);
      if (i === DELAYS_MS.length - 1) throw error;
    }
  }
}
