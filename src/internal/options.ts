// Checks of the numeric options of the webhook receiver and its stores, with one wording.

/** `value` if it is a whole number ≥ 1; a RangeError naming the option otherwise. */
export function positiveWhole(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name}: expected a whole number ≥ 1, got ${value}`);
  return value;
}
