// msw is an optional peer: loaded here, once, so that importing the testing entry works without it
// (listen() needs no msw). The CJS build swaps this file for msw-loader.cjs.ts (see tsup.config.ts).

type Msw = typeof import('msw');

const loaded: Msw | undefined = await import('msw').catch(() => undefined);

export function loadMsw(): Msw | undefined {
  return loaded;
}
