// Reads of the host environment, guarded so the SDK loads in browsers and workers too.

/** A variable of the environment, trimmed; none where it is unset, empty, or may not be read (Deno without --allow-env). */
export function readEnv(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  let value: string | undefined;
  try {
    value = proc?.env?.[name]?.trim();
  } catch {
    return undefined; // a runtime that refuses the read (Deno's NotCapable): the variable is not there for us
  }
  return value ? value : undefined;
}

/** A page's JavaScript (not Node, Deno, Bun or a worker), where a secret would be visible to users. */
export function isBrowser(): boolean {
  const g = globalThis as { window?: { document?: unknown }; document?: unknown; navigator?: unknown };
  return typeof g.window === 'object' && typeof g.document === 'object' && typeof g.navigator === 'object';
}
