// Every `flashduty` command line the README and the guides show names a command the bin has and only
// flags that command takes: read from their ```sh blocks as a shell reads them, found and parsed by
// the bin's own table and flag parser. (The help's examples are run for real by
// test/integration/cli/examples.test.ts; these lines name the user's own receivers and files.)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCommand } from '../../../src/cli/commands/index.js';
import { parseFlags } from '../../../src/cli/flags.js';

const root = path.resolve(import.meta.dirname, '../../..');
const DOCS = ['README.md', ...readdirSync(path.join(root, 'docs')).map((name) => `docs/${name}`)].filter((file) =>
  file.endsWith('.md'),
);

/** `flashduty …` lines of a file's sh blocks: continuations joined, comments and pipes cut off. */
function commandLines(file: string): Array<{ where: string; line: string }> {
  const text = readFileSync(path.join(root, file), 'utf8');
  const found: Array<{ where: string; line: string }> = [];
  for (const block of text.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
    const offset = text.slice(0, block.index).split('\n').length;
    const lines = (block[1] as string).split('\n');
    lines.forEach((first, i) => {
      if (i > 0 && lines[i - 1]?.endsWith('\\')) return; // read with the line it continues
      let raw = first;
      for (let next = i + 1; raw.endsWith('\\'); next++) raw = `${raw.slice(0, -1)} ${lines[next]?.trim() ?? ''}`;
      const line = raw
        .replace(/\s+#\s.*$/, '') // a comment after the command
        .replace(/\s*(\||&&|&).*$/, '') // what the shell does with its output
        .trim();
      if (/^(npx )?flashduty\b/.test(line))
        found.push({ where: `${file}:${offset + i + 1}`, line: line.replace(/^npx /, '') });
    });
  }
  return found;
}

/** The words as a POSIX shell reads them (quotes removed); `…` (the guide's ellipsis) as a URL. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map(
    ([, single, double, bare]) => single ?? double ?? (bare === '…' ? 'http://localhost:3000/' : (bare as string)),
  );
}

const lines = DOCS.flatMap(commandLines);

describe('the command lines of the README and the guides', () => {
  it('are there to check (the README and docs/cli.md show the command line)', () => {
    expect(lines.some(({ where }) => where.startsWith('README.md'))).toBe(true);
    expect(lines.filter(({ where }) => where.startsWith('docs/cli.md')).length).toBeGreaterThan(10);
  });

  it.each(lines.map(({ where, line }) => [where, line]))('%s: %s', async (_where, line) => {
    const argv = shellWords(line).slice(1);
    const firstFlag = argv.findIndex((arg) => arg.startsWith('-'));
    const words = firstFlag === -1 ? argv : argv.slice(0, firstFlag);
    if (words[0] === 'help') {
      const found = await findCommand(words.slice(1));
      expect('command' in found || found.group.length > 0).toBe(true);
      return;
    }
    const found = await findCommand(words);
    if ('group' in found) {
      // A group is only listed; a line of the docs that names one asks for its help.
      expect(argv).toContain('--help');
      return;
    }
    const { command } = found;
    const parsed = parseFlags(argv.slice(command.words.length), command.flags, command.words.join(' '));
    // What is left over are the command's positional arguments, which its help names.
    if (parsed.positionals.length > 0) expect(command.args, `${line}: ${parsed.positionals.join(' ')}`).toBeTruthy();
  });
});
