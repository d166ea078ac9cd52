// Modules loaded on first use: `lazy(() => import('./x.js'))` imports once and hands every later
// call the same promise. A bare `import()` per call costs a resolution each time, and far more under
// loader hooks (tsx, vitest); the literal path stays in the arrow so that bundlers still see it and
// split the module into its own chunk.

/** A loader that runs `load` on its first call and returns that same promise on every call. */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}
