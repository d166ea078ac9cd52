// What the command line's unit tests share: an Io that records what was printed, and the Context a
// command runs with, made from its row of the table and the words given, with a stand-in client (an
// object of the client's shape that records its calls) instead of one that would reach a network,
// and a stop signal of the test's own for Ctrl-C.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import type { Command, Context } from '../../../src/cli/command.js';
import { UsageError } from '../../../src/cli/exit.js';
import { parseFlags } from '../../../src/cli/flags.js';
import type { Io } from '../../../src/cli/output.js';

/** An Io whose output is kept: `out` and `err` as printed. */
export interface RecordedIo extends Io {
  readonly printed: { out: string; err: string };
}

export function recordingIo(tty = false): RecordedIo {
  const printed = { out: '', err: '' };
  return {
    printed,
    out: (text) => void (printed.out += text),
    err: (text) => void (printed.err += text),
    tty,
  };
}

/** The Context of `command` run with `args` (its flags and arguments), the client being `client`. */
export function contextOf(
  command: Command,
  args: string[],
  client: unknown = {},
  {
    io = recordingIo(),
    stdin = '',
    stop = new AbortController().signal,
  }: { io?: RecordedIo; stdin?: string; stop?: AbortSignal } = {},
): Context & { io: RecordedIo } {
  const parsed = parseFlags(args, command.flags, command.words.join(' '));
  return {
    ...parsed,
    name: command.words.join(' '),
    json: parsed.values.json === true,
    io,
    stdin: () => stdin,
    client: async () => client as Awaited<ReturnType<Context['client']>>,
    stopSignal: () => stop,
  };
}

/** The command of the given words among `commands`. */
export function commandOf(commands: readonly Command[], words: string): Command {
  const command = commands.find((candidate) => candidate.words.join(' ') === words);
  if (!command) throw new Error(`no command ${words}`);
  return command;
}

/** An async iterable of items, as a list method's walk gives them. */
export async function* itemsOf<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}

/** JSON lines of printed text. */
export const jsonLines = (text: string): unknown[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);

/** The message of the UsageError a command's run rejects with. */
export async function usageError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof UsageError)) throw new Error(`expected a UsageError, got ${String(error)}`);
  return error.message;
}

/** A folder of the file's own for files a command reads (removed after the file's tests), and a writer of them. */
export function scratch(prefix: string): { dir: string; file: (name: string, text: string) => string } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    file: (name, text) => {
      const full = path.join(dir, name);
      writeFileSync(full, text);
      return full;
    },
  };
}
