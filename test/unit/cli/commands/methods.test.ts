// One command per named method: its words, summary, arguments and flags from the manifest and the
// generated rules; its call on a stand-in client (path parameters from the arguments, the file of an
// upload, its own --token, a list walked, NDJSON lines one by one); its example and body help from
// the OpenAPI.
import { describe, expect, it } from 'vitest';
import { kebab, methodCommand, methodOf } from '../../../../src/cli/commands/methods.js';
import { UsageError } from '../../../../src/cli/exit.js';
import { contextOf, itemsOf, jsonLines, usageError } from '../support.js';

const info = (method: string, paging?: 'cursor') =>
  ({ method, http: 'POST', kind: 'mutation', summary: 'Do it', ...(paging ? { paging } : {}) }) as const;

/** A client with one method at a dotted name, recording its calls and answering `answer`. */
function clientWith(name: string, answer: (body: unknown) => unknown) {
  const calls: unknown[][] = [];
  const client: Record<string, unknown> = {};
  const parts = name.split('.');
  let target = client;
  for (const part of parts.slice(0, -1)) target = target[part] = {};
  target[parts.at(-1) as string] = (...args: unknown[]) => {
    calls.push(args);
    return answer(args[0]);
  };
  return { client, calls };
}

describe('methodCommand', () => {
  it('names the command by the method, kebab-case, and says what it calls', () => {
    expect(kebab('escalateRules')).toBe('escalate-rules');
    const command = methodCommand(
      '/channel/escalate/rule/list',
      info('channels.escalateRules.list', 'cursor'),
      undefined,
    );
    expect(command.words).toEqual(['channels', 'escalate-rules', 'list']);
    expect(command.summary).toBe('Do it (POST /channel/escalate/rule/list); walks every page');
    expect(Object.keys(command.flags)).toEqual(['data']);
    expect(command.args).toBeUndefined();
  });

  it('takes path parameters as arguments, an upload’s --file and an operation’s own --token', () => {
    const fire = methodCommand('/t/{trigger_id}/fire', info('automations.triggers.fire'), {
      pathParams: ['trigger_id'],
      token: true,
    });
    expect(fire.args).toBe('<trigger_id>');
    expect(Object.keys(fire.flags)).toEqual(['data', 'token']);
    const upload = methodCommand('/skill/upload', info('skills.upload'), { multipart: true });
    expect(Object.keys(upload.flags)).toEqual(['data', 'file']);
  });

  it('calls the method with the body and prints its data', async () => {
    const command = methodCommand('/incident/ack', info('incidents.ack'), undefined);
    const { client, calls } = clientWith('incidents.ack', () => ({ done: 1 }));
    const context = contextOf(command, ['--data', '{"incident_ids":["a"]}', '--json'], client);
    expect(await command.run(context)).toBe(0);
    expect(calls).toEqual([[{ incident_ids: ['a'] }]]);
    expect(context.io.printed.out).toBe('{"done":1}\n');
  });

  it('puts path parameters into the body, sends --token as the call’s option', async () => {
    const command = methodCommand('/t/{trigger_id}/fire', info('automations.triggers.fire'), {
      pathParams: ['trigger_id'],
      token: true,
    });
    const { client, calls } = clientWith('automations.triggers.fire', () => null);
    await command.run(contextOf(command, ['atrig_1', '--token', 'sat_x', '--data', '{"text":"go"}'], client));
    expect(calls).toEqual([[{ text: 'go', trigger_id: 'atrig_1' }, { token: 'sat_x' }]]);
  });

  it('walks a list to its end, and prints an NDJSON answer line by line', async () => {
    const list = methodCommand('/member/list', info('members.list', 'cursor'), undefined);
    const walk = clientWith('members.list', () => itemsOf([{ id: 1 }, { id: 2 }]));
    const listed = contextOf(list, ['--json'], walk.client);
    await list.run(listed);
    expect(jsonLines(listed.io.printed.out)).toEqual([{ id: 1 }, { id: 2 }]);
    const exported = methodCommand('/session/export', info('sessions.export'), { ndjson: true });
    const lines = clientWith('sessions.export', async () => [{ type: 'session_meta' }, { type: 'event' }]);
    const printed = contextOf(exported, ['--json'], lines.client);
    await exported.run(printed);
    expect(jsonLines(printed.io.printed.out)).toEqual([{ type: 'session_meta' }, { type: 'event' }]);
  });

  it('refuses missing or extra arguments, and --data other than an object beside arguments', async () => {
    const command = methodCommand('/t/{a}/{b}', info('x.y'), { pathParams: ['a', 'b'] });
    const { client, calls } = clientWith('x.y', () => null);
    expect(await usageError(command.run(contextOf(command, ['1'], client)))).toBe('<a> <b> are required');
    expect(await usageError(command.run(contextOf(command, ['1', '2', '3'], client)))).toBe(
      'unexpected argument "3"; the body goes in --data',
    );
    expect(await usageError(command.run(contextOf(command, ['1', '2', '--data', '[]'], client)))).toBe(
      '--data must be a JSON object beside --file or arguments',
    );
    const plain = methodCommand('/x/y', info('x.y'), undefined);
    expect(await usageError(plain.run(contextOf(plain, ['z'], client)))).toBe(
      'unexpected argument "z"; the body goes in --data',
    );
    expect(calls).toEqual([]);
  });

  it('makes its example from the OpenAPI’s, quoted for a shell, and lists the body’s fields', async () => {
    const ack = methodCommand('/incident/ack', info('incidents.ack'), undefined);
    expect(await (ack.example as () => Promise<string>)()).toBe(
      `flashduty incidents ack --data '{"incident_ids":["69da451ef77b1b51f40e83ee"]}'`,
    );
    expect(await ack.details?.()).toMatch(/^Body fields \(--data\):\n {2}incident_ids +array +required\n/);
    const fire = methodCommand('/safari/automation/triggers/{trigger_id}/fire', info('automations.triggers.fire'), {
      pathParams: ['trigger_id'],
      token: true,
    });
    expect(await (fire.example as () => Promise<string>)()).toMatch(
      /^flashduty automations triggers fire atrig_\w+ --token "\$TRIGGER_TOKEN"/,
    );
    const none = methodCommand('/not/in/the/openapi', info('x.y'), undefined);
    expect(await none.details?.()).toBe('Body: none.\n');
    expect(await (none.example as () => Promise<string>)()).toBe('flashduty x y');
  });
});

describe('methodOf', () => {
  it('finds the client’s method by its dotted name, and refuses a name that is none', () => {
    const { client } = clientWith('a.b.c', () => 'called');
    expect(methodOf(client as never, 'a.b.c')({})).toBe('called');
    expect(() => methodOf(client as never, 'a.b.d')).toThrow(UsageError);
  });
});
