// The help text: the overview (the written commands, the resources of the generated ones, every
// command's flags, the exit codes), one command's help (usage, flags, details, an example) and a
// group's listing.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../../src/cli/command.js';
import { COMMANDS } from '../../../src/cli/commands/index.js';
import { commandHelp, groupHelp, overview } from '../../../src/cli/help.js';

const COMMAND: Command = {
  words: ['webhooks', 'lint'],
  summary: 'check a template',
  args: '<template-file>',
  flags: {
    strict: { type: 'boolean', description: 'warnings too' },
    to: { type: 'string', value: '<url>', description: 'x' },
  },
  example: 'flashduty webhooks lint t.json',
  run: async () => 0,
};

describe('overview', () => {
  it('lists the written commands, the resources of the generated ones, the flags and the exit codes', async () => {
    const text = await overview(COMMANDS);
    expect(text).toMatch(/^flashduty: the Flashduty Open API from a shell/);
    for (const command of COMMANDS) expect(text).toContain(`  ${command.words.join(' ')}`);
    expect(text).toMatch(/under:\n {2}[a-z0-9-]+(, [a-z0-9-]+)+\n/);
    expect(text).toContain('incidents, ');
    expect(text).toContain('--app-key <key>');
    expect(text).toContain('Exit codes: 0 done, 1 the API or a delivery failed, 2 a usage error (nothing sent).');
  });
});

describe('commandHelp', () => {
  it('gives the usage, the command’s flags in columns, every command’s flags and the example', async () => {
    const text = await commandHelp(COMMAND);
    expect(
      text.startsWith(
        [
          'check a template',
          '',
          'Usage: flashduty webhooks lint <template-file> [flags]',
          '',
          'Flags:',
          '  --strict    warnings too',
          '  --to <url>  x',
          '',
          'Flags of every command:',
          '  --app-key <key>',
        ].join('\n'),
      ),
    ).toBe(true);
    expect(text.endsWith('\nExample:\n  flashduty webhooks lint t.json\n')).toBe(true);
  });

  it('loads a generated command’s details and example only when asked', async () => {
    let asked = 0;
    const text = await commandHelp({
      ...COMMAND,
      flags: {},
      details: async () => `Body fields (--data):\n  a  string${++asked}\n`,
      example: async () => `flashduty x ${++asked}`,
    });
    expect(asked).toBe(2);
    expect(text).not.toContain('\nFlags:\n');
    expect(text).toContain('\nBody fields (--data):\n  a  string1\n');
    expect(text).toContain('\nExample:\n  flashduty x 2\n');
  });
});

describe('groupHelp', () => {
  it('lists the commands under the words, with their summaries in a column', () => {
    const under = COMMANDS.filter((command) => command.words[0] === 'webhooks');
    expect(groupHelp(['webhooks'], under)).toBe(
      [
        'Commands under flashduty webhooks:',
        ...under.map((c) => `  ${c.words.join(' ').padEnd(16)}  ${c.summary}`),
        '',
      ].join('\n'),
    );
  });
});
