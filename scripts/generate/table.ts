// How the generated files write a table (an object literal keyed by operation path or by schema
// name): one entry per line, its value as compact JSON, so that a diff of a regenerated file shows
// which operations changed, line by line.

/** `{`, then `  "key": value,` for each entry, then `}`. */
export function table(entries: Record<string, unknown> | ReadonlyArray<readonly [string, unknown]>): string {
  const rows = Array.isArray(entries) ? entries : Object.entries(entries);
  return `{\n${rows.map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},`).join('\n')}\n}`;
}
