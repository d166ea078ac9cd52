// Checks of the numeric options of the webhook receiver and its stores, with one wording. Every
// refused option is a ConfigError, so that one `catch` covers all that the SDK throws.

import { ConfigError } from './flashduty-error.js';

/** `value` if it is a whole number ≥ 1; a ConfigError naming the option otherwise. */
export function positiveWhole(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError(`${name}: expected a whole number ≥ 1, got ${value}`);
  return value;
}
