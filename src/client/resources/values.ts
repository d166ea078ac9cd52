// Small helpers for the params' conversion (params.ts): a fresh wire body of the defined fields,
// and a value quoted briefly for a message (never a whole object).

/** The params' defined keys, as a fresh wire body: unknown keys go through for fields this SDK does not know yet. */
export function definedFields(params: object): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const key in params) {
    const value = (params as Record<string, unknown>)[key];
    if (Object.hasOwn(params, key) && value !== undefined) wire[key] = value;
  }
  return wire;
}

/** A value as a message quotes it: strings cut at 40 characters, objects and arrays by their kind. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}
