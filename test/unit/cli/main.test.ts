// main(): argv to a command and its exit code, in process. --version, `help [command…]` as --help,
// bare `flashduty` and a group's words (their listing: on stdout when asked, else on stderr with exit
// 2), an unknown command or flag (one line, exit 2, nothing sent). (The credential: connection.test.ts;
// secrets never printed: secrets.test.ts.)
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { VERSION } from '../../../src/version.js';
import { recordingIo } from './support.js';

async function run(argv: string[], env: Record<string, string> = {}) {
  const io = recordingIo();
  const code = await main(argv, io, env);
  return { code, ...io.printed };
}

describe('main', () => {
  it('prints the version', async () => {
    for (const flag of ['--version', '-v'])
      expect(await run([flag])).toEqual({ code: 0, out: `flashduty ${VERSION}\n`, err: '' });
  });

  it('prints the overview: asked for, on stdout; bare, on stderr with exit 2', async () => {
    const asked = await run(['--help']);
    expect(asked.code).toBe(0);
    expect(asked.out).toMatch(/^flashduty: the Flashduty Open API/);
    expect(await run(['help'])).toEqual(asked);
    const bare = await run([]);
    expect(bare).toEqual({ code: 2, out: '', err: asked.out });
  });

  it('answers help <command…> as <command…> --help, -h too', async () => {
    const help = await run(['help', 'incidents', 'list']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(
      /^list incidents of a time window \(every page\)\n\nUsage: flashduty incidents list \[flags\]\n/,
    );
    expect(await run(['incidents', 'list', '--help'])).toEqual(help);
    expect(await run(['incidents', 'list', '--since', '1d', '-h'])).toEqual(help);
  });

  it('lists the commands under a group’s words, camelCase or kebab-case', async () => {
    const group = await run(['channels', 'escalate-rules', '--help']);
    expect(group.code).toBe(0);
    expect(group.out).toMatch(
      /^Commands under flashduty channels escalate-rules:\n( {2}channels escalate-rules [a-z-]+ +.+\n)+$/,
    );
    expect(await run(['channels', 'escalateRules', '--help'])).toEqual(group);
    expect(await run(['channels', 'escalate-rules'])).toEqual({ code: 2, out: '', err: group.out });
  });

  it('refuses an unknown command with the nearest, in one line, exit 2', async () => {
    expect(await run(['incidnts', 'list'])).toEqual({
      code: 2,
      out: '',
      err: 'flashduty: unknown command "incidnts list" (did you mean "incidents list"?)\n',
    });
  });

  it('refuses an unknown flag before running the command, pointing at its help', async () => {
    expect(await run(['incidents', 'list', '--sinse', '1d'])).toEqual({
      code: 2,
      out: '',
      err: 'flashduty: unknown flag --sinse (did you mean --since?) (see flashduty incidents list --help)\n',
    });
  });

  it('reports a usage error a command throws, with its exit code', async () => {
    expect(await run(['incidents', 'list', '--since', 'soon'])).toEqual({
      code: 2,
      out: '',
      err: 'flashduty: --since: expected a duration (30m, 24h, 7d), now, or an ISO date; got "soon" (see flashduty incidents list --help)\n',
    });
  });
});
