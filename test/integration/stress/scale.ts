// `npm test` runs the stress suites reduced; `npm run stress` (FLASHDUTY_STRESS=full) runs them in full.
export const FULL = process.env.FLASHDUTY_STRESS === 'full';
export const scale = (reduced: number, full: number): number => (FULL ? full : reduced);

/** Prints a figure of the run, marked so it is easy to find in the output. */
export function figure(label: string, value: string | number): void {
  console.log(`[stress] ${label}: ${value}`);
}
