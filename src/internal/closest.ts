// The known word nearest to a misspelt one ("did you mean"), by edit distance, a swapped pair of
// letters counting as one typo, and a singular for its plural (`maxRetry` for `maxRetries`) as none.
// Shared by the command line (commands, flags), the checks of options and of request fields and
// values, so that all suggest alike.

/** The candidate nearest to `word` by edit distance, if it is near enough to be a typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let distance = Math.max(2, Math.floor(word.length / 3)) + 1;
  const [lower, singular] = [word.toLowerCase(), singularOf(word)];
  for (const candidate of candidates) {
    const d = Math.min(editDistance(lower, candidate.toLowerCase()), editDistance(singular, singularOf(candidate)));
    if (d < distance) [best, distance] = [candidate, d];
  }
  return best;
}

/** A word in lower case with an English plural's ending made singular: `retries` → `retry`, `headers` → `header`. */
function singularOf(word: string): string {
  return word.toLowerCase().replace(/ies$/, 'y').replace(/s$/, '');
}

/** Edits (insert, delete, change, swap two neighbours) from `a` to `b`: a swapped pair is one typo. */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, (before[j - 2] as number) + 1);
      }
    }
    before = previous;
    previous = row;
  }
  return previous[b.length] as number;
}

/** "one of A, B, C" with " (did you mean B?)" when `value` is near one of them. */
export function oneOf(value: unknown, allowed: readonly unknown[]): string {
  const near =
    typeof value === 'string'
      ? closest(
          value,
          allowed.filter((v): v is string => typeof v === 'string'),
        )
      : undefined;
  const list = allowed.map((v) => JSON.stringify(v)).join(', ');
  return `expected one of ${list}, got ${JSON.stringify(value)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}`;
}
