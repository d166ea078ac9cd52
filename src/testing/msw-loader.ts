// msw is an optional peer: loaded here, once, so that importing the testing entry works without it
// (listen() needs no msw). The CJS build swaps this file for msw-loader.cjs.ts (see tsup.config.ts).
//
// Deno: importing msw opens a BroadcastChannel that msw can unref only on Node, so an up-front
// import would keep every Deno process that imports the testing entry alive after its work is done
// (listen(), the fixtures). There msw loads on first use of `handlers` instead, synchronously
// through Deno's require().

type Msw = typeof import('msw');
type RequireLike = (id: string) => unknown;
interface ProcessLike {
  getBuiltinModule?(id: 'node:module'): { createRequire(from: string): RequireLike } | undefined;
}

const onDeno = 'Deno' in globalThis;
let loaded: Msw | undefined = onDeno ? undefined : await import('msw').catch(() => undefined);

function requireMsw(): Msw | undefined {
  try {
    const { process } = globalThis as { process?: ProcessLike };
    return process?.getBuiltinModule?.('node:module')?.createRequire(import.meta.url)('msw') as Msw | undefined;
  } catch {
    return undefined;
  }
}

export function loadMsw(): Msw | undefined {
  if (onDeno) loaded ??= requireMsw();
  return loaded;
}
