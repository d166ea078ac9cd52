// `flashduty api <path>` on a stand-in client: the path checked, the body from --data (or {}), the
// data printed; --paginate walks a list operation of the manifest, and refuses any other path.
import { describe, expect, it } from 'vitest';
import { API_COMMAND } from '../../../../src/cli/commands/api.js';
import { reportError, UsageError } from '../../../../src/cli/exit.js';
import { contextOf, itemsOf, jsonLines, recordingIo } from '../support.js';

function standIn() {
  const calls: unknown[][] = [];
  return {
    calls,
    request: async (path: string, body: unknown) => {
      calls.push([path, body]);
      return { ok: true };
    },
    members: {
      list: (body: unknown) => (calls.push(['members.list', body]), itemsOf([{ member_id: 1 }, { member_id: 2 }])),
    },
  };
}

const run = (args: string[], client = standIn()) => {
  const context = contextOf(API_COMMAND, args, client);
  return { context, client, done: API_COMMAND.run(context) };
};

describe('flashduty api', () => {
  it('calls the path with the body and prints the data', async () => {
    const { context, client, done } = run(['/incident/ack', '--data', '{"incident_ids":["a"]}']);
    expect(await done).toBe(0);
    expect(client.calls).toEqual([['/incident/ack', { incident_ids: ['a'] }]]);
    expect(context.io.printed.out).toBe('{\n  "ok": true\n}\n');
    const { client: empty, done: again } = run(['/channel/list', '--json']);
    await again;
    expect(empty.calls).toEqual([['/channel/list', {}]]);
  });

  it('walks a list operation with --paginate, one JSON object per line', async () => {
    const { context, client, done } = run(['/member/list', '--paginate', '--data', '{"limit":1}']);
    await done;
    expect(client.calls).toEqual([['members.list', { limit: 1 }]]);
    expect(jsonLines(context.io.printed.out)).toEqual([{ member_id: 1 }, { member_id: 2 }]);
  });

  it('refuses no path, a second argument, a path without its slash, and --paginate on what does not page', async () => {
    for (const [args, message] of [
      [[], 'the operation path is required, e.g. /incident/list'],
      [['/incident/list', 'more'], 'unexpected argument "more"'],
      [['incident/list'], 'expected a path such as /incident/ack, got "incident/list"'],
      [
        ['/incident/ack', '--paginate'],
        '--paginate: /incident/ack is not a list operation of the OpenAPI (did you mean /incident/list?)',
      ],
      [['/zzzzzzzz/qqqqq', '--paginate'], '--paginate: /zzzzzzzz/qqqqq is not a list operation of the OpenAPI'],
    ] as const) {
      const { client, done } = run([...args]);
      const error = await done.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe(message);
      expect(client.calls).toEqual([]);
    }
  });

  it('asks the service for any path; when it answers RouteNotFound, the error line names the nearest known path', async () => {
    const notFound = (path: string) =>
      Object.assign(new Error(`No route matches ${path}.`), {
        name: 'RouteNotFoundError',
        code: 'RouteNotFound',
        status: 404,
      });
    const lines: string[] = [];
    for (const [path, code] of [
      ['/incident/lst', 'RouteNotFound'],
      ['/zzzzzzzz/qqqqq', 'RouteNotFound'],
      ['/incident/lst', 'InvalidParameter'],
    ] as const) {
      const asked: string[] = [];
      const client = {
        request: async (p: string) => {
          asked.push(p);
          throw code === 'RouteNotFound'
            ? notFound(p)
            : Object.assign(new Error('bad'), { name: 'InvalidParameterError', code });
        },
      };
      const error = await API_COMMAND.run(contextOf(API_COMMAND, [path], client)).catch((e: unknown) => e);
      expect(asked).toEqual([path]); // asked as given: the service may know routes the manifest does not
      const io = recordingIo();
      expect(reportError(error, io)).toBe(1);
      lines.push(io.printed.err);
    }
    expect(lines).toEqual([
      'flashduty: RouteNotFoundError (RouteNotFound): No route matches /incident/lst. Did you mean /incident/list?\n',
      'flashduty: RouteNotFoundError (RouteNotFound): No route matches /zzzzzzzz/qqqqq.\n',
      'flashduty: InvalidParameterError (InvalidParameter): bad\n',
    ]);
  });
});
