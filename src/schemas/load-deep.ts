// The deep validators, imported once on first use: a bundler splits them (and zod) into their own
// chunk, and caching the promise keeps loader hooks (tsx, vitest) off the per-call path.

type DeepModule = typeof import('./deep.js');

let loading: Promise<DeepModule> | undefined;

export function loadDeep(): Promise<DeepModule> {
  loading ??= import('./deep.js');
  return loading;
}
