// The table of the command line's commands: the mock, `api`, the incident conveniences and the
// webhook tools, written here; and one command per named method, made from OPERATIONS (the
// generated manifest) so that no command is written by hand that the table can give. A written
// command wins over a generated one of the same words (`incidents ack <id…>` also takes --data).
// Each command's code loads when it runs: a call never loads the mock, the receiver or zod.

import type { Flag } from './args.js';
import type { Command } from './command.js';

const DATA: Flag = {
  type: 'string',
  value: '<json|@file|->',
  description: 'the request body: JSON, @file, or - for stdin',
};
const SINCE: Flag = {
  type: 'string',
  value: '<when>',
  description: 'window start: 30m, 24h, 7d or an ISO date (default 24h)',
};
const UNTIL: Flag = {
  type: 'string',
  value: '<when>',
  description: 'window end: now, a duration ago or an ISO date (default now)',
};

/** The written commands. */
export const COMMANDS: Command[] = [
  {
    words: ['mock'],
    summary: 'serve the mock service on 127.0.0.1 until Ctrl-C; prints its base URL and app key',
    flags: {
      port: { type: 'string', value: '<n>', description: 'the port (default 0: a free one)' },
      seed: { type: 'string', value: '<n>', description: 'the seed of its data (default 1)' },
      incidents: { type: 'string', value: '<n>', description: 'how many incidents it starts with (default 200)' },
    },
    example: 'flashduty mock --seed 7 --incidents 500',
    run: async (context) => (await import('./commands/mock.js')).mock(context),
  },
  {
    words: ['api'],
    summary: 'call any operation by its path (as `gh api`); prints the response data as JSON',
    args: '<path>',
    flags: {
      data: DATA,
      paginate: { type: 'boolean', description: 'every item of a list operation, one JSON object per line' },
    },
    example: `flashduty api /incident/ack --data '{"incident_ids":["69da451ef77b1b51f40e83ee"]}'`,
    run: async (context) => (await import('./commands/api.js')).api(context),
  },
  {
    words: ['incidents', 'list'],
    summary: 'list incidents of a time window (every page)',
    flags: {
      since: SINCE,
      until: UNTIL,
      progress: { type: 'string', value: '<list>', description: 'Triggered,Processing,Closed' },
      severity: { type: 'string', value: '<list>', description: 'Critical,Warning,Info' },
      data: { ...DATA, description: 'more filters as the request body (JSON, @file or -)' },
    },
    example: 'flashduty incidents list --since 24h --progress Triggered,Processing --json',
    run: async (context) => (await import('./commands/incidents.js')).list(context),
  },
  ...(['ack', 'resolve', 'reopen'] as const).map((verb): Command => ({
    words: ['incidents', verb],
    summary: `${verb === 'ack' ? 'acknowledge' : verb} incidents by id`,
    args: '<incident_id…>',
    flags: { data: { ...DATA, description: 'the request body instead of ids (JSON, @file or -)' } },
    example: `flashduty incidents ${verb} 69da451ef77b1b51f40e83ee`,
    run: async (context) => (await import('./commands/incidents.js')).lifecycle(context, verb),
  })),
  {
    words: ['incidents', 'comment'],
    summary: 'add a comment to an incident',
    args: '<incident_id>',
    flags: { text: { type: 'string', value: '<text>', description: 'the comment' }, data: DATA },
    example: `flashduty incidents comment 69da451ef77b1b51f40e83ee --text 'rolling back'`,
    run: async (context) => (await import('./commands/incidents.js')).comment(context),
  },
  {
    words: ['webhooks', 'trigger'],
    summary: 'send realistic deliveries of event types (or all) to a URL, as the service sends them',
    args: '<event_type…|all>',
    flags: {
      to: { type: 'string', value: '<url>', description: 'the receiver' },
      header: {
        type: 'string',
        multiple: true,
        value: "'Name: value'",
        description: 'a header of every delivery (repeatable)',
      },
      'custom-body': { type: 'string', value: '<file>', description: 'a custom body template (JSON)' },
      'value-mapping': { type: 'string', value: '<file>', description: 'value mapping for the template (JSON)' },
      count: { type: 'string', value: '<n>', description: 'how many deliveries of each event type (default 1)' },
      duplicate: {
        type: 'string',
        value: '<n>',
        description: 'send each delivery n times with one event_id (try dedup; default 1)',
      },
      reorder: {
        type: 'boolean',
        description: "make the event types one incident's events, then deliver them newest first (try staleness)",
      },
      via: {
        type: 'string',
        value: '<mock url>',
        description: 'send through a running flashduty mock: the deliveries land in its history, for replay',
      },
    },
    example: 'flashduty webhooks trigger i_new --to http://localhost:3000/hooks/flashduty',
    run: async (context) => (await import('./commands/webhooks.js')).trigger(context),
  },
  {
    words: ['webhooks', 'replay'],
    summary: "post an integration's recorded deliveries (bodies and headers) to a URL",
    flags: {
      integration: { type: 'string', value: '<id>', description: 'the webhook integration' },
      since: { ...SINCE, description: 'from: 30m, 24h, 7d or an ISO date (default 24h)' },
      until: UNTIL,
      status: { type: 'string', value: 'failed|all', description: 'which deliveries (default failed)' },
      to: { type: 'string', value: '<url>', description: 'the receiver' },
    },
    example:
      'flashduty webhooks replay --integration 2490562293131 --since 24h --to http://localhost:3000/hooks/flashduty',
    run: async (context) => (await import('./commands/webhooks.js')).replay(context),
  },
  {
    words: ['webhooks', 'lint'],
    summary: 'check a custom-body template; prints each problem as path: message',
    args: '<template-file>',
    flags: {},
    example: 'flashduty webhooks lint template.json',
    run: async (context) => (await import('./commands/webhooks.js')).lint(context),
  },
];

