// The command line's help text: the overview (`flashduty --help`, or bare `flashduty` on stderr),
// one command's help (its usage, its flags, with a count's range, and the flags of every command,
// its details and an example that runs), and the listing of the commands under a group
// (`flashduty members`).

import type { Command } from './command.js';
import { type Flag, GLOBAL_FLAGS } from './flags.js';
import { kebab } from './commands/methods.js';

/** The overview: what the command line is, the written commands, the resources of the generated ones. */
export async function overview(written: Command[]): Promise<string> {
  const { OPERATIONS } = await import('../operations.js');
  const resources = [...new Set(Object.values(OPERATIONS).map((info) => kebab(info.method.split('.')[0] as string)))];
  return [
    'flashduty: the Flashduty Open API from a shell, its mock on a port, and webhook deliveries for your receiver.\n',
    '\nUsage: flashduty <command> [args] [flags]\n\nCommands:\n',
    listing(written),
    `\nEvery operation, by its method's name (flashduty <resource> [<sub>] <verb> --data '{…}'), under:\n`,
    `  ${resources.join(', ')}\n`,
    '\nFlags of every command:\n',
    flagLines(GLOBAL_FLAGS),
    '\nExit codes: 0 done, 1 the API or a delivery failed, 2 a usage error (nothing sent).\n',
    "Run 'flashduty help <command>' (or 'flashduty <command> --help') for its flags and an example.\n",
  ].join('');
}

/** One command's help: usage, flags, the flags of every command, details, and its example. */
export async function commandHelp(command: Command): Promise<string> {
  const usage = `flashduty ${command.words.join(' ')}${command.args ? ` ${command.args}` : ''} [flags]`;
  return [
    `${command.summary}\n\nUsage: ${usage}\n`,
    Object.keys(command.flags).length > 0 ? `\nFlags:\n${flagLines(command.flags)}` : '',
    `\nFlags of every command:\n${flagLines(GLOBAL_FLAGS)}`,
    command.details ? `\n${await command.details()}` : '',
    `\nExample:\n  ${typeof command.example === 'string' ? command.example : await command.example()}\n`,
  ].join('');
}

/** The commands under a group's words (`flashduty members`). */
export function groupHelp(words: string[], under: Command[]): string {
  return `Commands under flashduty ${words.join(' ')}:\n${listing(under)}`;
}

/** One line per command: its words and its summary, in columns. */
function listing(commands: Command[]): string {
  const width = Math.min(44, Math.max(...commands.map((c) => c.words.join(' ').length)));
  return commands.map((c) => `  ${c.words.join(' ').padEnd(width)}  ${c.summary}\n`).join('');
}

function flagLines(flags: Record<string, Flag>): string {
  const entries = Object.entries(flags).map(([name, flag]) => [
    `--${name}${flag.value ? ` ${flag.value}` : ''}`,
    `${flag.description}${bounds(flag)}`,
  ]);
  const width = Math.max(...entries.map(([left]) => (left as string).length));
  return entries.map(([left, right]) => `  ${(left as string).padEnd(width)}  ${right}\n`).join('');
}

/** A count's range and default, as the flag's line shows them: ` (1–100, default 1)`. */
function bounds(flag: Flag): string {
  if (!flag.range) return '';
  return ` (${flag.range.min}–${flag.range.max}${flag.default === undefined ? '' : `, default ${flag.default}`})`;
}
