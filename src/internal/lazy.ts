// Values made on first use: `lazy(() => import('./x.js'))` imports once and hands every later call
// the same promise (a bare `import()` per call costs a resolution each time, and far more under
// loader hooks such as tsx and vitest; the literal path stays in the arrow so that bundlers still
// see it and split the module into its own chunk); `lazy(() => fingerprint(wire))` hashes once, and
// only if asked. `loader()` is the same for a load whose result a hot path then uses without a
// promise: the client's request loop.

/**
 * A getter that runs `make` on its first call and returns that same value on every call. A promise
 * that rejects (an import whose chunk could not be loaded for a moment) is not kept: the next call
 * runs `make` again.
 */
export function lazy<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
      if (value instanceof Promise)
        value.catch(() => {
          made = false;
        });
    }
    return value;
  };
}

/** What {@link loader} gives: a call starts the load once (again after a failure); `value` is its result once it came. */
export interface Loader<T> {
  (): Promise<T>;
  value?: T;
}

/** A {@link lazy} load whose result, once there, is at hand without awaiting a promise. */
export function loader<T>(make: () => Promise<T>): Loader<T> {
  const load: Loader<T> = lazy(() => make().then((made) => (load.value = made)));
  return load;
}
