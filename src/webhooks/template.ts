// Custom bodies: the spec's template and value-mapping rules, exactly. The receiver exports this so
// integrations can be previewed, and the mock service's sender renders deliveries with it.
//
//   1. `{{a.b.0.c}}`: levels split by `.`, array elements by numeric index.
//   2. A string that is one variable only keeps the value's type (object, array, number, …).
//   3. A variable mixed with text is converted to a string (objects and arrays as compact JSON).
//   4. A path that does not exist stays as written, braces included.
// Value mapping replaces a resolved value that matches a source value of its path's table.

import { FlashdutyError } from '../internal/flashduty-error.js';

/** `{ [path]: { [sourceValue]: targetValue } }`, e.g. `{ 'incident.incident_severity': { Critical: 'P1' } }`. */
export type ValueMapping = Record<string, Record<string, unknown>>;

/** A template that is not valid JSON text. */
export class TemplateSyntaxError extends FlashdutyError {}
TemplateSyntaxError.prototype.name = 'TemplateSyntaxError';

/** @internal A variable anywhere in a string; group 1 is its path. */
export const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;
/** @internal A string that is one variable only. */
export const WHOLE_VARIABLE = /^\{\{\s*([^{}]*?)\s*\}\}$/;
const MISSING = Symbol('missing');

/**
 * Renders a custom-body template against a delivery payload.
 * @param template a JSON value, or JSON text (parsed first; invalid text throws TemplateSyntaxError)
 * @param payload the default payload (a webhook event)
 * @param valueMapping optional per-path replacement tables
 * @returns the rendered JSON value
 */
export function renderCustomBody(template: unknown, payload: unknown, valueMapping: ValueMapping = {}): unknown {
  const resolve = (path: string): unknown => mapValue(valueMapping, path, lookup(payload, path));
  return render(parseTemplate(template), resolve);
}

/** @internal A template as a JSON value: JSON text is parsed (invalid text throws TemplateSyntaxError). */
export function parseTemplate(template: unknown): unknown {
  if (typeof template !== 'string') return template;
  try {
    return JSON.parse(template);
  } catch (error) {
    throw new TemplateSyntaxError(`The custom body template is not valid JSON: ${(error as Error).message}`);
  }
}

function render(node: unknown, resolve: (path: string) => unknown): unknown {
  if (typeof node === 'string') return renderString(node, resolve);
  if (Array.isArray(node)) return node.map((item) => render(item, resolve));
  if (typeof node === 'object' && node !== null) {
    // fromEntries defines own properties, so a key named `__proto__` stays a key (an assignment
    // would set the prototype instead).
    return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, render(item, resolve)]));
  }
  return node;
}

function renderString(text: string, resolve: (path: string) => unknown): unknown {
  if (!text.includes('{{')) return text;
  const whole = WHOLE_VARIABLE.exec(text);
  if (whole) {
    const value = resolve(whole[1] as string);
    return value === MISSING ? text : value;
  }
  return text.replace(VARIABLE, (written, path: string) => {
    const value = resolve(path);
    return value === MISSING ? written : stringify(value);
  });
}

/** The value at `a.b.0.c`, or MISSING. Only own properties count, so `constructor` is never a path. */
function lookup(root: unknown, path: string): unknown {
  if (path === '') return MISSING;
  let current = root;
  for (const segment of path.split('.')) {
    if (segment === '') return MISSING;
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(segment)) return MISSING;
      const index = Number(segment);
      if (index >= current.length) return MISSING;
      current = current[index];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return MISSING;
    }
    if (current === undefined) return MISSING;
  }
  return current;
}

function mapValue(mapping: ValueMapping, path: string, value: unknown): unknown {
  if (value === MISSING) return value;
  const table = Object.hasOwn(mapping, path) ? mapping[path] : undefined;
  if (!table || (typeof value === 'object' && value !== null)) return value;
  const key = String(value);
  return Object.hasOwn(table, key) ? table[key] : value;
}

/** @internal In text: strings as they are, numbers and booleans as written, null as `null`, the rest as JSON. */
export function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null) return 'null';
  // None of these is in a parsed event; written as JavaScript would (JSON has no text for them).
  if (value === undefined || typeof value === 'symbol' || typeof value === 'function') return String(value);
  return JSON.stringify(value);
}
