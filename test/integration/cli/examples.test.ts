// Every example the command line's help shows is run, as a user would paste it: the written
// commands' through the real bin in a POSIX shell (against `flashduty mock`, a receiver on loopback
// where the example names localhost:3000, the files they name in a scratch folder); the generated
// commands' (one per method, ~300) through main() in this process, their words read back as the
// shell reads them. None may be a usage error: each parses, its body passes the client's checks, and
// it reaches the service, which answers it (0) or, where the example's ids are not the mock's, refuses
// it with the service's own error (1, an APIError class named).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS, methodCommands } from '../../../src/cli/commands/index.js';
import { main } from '../../../src/cli/main.js';
import { spawnTied } from '../support/lifetime.js';
import { BIN, serve, startMockProcess } from './support.js';

const mock = await startMockProcess(['--incidents', '50']);
const receiver = await serve((_req, res) => res.end('ok'));
const env = { FLASHDUTY_BASE_URL: mock.baseUrl, FLASHDUTY_APP_KEY: mock.appKey, TRIGGER_TOKEN: 'sat_example' };
const scratch = mkdtempSync(path.join(tmpdir(), 'flashduty-examples-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
writeFileSync(
  path.join(scratch, 'template.json'),
  '{"id":"{{event_id}}","at":{{event_time}},"incident":"{{incident.incident_id}}"}',
);
writeFileSync(path.join(scratch, 'skill.zip'), Buffer.from([0x50, 0x4b, 3, 4]));
writeFileSync(path.join(scratch, 'body.json'), '{}');

/** A command's help as `flashduty help <words>` prints it, and its example line. */
async function exampleOf(words: string[]): Promise<string> {
  let out = '';
  const code = await main(['help', ...words], { out: (text) => void (out += text), err: () => {}, tty: false }, env);
  expect(code, words.join(' ')).toBe(0);
  const line = /\nExample:\n {2}(.+)\n/.exec(out)?.[1];
  if (!line) throw new Error(`flashduty help ${words.join(' ')} shows no example:\n${out}`);
  return line;
}

/** The words of a command line as a POSIX shell reads them: single quotes, and "$VAR" from env. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/'((?:[^']|'\\'')*)'|"\$(\w+)"|(\S+)/g)) {
    if (match[1] !== undefined) words.push(match[1].replaceAll("'\\''", "'"));
    else if (match[2] !== undefined) words.push(env[match[2] as keyof typeof env] ?? '');
    else words.push(match[3] as string);
  }
  return words;
}

/** Runs a written command's example with the real bin in a shell; `flashduty mock` until it is up. */
function runInShell(line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const command = line
    .replace(/^flashduty /, `exec "${process.execPath}" "${BIN}" `)
    .replaceAll('http://localhost:3000', receiver.url);
  const child = spawnTied('sh', ['-c', command], { cwd: scratch, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  let interrupted = false;
  // A command that runs until Ctrl-C (the mock, listen): once it says it is running (the mock on
  // stdout, listen on stderr), it is stopped as one Ctrl-C stops it.
  const untilCtrlC = () => {
    if (!interrupted && (stdout.includes('Ctrl-C to stop') || stderr.includes('Ctrl-C to stop')))
      interrupted = child.kill('SIGINT');
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    untilCtrlC();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    untilCtrlC();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${line} did not end:\n${stdout}\n${stderr}`));
    }, 60_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** What every example must be: done (0), or refused by the service with its own error (1). */
function expectRan(line: string, code: number | null, stderr: string): void {
  if (code === 0) return;
  expect(code, `${line}\n${stderr}`).toBe(1);
  expect(stderr, line).toMatch(/^flashduty: \w+Error \(\w+\): /);
}

describe('every example the help shows runs', () => {
  it.each(COMMANDS.map((command) => [command.words.join(' ')]))('flashduty %s', async (words) => {
    const line = await exampleOf(words.split(' '));
    const { code, stderr } = await runInShell(line);
    // Lint's exit 1 means problems found in the template (printed on stdout), no failure.
    if (words === 'webhooks lint') expect(code, stderr).toBeLessThanOrEqual(1);
    else expectRan(line, code, stderr);
  });

  it('every generated command’s, in process', async () => {
    const written = new Set(COMMANDS.map((command) => command.words.join(' ')));
    const generated = (await methodCommands()).filter((command) => !written.has(command.words.join(' ')));
    expect(generated.length).toBeGreaterThan(280);
    const done: string[] = [];
    for (const command of generated) {
      const line = await exampleOf(command.words);
      let stderr = '';
      // A file the example names is read from the scratch folder, as the shell's would be from its folder.
      const words = shellWords(line)
        .slice(1)
        .map((word) => (word === 'skill.zip' ? path.join(scratch, word) : word));
      const code = await main(words, { out: () => {}, err: (text) => void (stderr += text), tty: false }, env);
      expectRan(line, code, stderr);
      if (code === 0) done.push(line);
    }
    // Half of them answer: the mock's world keeps most families, and an example's ids (the OpenAPI's)
    // mostly name nothing in it, refused with the service's own error; the rest take any that fit.
    expect(done.length).toBeGreaterThan(generated.length * 0.5);
  }, 300_000);
});
