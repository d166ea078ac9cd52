// The `flashduty` command line: argv → a command of the table (commands.ts: the written ones, and
// one per named method from OPERATIONS) → the client, the mock or the sender → output. Rules it
// owns, for scripts:
// - Exit codes: 0 done; 1 the API refused a call or a delivery failed; 2 a usage error (unknown
//   command or flag, bad JSON, an unreadable file, a malformed duration or URL, a param the OpenAPI
//   refuses), with nothing sent.
// - Every error is one line on stderr: the error's class, the envelope's code and the message.
// - The credential (app key or access token, and an operation's own --token) is never printed: the
//   SDK's errors are scrubbed of it, and nothing here prints it.
// - `flashduty help [command…]` is `flashduty [command…] --help`.
// It loads only what the command needs: `incidents list` loads the client, never the mock, the
// receiver or zod. `main()` has no side effect (tests run it in process); `run()` is the bin's.

import { readFileSync } from 'node:fs';
import { closest } from '../internal/closest.js';
import { GLOBAL_FLAGS, type Flag, parseFlags, UsageError } from './args.js';
import { type Command, type Context, EXIT } from './command.js';
import { COMMANDS, kebab, methodCommands } from './commands.js';
import type { Io } from './output.js';
import { VERSION } from '../version.js';

/** Runs the command line on `argv` (without node and the script); resolves with the exit code. */
export async function main(
  argv: string[],
  io: Io,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  try {
    return await dispatch(argv, io, env);
  } catch (error) {
    return report(error, io);
  }
}

async function dispatch(given: string[], io: Io, env: Record<string, string | undefined>): Promise<number> {
  // `help [command…]` asks what `[command…] --help` asks.
  const argv = given[0] === 'help' ? [...given.slice(1), '--help'] : given;
  if (argv[0] === '--version' || argv[0] === '-v') {
    io.out(`flashduty ${VERSION}\n`);
    return EXIT.ok;
  }
  const firstFlag = argv.findIndex((arg) => arg.startsWith('-'));
  const words = firstFlag === -1 ? argv : argv.slice(0, firstFlag);
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  if (words.length === 0) {
    io[wantsHelp ? 'out' : 'err'](await overview());
    return wantsHelp ? EXIT.ok : EXIT.usage;
  }
  const all = [...COMMANDS, ...(matchIn(COMMANDS, words) ? [] : await methodCommands())];
  const command = matchIn(all, words);
  if (!command) return group(all, words, io, wantsHelp);
  const name = command.words.join(' ');
  const rest = argv.slice(command.words.length);
  if (wantsHelp) {
    io.out(await help(command));
    return EXIT.ok;
  }
  const parsed = parseFlags(
    rest.filter((arg) => arg !== '-h'),
    command.flags,
    name,
  );
  let client: Promise<import('../client/client.js').Flashduty> | undefined;
  const context: Context = {
    ...parsed,
    name,
    json: parsed.values.json === true,
    io,
    stdin: () => readFileSync(0, 'utf8'),
    client: () =>
      (client ??= import('../client/client.js').then(
        ({ Flashduty }) =>
          new Flashduty({
            ...credentialOf(parsed.values, env),
            baseUrl: (parsed.values['base-url'] as string | undefined) ?? env.FLASHDUTY_BASE_URL,
            // The outcome is the one line printed at the end; retries are logged with FLASHDUTY_LOG=warn.
            logLevel: (env.FLASHDUTY_LOG as 'error' | undefined) ?? 'error',
          }),
      )),
  };
  return await command.run(context);
}

/**
 * The client's credential as the client reads it: the flags where they name one (--app-key,
 * --access-token), else the environment (this process's, as given to main; an empty variable is unset).
 */
function credentialOf(
  values: Record<string, unknown>,
  env: Record<string, string | undefined>,
): { appKey?: string; accessToken?: string } {
  const appKey = values['app-key'] as string | undefined;
  const accessToken = values['access-token'] as string | undefined;
  if (appKey !== undefined || accessToken !== undefined)
    return { ...(appKey !== undefined ? { appKey } : {}), ...(accessToken !== undefined ? { accessToken } : {}) };
  const set = (value: string | undefined) => (value?.trim() ? value : undefined);
  const fromEnv = { appKey: set(env.FLASHDUTY_APP_KEY), accessToken: set(env.FLASHDUTY_ACCESS_TOKEN) };
  return Object.fromEntries(Object.entries(fromEnv).filter(([, value]) => value !== undefined));
}

/** The command whose words start `words` (the longest), matching camelCase or kebab-case words. */
function matchIn(commands: Command[], words: string[]): Command | undefined {
  const given = words.map(kebab);
  let best: Command | undefined;
  for (const command of commands) {
    const fits = command.words.length <= given.length && command.words.every((word, i) => word === given[i]);
    if (fits && command.words.length > (best?.words.length ?? 0)) best = command;
  }
  return best;
}

