// A command's flags: its own and every command's, strict (an unknown flag is a UsageError naming the
// closest known one), repeatable ones as lists, a missing value refused, a count outside its range
// refused naming the flag and the range, a value starting with a dash read as a value.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/exit.js';
import { type Flag, GLOBAL_FLAGS, parseFlags } from '../../../src/cli/flags.js';

const FLAGS: Record<string, Flag> = {
  to: { type: 'string', value: '<url>', description: 'the receiver' },
  header: { type: 'string', multiple: true, description: 'a header' },
  reorder: { type: 'boolean', description: 'newest first' },
  duplicate: { type: 'string', description: 'times', range: { min: 1, max: 10 }, default: '1' },
};

function refusal(args: string[]): UsageError {
  try {
    parseFlags(args, FLAGS, 'webhooks trigger');
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`${args.join(' ')} was not refused`);
}

describe('parseFlags', () => {
  it('reads the command’s flags, the global ones and the positionals', () => {
    const parsed = parseFlags(
      ['i_new', '--to', 'http://x', '--header', 'A: 1', '--header', 'B: 2', '--reorder', '--json', '--app-key', 'k'],
      FLAGS,
      'webhooks trigger',
    );
    expect(parsed.positionals).toEqual(['i_new']);
    expect(parsed.values).toMatchObject({
      to: 'http://x',
      header: ['A: 1', 'B: 2'],
      reorder: true,
      json: true,
      'app-key': 'k',
    });
  });

  it('takes --flag=value as well as --flag value', () => {
    expect(parseFlags(['--to=http://y'], FLAGS, 'x').values.to).toBe('http://y');
  });

  it('refuses an unknown flag, naming the closest known one and the command', () => {
    const error = refusal(['--too', 'http://x']);
    expect(error.message).toBe('unknown flag --too (did you mean --to?)');
    expect(error.command).toBe('webhooks trigger');
    expect(refusal(['--base-ulr', 'x']).message).toBe('unknown flag --base-ulr (did you mean --base-url?)');
    expect(refusal(['--zzzzzzzz']).message).toBe('unknown flag --zzzzzzzz');
  });

  it('refuses a string flag without its value, in parseArgs’ words without its advice', () => {
    const error = refusal(['--to']);
    expect(error.message).toMatch(/^Option '--to <value>' argument missing$/);
  });

  it('reads a count as its number, and refuses one outside its range naming the flag and the range', () => {
    expect(parseFlags(['--duplicate', '3'], FLAGS, 'x').values.duplicate).toBe(3);
    expect(parseFlags([], FLAGS, 'x').values.duplicate).toBeUndefined();
    for (const text of ['0', '11', '1000000', 'x', '2.5'])
      expect(refusal(['--duplicate', text]).message).toBe(
        `--duplicate: expected a whole number from 1 to 10, got ${JSON.stringify(text)}`,
      );
  });

  it('reads a value that starts with a dash as the value (not parseArgs’ "ambiguous"), unless it is a flag', () => {
    expect(refusal(['--duplicate', '-1']).message).toBe('--duplicate: expected a whole number from 1 to 10, got "-1"');
    expect(parseFlags(['--app-key', '-k3y', '--to', '-'], FLAGS, 'x').values).toMatchObject({
      'app-key': '-k3y',
      to: '-',
    });
    expect(refusal(['--app-key', '--json']).message).toBe('--app-key needs a value');
    expect(parseFlags(['--', '--to', '-x'], FLAGS, 'x').positionals).toEqual(['--to', '-x']);
  });

  it('offers every command the credential, the base URL, --json and --help', () => {
    expect(Object.keys(GLOBAL_FLAGS)).toEqual(['app-key', 'access-token', 'base-url', 'json', 'help']);
    for (const name of ['app-key', 'access-token']) expect(GLOBAL_FLAGS[name]?.description).toContain('never printed');
  });
});
