// The table of commands: the written ones, one per named method of the manifest, a written command
// before a generated one of its words, and finding a command (the longest words that fit, camelCase
// or kebab-case), a group, or the nearest to an unknown one.
import { describe, expect, it } from 'vitest';
import { COMMANDS, findCommand, methodCommands } from '../../../../src/cli/commands/index.js';
import { UsageError } from '../../../../src/cli/exit.js';
import { OPERATIONS } from '../../../../src/operations.js';

const names = (commands: { words: string[] }[]) => commands.map((command) => command.words.join(' '));

describe('the table', () => {
  it('lists the written commands in the order the overview shows them', () => {
    expect(names(COMMANDS)).toEqual([
      'mock',
      'api',
      'incidents list',
      'incidents ack',
      'incidents resolve',
      'incidents reopen',
      'incidents comment',
      'webhooks trigger',
      'webhooks replay',
      'webhooks listen',
      'webhooks lint',
    ]);
  });

  it('has one command per method of the manifest, each of its own words, each with an example and a summary', async () => {
    const generated = await methodCommands();
    expect(generated).toHaveLength(Object.keys(OPERATIONS).length);
    expect(new Set(names(generated)).size).toBe(generated.length);
    expect(new Set(names(COMMANDS)).size).toBe(COMMANDS.length);
    for (const command of [...COMMANDS, ...generated]) {
      expect(command.summary, command.words.join(' ')).not.toBe('');
      expect(
        command.words.every((word) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(word)),
        command.words.join(' '),
      ).toBe(true);
    }
  });
});

describe('findCommand', () => {
  it('finds a written command, before the generated one of the same words', async () => {
    const found = await findCommand(['incidents', 'ack', 'id1']);
    expect(found).toEqual({ command: COMMANDS.find((c) => c.words.join(' ') === 'incidents ack') });
  });

  it('finds a generated command by the longest words that fit, camelCase or kebab-case', async () => {
    for (const words of [
      ['channels', 'escalate-rules', 'list'],
      ['channels', 'escalateRules', 'list', 'more'],
    ]) {
      const found = await findCommand(words);
      expect('command' in found && found.command.words).toEqual(['channels', 'escalate-rules', 'list']);
    }
  });

  it('names a group: every command under the words', async () => {
    const found = await findCommand(['webhooks']);
    expect('group' in found && names(found.group)).toEqual(
      expect.arrayContaining(['webhooks trigger', 'webhooks replay', 'webhooks lint']),
    );
    expect('group' in found && found.words).toEqual(['webhooks']);
  });

  it('refuses unknown words, suggesting the nearest command or, failing that, the nearest first word', async () => {
    const refusal = async (words: string[]) => {
      const error = await findCommand(words).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      return (error as UsageError).message;
    };
    expect(await refusal(['webhoks', 'trigger'])).toBe(
      'unknown command "webhoks trigger" (did you mean "webhooks trigger"?)',
    );
    expect(await refusal(['incidnts', 'frobnicate', 'now'])).toBe(
      'unknown command "incidnts frobnicate now" (did you mean "incidents"?)',
    );
    expect(await refusal(['qqqqqqqq'])).toBe('unknown command "qqqqqqqq"');
  });
});
