// How a call is made once its operation is known (src/client/resources/call.ts), against answers
// in memory (no socket): a method reaches its own path and HTTP method (a GET's params in the query),
// its params checked against the OpenAPI's request schema (enums too) before anything is sent;
// client.request takes the wire body as it is and leaves enums to the server, sends a path the
// OpenAPI does not list unchecked, and refuses what is no path; path parameters go into the path; an
// upload is a form; an NDJSON answer resolves to its lines; an operation's own token replaces the
// client's credential, and no other operation takes one.
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../../src/index.js';
import { rejection } from '../../../helpers.js';
import { memoryClient, ok } from '../../../support/responder.js';

const ID = '69da451ef77b1b51f40e83ee';

/** The RequestValidationError's field and message a call rejects with. */
async function refusal(promise: PromiseLike<unknown>): Promise<string> {
  const error = await rejection(promise);
  if (!(error instanceof RequestValidationError)) throw error;
  return error.message;
}

describe('a method', () => {
  it('reaches its own path with its HTTP method, the app key in the query, and resolves to data', async () => {
    const { client, sent } = memoryClient(() => ok({ done: true }));
    expect(await client.incidents.ack({ incident_ids: [ID] })).toEqual({ done: true });
    expect(await client.incidents.postMortems.info({ post_mortem_id: 'pm 1' })).toEqual({ done: true });
    expect(sent.map((s) => `${s.method} ${s.url.pathname}${s.url.search}`)).toEqual([
      'POST /incident/ack?app_key=test-app-key',
      'GET /incident/post-mortem/info?app_key=test-app-key&post_mortem_id=pm%201',
    ]);
    expect(sent[0]?.body).toEqual({ incident_ids: [ID] });
  });

  it('refuses params that break the request schema, enums included, sending nothing', async () => {
    const { client, sent } = memoryClient(() => ok({}));
    expect(await refusal(client.incidents.ack({ incident_ids: ['nope'] }))).toMatch(/^incident_ids\[0\]: /);
    expect(await refusal(client.incidents.ack(undefined as never))).toBe('incident_ids: is required');
    expect(await refusal(client.incidents.ack('x' as never))).toMatch(/^params: expected an object/);
    expect(await refusal(client.a2aAgents.list({ scope: 'everyone' as never }))).toMatch(/^scope: /);
    expect(sent).toHaveLength(0);
  });

  it('puts path parameters into the path, and takes the operation’s own token instead of the credential', async () => {
    const { client, sent } = memoryClient(() => ok({}));
    await client.automations.triggers.fire({ trigger_id: 't/1', text: 'deploy' }, { token: ' trigger-token ' });
    const [fired] = sent;
    expect(fired?.url.pathname).toBe('/safari/automation/triggers/t%2F1/fire');
    expect(fired?.url.search).toBe('');
    expect(fired?.headers.get('authorization')).toBe('Bearer trigger-token');
    expect(fired?.body).toEqual({ text: 'deploy' });
  });

  it('refuses a missing or unsendable token, and a token where the operation takes none', async () => {
    const { client, sent } = memoryClient(() => ok({}));
    const { triggers } = client.automations;
    expect(await refusal(triggers.fire({ trigger_id: 't' }, {} as never))).toMatch(/^token: .*a token of its own/);
    expect(await refusal(triggers.fire({ trigger_id: 't' }, { token: 'line\nbreak' }))).toMatch(
      /^token: only visible ASCII/,
    );
    const given = { token: 't' } as never;
    expect(await refusal(client.incidents.ack({ incident_ids: [ID] }, given))).toBe(
      "token: incidents.ack takes the client's credential, not a token of its own",
    );
    expect(sent).toHaveLength(0);
  });

  it('sends an upload as a form, and resolves an NDJSON answer to its lines', async () => {
    const { client, sent } = memoryClient((s) =>
      s.url.pathname.endsWith('/export')
        ? new Response('{"a":1}\n\n{"b":2}\n', { headers: { 'Content-Type': 'application/x-ndjson' } })
        : ok({ uploaded: true }),
    );
    await client.skills.upload({ file: new File(['zip'], 'skill.zip') });
    expect(sent[0]?.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent[0]?.text).toContain('filename="skill.zip"');
    expect(await client.sessions.export({ session_id: 's1' })).toEqual([{ a: 1 }, { b: 2 }]);
  });
});

describe('client.request', () => {
  it('sends the wire body as it is, enums left to the server', async () => {
    const { client, sent } = memoryClient(() => ok({ items: [] }));
    await client.request('/safari/a2a-agent/list', { scope: 'everyone' } as never);
    expect(sent[0]?.body).toEqual({ scope: 'everyone' });
  });

  it('sends a path the OpenAPI does not list unchecked, as a mutation', async () => {
    const { client, sent } = memoryClient(() => ok({ fine: 1 }));
    expect(await client.request('/brand/new' as never, { any: 'thing' } as never)).toEqual({ fine: 1 });
    expect(sent[0]?.body).toEqual({ any: 'thing' });
  });

  it.each<[string, unknown, unknown, string]>([
    ['no leading slash', 'incident/ack', {}, 'path'],
    ['a query', '/incident/ack?x=1', {}, 'path'],
    ['a body that is no object', '/incident/ack', 'body', 'body'],
  ])('refuses %s', async (_, path, body, field) => {
    const error = (await rejection(client().request(path as never, body as never))) as RequestValidationError;
    expect(error.field).toBe(field);
  });
});

function client() {
  return memoryClient(() => ok({})).client;
}
