// The `flashduty` command line: argv → a command of the table (commands/index.ts) → the client, the
// mock or the sender → output (output.ts), and the exit code (exit.ts: 0 done, 1 the API or a
// delivery failed, 2 a usage error, with nothing sent; every error one line on stderr).
// - No secret is printed (the credential, an operation's own --token, a header's value): the SDK's
//   errors are scrubbed of them, no message here quotes them, and stderr masks them besides
//   (secrets.ts). Flags name the credential before the environment does, as the client reads it
//   (connection.ts); a refused one (401, 403) is reported with where it came from and the base URL.
// - `flashduty help [command…]` is `flashduty [command…] --help`.
// It loads only what the command needs: `incidents list` loads the client, never the mock, the
// receiver or zod. `main()` has no side effect (tests run it in process); `run()` is the bin's.

import { readFileSync } from 'node:fs';
import type { Flashduty } from '../client/client.js';
import type { Context } from './command.js';
import { findCommand, COMMANDS } from './commands/index.js';
import { type Connection, connectionFrom, refusalNote } from './connection.js';
import { addNote, EXIT, reportError } from './exit.js';
import { parseFlags } from './flags.js';
import { commandHelp, groupHelp, overview } from './help.js';
import type { Io } from './output.js';
import { maskingStderr, secretsOf } from './secrets.js';
import { VERSION } from '../version.js';

/**
 * Runs the command line on `argv` (without node and the script); resolves with the exit code.
 * `stopSignal` is how a command that runs until Ctrl-C learns of it (by default, SIGINT or SIGTERM).
 */
export async function main(
  argv: string[],
  given: Io,
  env: Record<string, string | undefined> = process.env,
  stopSignal: () => AbortSignal = onSignals,
): Promise<number> {
  const io = maskingStderr(given, secretsOf(argv, env));
  try {
    return await dispatch(argv, io, env, stopSignal);
  } catch (error) {
    return reportError(error, io);
  }
}

async function dispatch(
  given: string[],
  io: Io,
  env: Record<string, string | undefined>,
  stopSignal: () => AbortSignal,
): Promise<number> {
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
  let made: { connection: Connection; client: Promise<Flashduty> } | undefined;
  let stop: AbortSignal | undefined;
  const connect = (connection: Connection) => {
    const client = import('../client/client.js').then(
      ({ Flashduty }) =>
        new Flashduty({
          ...connection.options,
          // The outcome is the one line printed at the end; retries are logged with FLASHDUTY_LOG=warn.
          logLevel: (env.FLASHDUTY_LOG as 'error' | undefined) ?? 'error',
        }),
    );
    made = { connection, client };
    return client;
  };
  const context: Context = {
    ...parsed,
    name,
    json: parsed.values.json === true,
    io,
    stdin: () => readFileSync(0, 'utf8'),
    client: async (connection) =>
      connection ? connect(connection) : (made?.client ?? connect(connectionFrom(parsed.values, env, name))),
    stopSignal: () => (stop ??= stopSignal()),
  };
  try {
    return await command.run(context);
  } catch (error) {
    if (!made) throw error;
    const { DEFAULT_BASE_URL } = await import('../client/client-options.js');
    const note = refusalNote(error, made.connection, DEFAULT_BASE_URL);
    throw note ? addNote(error, note) : error;
  }
}

/** An AbortSignal aborted on the first SIGINT or SIGTERM of this process (listened for from this call on). */
function onSignals(): AbortSignal {
  const controller = new AbortController();
  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return controller.signal;
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
