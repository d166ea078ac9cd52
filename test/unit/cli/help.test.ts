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

  it('shows each count’s range and default beside it, and every written command’s counts have one', async () => {
    const text = await commandHelp({
      ...COMMAND,
      flags: {
        count: { type: 'string', value: '<n>', description: 'how many', range: { min: 1, max: 100 }, default: '1' },
      },
    });
    expect(text).toContain('\n  --count <n>  how many (1–100, default 1)\n');
    const trigger = await commandHelp(COMMANDS.find((c) => c.words.join(' ') === 'webhooks trigger') as Command);
    expect(trigger).toMatch(/--count <n> +how many deliveries of each event type \(1–100, default 1\)/);
    expect(trigger).toMatch(
      /--duplicate <n> +send each delivery n times with one event_id, to try dedup \(1–10, default 1\)/,
    );
    const mock = await commandHelp(COMMANDS.find((c) => c.words.join(' ') === 'mock') as Command);
    expect(mock).toMatch(/--incidents <n> +how many incidents it starts with \(0–10000, default 200\)/);
    const listen = await commandHelp(COMMANDS.find((c) => c.words.join(' ') === 'webhooks listen') as Command);
    expect(listen).toMatch(/--interval <duration> +how often to ask the history, 1s to 5m \(default 5s\)/);
    expect(listen).toMatch(/--since <when> +.*at most 7d ago \(default now\)/);
    // A flag that takes a number is a count with its range, or an id.
    for (const command of COMMANDS)
      for (const [name, flag] of Object.entries(command.flags))
        if (flag.value === '<n>') expect(flag.range, `${command.words.join(' ')} --${name}`).toBeDefined();
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
