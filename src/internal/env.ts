// Reads of the host environment, guarded so the SDK loads in browsers and workers too.

export function readEnv(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const value = proc?.env?.[name]?.trim();
  return value ? value : undefined;
}

/** A page's JavaScript (not Node, Deno, Bun or a worker), where a secret would be visible to users. */
export function isBrowser(): boolean {
  const g = globalThis as { window?: { document?: unknown }; document?: unknown; navigator?: unknown };
  return typeof g.window === 'object' && typeof g.document === 'object' && typeof g.navigator === 'object';
}
