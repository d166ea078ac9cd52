// `flashduty mock`: what it refuses before it listens (a port, seed or count of incidents outside its
// range, or not a whole number).
// Serving, printing its URL and stopping on a signal need a real port and process:
// test/integration/cli (the bin in a child process).
import { describe, expect, it } from 'vitest';
import { MOCK_COMMAND } from '../../../../src/cli/commands/mock.js';
import { UsageError } from '../../../../src/cli/exit.js';
import { contextOf } from '../support.js';

describe('flashduty mock', () => {
  it('refuses a port, seed or count of incidents outside its range, and numbers that are not whole, before listening', async () => {
    for (const [args, message] of [
      [['--port', '70000'], '--port: expected a whole number from 0 to 65535, got "70000"'],
      [['--port=-1'], '--port: expected a whole number from 0 to 65535, got "-1"'],
      [['--port', '-1'], '--port: expected a whole number from 0 to 65535, got "-1"'],
      [['--seed', 'x'], '--seed: expected a whole number from 0 to 2147483647, got "x"'],
      [['--incidents', '1.5'], '--incidents: expected a whole number from 0 to 10000, got "1.5"'],
      [['--incidents', '1000000'], '--incidents: expected a whole number from 0 to 10000, got "1000000"'],
    ] as const) {
      const error = await (async () => MOCK_COMMAND.run(contextOf(MOCK_COMMAND, [...args])))().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe(message);
    }
  });
});
