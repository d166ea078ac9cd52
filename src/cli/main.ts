// The `flashduty` command line: argv → a command of the table (commands/index.ts) → the client, the
// mock or the sender → output (output.ts), and the exit code (exit.ts: 0 done, 1 the API or a
// delivery failed, 2 a usage error, with nothing sent; every error one line on stderr).
// - The credential (app key or access token, and an operation's own --token) is never printed: the
//   SDK's errors are scrubbed of it, and nothing here prints it. Flags name it before the
//   environment does, as the client reads it.
// - `flashduty help [command…]` is `flashduty [command…] --help`.
// It loads only what the command needs: `incidents list` loads the client, never the mock, the
// receiver or zod. `main()` has no side effect (tests run it in process); `run()` is the bin's.

import { readFileSync } from 'node:fs';
import type { Context } from './command.js';
import { findCommand, COMMANDS } from './commands/index.js';
import { EXIT, reportError } from './exit.js';
import { parseFlags } from './flags.js';
import { commandHelp, groupHelp, overview } from './help.js';
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
    return reportError(error, io);
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
  // Bare `flashduty`, or a group of commands: what there is, on stdout when asked for, else on stderr (exit 2).
  const listing = (text: string) => {
    io[wantsHelp ? 'out' : 'err'](text);
    return wantsHelp ? EXIT.ok : EXIT.usage;
  };
  if (words.length === 0) return listing(await overview(COMMANDS));
  const found = await findCommand(words);
  if ('group' in found) return listing(groupHelp(found.words, found.group));
  const { command } = found;
  if (wantsHelp) {
    io.out(await commandHelp(command));
    return EXIT.ok;
  }
  const name = command.words.join(' ');
  const parsed = parseFlags(
    argv.slice(command.words.length).filter((arg) => arg !== '-h'),
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
            ...credentialFrom(parsed.values, env),
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
export function credentialFrom(
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
