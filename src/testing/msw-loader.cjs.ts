// CJS twin of msw-loader.ts: a synchronous require on first use.

type Msw = typeof import('msw');

let loaded: Msw | undefined;

export function loadMsw(): Msw | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CJS build loads the optional peer synchronously, on first use, and only if it is installed
    loaded ??= require('msw') as Msw;
  } catch {
    return undefined;
  }
  return loaded;
}