/** `flashduty members`: the commands under it; or an unknown command, with the nearest suggested. */
function group(all: Command[], words: string[], io: Io, wantsHelp: boolean): number {
  const given = words.map(kebab);
  const under = all.filter((command) => given.every((word, i) => command.words[i] === word));
  if (under.length > 0) {
    const text = `Commands under flashduty ${given.join(' ')}:\n${listing(under)}`;
    io[wantsHelp ? 'out' : 'err'](text);
    return wantsHelp ? EXIT.ok : EXIT.usage;
  }
  const names = all.map((command) => command.words.join(' '));
  const near =
    closest(given.join(' '), names) ?? closest(given[0] as string, [...new Set(all.map((c) => c.words[0] as string))]);
  throw new UsageError(
    `unknown command ${JSON.stringify(given.join(' '))}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}`,
  );
}

function listing(commands: Command[]): string {
  const width = Math.min(44, Math.max(...commands.map((c) => c.words.join(' ').length)));
  return commands.map((c) => `  ${c.words.join(' ').padEnd(width)}  ${c.summary}\n`).join('');
}

async function overview(): Promise<string> {
  const { OPERATIONS } = await import('../operations.js');
  const resources = [...new Set(Object.values(OPERATIONS).map((info) => kebab(info.method.split('.')[0] as string)))];
  return [
    'flashduty: the Flashduty Open API from a shell, its mock on a port, and webhook deliveries for your receiver.\n',
    '\nUsage: flashduty <command> [args] [flags]\n\nCommands:\n',
    listing(COMMANDS),
    `\nEvery operation, by its method's name (flashduty <resource> [<sub>] <verb> --data '{…}'), under:\n`,
    `  ${resources.join(', ')}\n`,
    '\nFlags of every command:\n',
    flagLines(GLOBAL_FLAGS),
    '\nExit codes: 0 done, 1 the API or a delivery failed, 2 a usage error (nothing sent).\n',
    "Run 'flashduty help <command>' (or 'flashduty <command> --help') for its flags and an example.\n",
  ].join('');
}

async function help(command: Command): Promise<string> {
  const usage = `flashduty ${command.words.join(' ')}${command.args ? ` ${command.args}` : ''} [flags]`;
  return [
    `${command.summary}\n\nUsage: ${usage}\n`,
    Object.keys(command.flags).length > 0 ? `\nFlags:\n${flagLines(command.flags)}` : '',
    `\nFlags of every command:\n${flagLines(GLOBAL_FLAGS)}`,
    command.details ? `\n${await command.details()}` : '',
    `\nExample:\n  ${typeof command.example === 'string' ? command.example : await command.example()}\n`,
  ].join('');
}

function flagLines(flags: Record<string, Flag>): string {
  const entries = Object.entries(flags).map(([name, flag]) => [
    `--${name}${flag.value ? ` ${flag.value}` : ''}`,
    flag.description,
  ]);
  const width = Math.max(...entries.map(([left]) => (left as string).length));
  return entries.map(([left, right]) => `  ${(left as string).padEnd(width)}  ${right}\n`).join('');
}

/** One line on stderr for what went wrong; the exit code for it. */
function report(error: unknown, io: Io): number {
  if (error instanceof UsageError) {
    io.err(`flashduty: ${error.message}${error.command ? ` (see flashduty ${error.command} --help)` : ''}\n`);
    return EXIT.usage;
  }
  const e = error as { name?: string; message?: string; code?: string; requestId?: string };
  const name = e.name ?? 'Error';
  const code = e.code ? ` (${e.code})` : '';
  const request = e.requestId ? ` (request ${e.requestId})` : '';
  io.err(`flashduty: ${name}${code}: ${e.message ?? String(error)}${request}\n`);
  // A param the OpenAPI refuses, an option the client refuses: nothing was sent, as for a usage error.
  return name === 'RequestValidationError' || name === 'ConfigError' ? EXIT.usage : EXIT.failed;
}

/**
 * The bin's run (bin/flashduty.js; `npm run cli` runs it with tsx): `main` over this process's
 * arguments, standard streams and environment, its exit code set. A reader that stops early
 * (`| head`) closes the pipe: that ends the output, it is not an error.
 */
export async function run(): Promise<void> {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
    throw error;
  });
  const stdout = (text: string) => process.stdout.write(text);
  const stderr = (text: string) => process.stderr.write(text);
  process.exitCode = await main(process.argv.slice(2), {
    out: stdout,
    err: stderr,
    tty: process.stderr.isTTY === true,
  });
}
