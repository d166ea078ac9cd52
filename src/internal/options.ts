// Checks of options (the client's, a call's, the receiver's and its stores', the mock's), with one
// wording. Every refused option is a ConfigError, so that one `catch` covers all that the SDK throws.

import { closest } from './closest.js';
import { ConfigError } from './flashduty-error.js';

/** `value` if it is a whole number ≥ 1; a ConfigError naming the option otherwise. */
export function positiveWhole(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError(`${name}: expected a whole number ≥ 1, got ${value}`);
  return value;
}

/**
 * `true` when `Names` lists every key of `T`, else the keys it misses: a constant of this type set
 * to `true` fails to compile, naming them, when an option is added and not listed.
 */
export type ListsEvery<T, Names extends readonly PropertyKey[]> = [Exclude<keyof T, Names[number]>] extends [never]
  ? true
  : Exclude<keyof T, Names[number]>;

/** Refuses a key of `options` that is not among `names`, with the one it was likely meant as. */
export function checkOptionKeys(options: object, names: readonly string[], of: string): void {
  for (const name of Object.keys(options)) {
    if (names.includes(name)) continue;
    const near = closest(name, names);
    throw new ConfigError(`${name}: not an option of ${of}${near ? ` (did you mean ${near}?)` : ''}`);
  }
}
