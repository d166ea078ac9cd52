// The incident commands on a stand-in client: `incidents list` turns its flags into listIncidents'
// params (a window of a day by default, comma lists, more filters from --data), the lifecycle
// commands take ids or a body (not both), `comment` one id and --text; for people a line, for
// scripts the answer's data.
import { describe, expect, it } from 'vitest';
import { INCIDENT_COMMANDS } from '../../../../src/cli/commands/incidents.js';
import { commandOf, contextOf, itemsOf, jsonLines, usageError } from '../support.js';

const list = commandOf(INCIDENT_COMMANDS, 'incidents list');

/** A client of the shape the incident commands use, recording its calls. */
function standIn() {
  const calls: Array<[string, unknown]> = [];
  return {
    calls,
    listIncidents: (params: unknown) => {
      calls.push(['listIncidents', params]);
      return itemsOf([{ incident_id: 'a', title: 'one' }]);
    },
    incidents: Object.fromEntries(
      ['ack', 'resolve', 'reopen', 'comment'].map((verb) => [
        verb,
        async (body: unknown) => {
          calls.push([verb, body]);
          return null;
        },
      ]),
    ),
  };
}

describe('incidents list', () => {
  it('walks the last day by default and prints the items', async () => {
    const client = standIn();
    const context = contextOf(list, ['--json'], client);
    expect(await list.run(context)).toBe(0);
    const [[, params]] = client.calls as [[string, { start_time: Date; end_time: Date }]];
    expect(params.end_time.getTime() - params.start_time.getTime()).toBe(86_400_000);
    expect(Math.abs(params.end_time.getTime() - Date.now())).toBeLessThan(5_000);
    expect(jsonLines(context.io.printed.out)).toEqual([{ incident_id: 'a', title: 'one' }]);
  });

  it('turns the flags into params: the window, comma lists and more filters from --data', async () => {
    const client = standIn();
    const args = ['--since', '2026-10-01', '--until', '2026-10-02', '--progress', 'Triggered,Processing'];
    args.push('--severity', 'Critical', '--data', '{"channel_ids":[7],"asc":true}');
    await list.run(contextOf(list, args, client));
    expect(client.calls).toEqual([
      [
        'listIncidents',
        {
          channel_ids: [7],
          asc: true,
          start_time: new Date('2026-10-01'),
          end_time: new Date('2026-10-02'),
          progress: ['Triggered', 'Processing'],
          incident_severity: ['Critical'],
        },
      ],
    ]);
  });

  it('refuses an argument, --data that is no object and a window that ends first, calling nothing', async () => {
    const client = standIn();
    expect(await usageError(list.run(contextOf(list, ['extra'], client)))).toBe('unexpected argument "extra"');
    expect(await usageError(list.run(contextOf(list, ['--data', '[1]'], client)))).toBe(
      '--data: expected a JSON object',
    );
    expect(await usageError(list.run(contextOf(list, ['--since', '1h', '--until', '2h'], client)))).toBe(
      '--since must be before --until',
    );
    expect(client.calls).toEqual([]);
  });
});

describe('incidents ack, resolve, reopen', () => {
  it('sends the ids as incident_ids, or the body of --data; one line for people, the data for scripts', async () => {
    for (const verb of ['ack', 'resolve', 'reopen']) {
      const command = commandOf(INCIDENT_COMMANDS, `incidents ${verb}`);
      const client = standIn();
      const people = contextOf(command, ['a1', 'b2'], client);
      expect(await command.run(people)).toBe(0);
      expect(people.io.printed.out).toBe(`${verb}: a1, b2\n`);
      const script = contextOf(command, ['--data', '{"incident_ids":["c3"]}', '--json'], client);
      await command.run(script);
      expect(script.io.printed.out).toBe('null\n');
      expect(client.calls).toEqual([
        [verb, { incident_ids: ['a1', 'b2'] }],
        [verb, { incident_ids: ['c3'] }],
      ]);
    }
  });

  it('refuses ids and --data together, and neither', async () => {
    const ack = commandOf(INCIDENT_COMMANDS, 'incidents ack');
    expect(await usageError(ack.run(contextOf(ack, ['a1', '--data', '{}'], standIn())))).toBe(
      'give incident ids or --data, not both',
    );
    expect(await usageError(ack.run(contextOf(ack, [], standIn())))).toBe('incident ids (or --data) are required');
  });
});

describe('incidents comment', () => {
  const comment = commandOf(INCIDENT_COMMANDS, 'incidents comment');

  it('sends one id and the text', async () => {
    const client = standIn();
    const context = contextOf(comment, ['a1', '--text', 'rolling back'], client);
    await comment.run(context);
    expect(client.calls).toEqual([['comment', { incident_ids: ['a1'], comment: 'rolling back' }]]);
    expect(context.io.printed.out).toBe('comment: a1\n');
  });

  it('refuses two ids, and a comment without text', async () => {
    expect(await usageError(comment.run(contextOf(comment, ['a1', 'b2', '--text', 'x'], standIn())))).toBe(
      'expected one incident id',
    );
    expect(await usageError(comment.run(contextOf(comment, ['a1'], standIn())))).toBe('--text is required');
  });
});