/** `escalateRules` → `escalate-rules`: a method's words as the command line writes them. */
export const kebab = (word: string): string => word.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const FILE: Flag = {
  type: 'string',
  value: '<path>',
  description: 'the file to upload (sent as the form’s file, under its name on disk)',
};

const TOKEN: Flag = {
  type: 'string',
  value: '<token>',
  description: 'the operation’s own token (an automation trigger’s), sent instead of the app key; never printed',
};

/**
 * One command per named method of the manifest, for the words no written command has. An upload
 * (a form, as the generated rules say) also takes --file; an operation with path parameters takes
 * them as arguments (`automations triggers fire <trigger_id>`), one with a token of its own takes
 * --token; a list, and an answer of NDJSON lines, print one item (line) after another. The example
 * `--help` shows is made from the body's schema: the OpenAPI's example of its required fields.
 */
export async function methodCommands(): Promise<Command[]> {
  const [{ OPERATIONS }, { RULES }] = await Promise.all([
    import('../operations.js'),
    import('../generated/operation-rules.js'),
  ]);
  return Object.entries(OPERATIONS).map(([path, info]): Command => {
    const words = info.method.split('.').map(kebab);
    const rule = RULES[path];
    const output = info.paging ? 'items' : rule?.ndjson ? 'lines' : 'data';
    const shape = {
      path,
      pathParams: rule?.pathParams ?? [],
      upload: rule?.multipart === true,
      token: rule?.token === true,
    };
    return {
      words,
      summary: `${info.summary} (${info.http} ${path})${info.paging ? '; walks every page' : ''}`,
      ...(shape.pathParams.length > 0 ? { args: shape.pathParams.map((name) => `<${name}>`).join(' ') } : {}),
      flags: { data: DATA, ...(shape.upload ? { file: FILE } : {}), ...(shape.token ? { token: TOKEN } : {}) },
      example: async () => (await import('./commands/method.js')).example(words, shape, output),
      details: async () => (await import('./commands/method.js')).bodyHelp(path),
      run: async (context) => (await import('./commands/method.js')).method(context, info.method, output, shape),
    };
  });
}
