// CJS twin of msw-loader.ts: a synchronous require on first use.

type Msw = typeof import('msw');

let loaded: Msw | undefined;

export function loadMsw(): Msw | undefined {
  try {
    loaded ??= require('msw') as Msw;
  } catch {
    return undefined;
  }
  return loaded;
}
