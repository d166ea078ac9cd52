// "Did you mean" (src/internal/closest.ts): the nearest known word by edit distance, a swapped pair
// of letters one typo, a singular for its plural none, case aside; none when nothing is near enough.
import { describe, expect, it } from 'vitest';
import { closest, oneOf } from '../../../src/internal/closest.js';

const severities = ['Critical', 'Warning', 'Info'];

describe('closest', () => {
  it('finds a word one or two typos away, a swap and case included', () => {
    expect([closest('Critcal', severities), closest('Wanring', severities), closest('info', severities)]).toEqual([
      'Critical',
      'Warning',
      'Info',
    ]);
  });

  it('finds a plural for its singular, and a singular for its plural', () => {
    expect(closest('maxRetry', ['timeout', 'maxRetries', 'headers'])).toBe('maxRetries');
    expect(closest('header', ['timeout', 'maxRetries', 'headers'])).toBe('headers');
    expect(closest('person_id', ['person_ids', 'emails'])).toBe('person_ids');
    expect(closest('incident_idss', ['incident_ids', 'incident_id'])).toBe('incident_ids');
  });

  it('finds nothing for a word far from every candidate', () => {
    expect(closest('Disaster', severities)).toBeUndefined();
  });
});

describe('oneOf', () => {
  it('lists the allowed values, with a suggestion where one is near', () => {
    expect(oneOf('Critcal', severities)).toBe(
      'expected one of "Critical", "Warning", "Info", got "Critcal" (did you mean "Critical"?)',
    );
    expect(oneOf(5, [1, 2])).toBe('expected one of 1, 2, got 5');
  });
});
