// Every generated method, called through the method (not client.request) against the mock over
// HTTP: each reaches its own path with its own HTTP method; every list walks its pages to the end,
// each item once; the others answer data that fits the response schema (the stateful operations,
// given ids the mock does not have, answer a typed APIError of the service's own rules; so does a
// write naming a member, team or channel the mock's world does not have).
import { describe, expect, it } from 'vitest';
import {
  APIError,
  Flashduty,
  ListPage,
  ListPagePromise,
  RequestValidationError,
  ResourceNotFoundError,
} from '../../../src/index.js';
import { OPERATIONS } from '../../../src/operations.js';
import { RESPONSE_DEFS, RESPONSES } from '../../../src/testing/generated/responses.js';
import { SCHEMA_DEFS } from '../../../src/generated/request-schemas.js';
import { checkSchema } from '../../../src/internal/schema.js';
import { STATEFUL_PATHS } from '../../../src/testing/router.js';
import { rejection, startMock } from '../../helpers.js';
import { callMethod, methodOf, OPERATION_CASES, pathOf } from '../support/operations.js';

const h = await startMock({ incidents: 5, rateLimits: false });
const client = h.client();
const DEFS = { ...SCHEMA_DEFS, ...RESPONSE_DEFS };
const STATEFUL = new Set(STATEFUL_PATHS);

/** The path and HTTP method of the last request the client sent. */
function lastCall(): { path: string; method: string } {
  const call = h.calls[h.calls.length - 1];
  return { path: new URL(call?.url ?? 'http://x/').pathname, method: call?.method ?? '' };
}

describe('every operation is a method', () => {
  it('one per path of OPERATIONS, every one a function on the client, no two with one name', () => {
    const names = Object.values(OPERATIONS).map((info) => info.method);
    expect(names).toHaveLength(298);
    expect(new Set(names).size).toBe(names.length);
    for (const name of [
      'incidents.list',
      'members.list',
      'teams.list',
      'schedules.list',
      'templates.list',
      'calendars.list',
      'roles.list',
      'channels.create',
      'incidents.addResponder',
      'alerts.events',
      'webhookHistory.detail',
      'automations.triggers.fire',
      'automations.rules.create',
      'rum.data.query',
      'channels.escalateWebhookRobots.list', // the one operation the newest OpenAPI dropped, kept
    ]) {
      expect(names, name).toContain(name);
    }
    const c = new Flashduty({ appKey: 'k', baseUrl: h.server.url, logLevel: 'off' });
    for (const name of names) expect(methodOf(c, name), name).toBeTypeOf('function');
  });

  it('each reaches its own path with its own HTTP method, and answers as the OpenAPI says', async () => {
    let lists = 0;
    const trigger = h.service.automations.createTrigger();
    for (const { path, info, body } of OPERATION_CASES) {
      const before = h.calls.length;
      const result = callMethod(client, info.method, body, trigger);
      if (result instanceof Promise) result.catch(() => {}); // awaited below; a failure names its path there
      if (info.paging) {
        expect(result, path).toBeInstanceOf(ListPagePromise);
        const page = await (result as ListPagePromise<unknown>).catch((error: unknown) => error);
        // The mock's own rules judge a stateful list's ids (ResourceNotFound for an alert it does not have).
        if (page instanceof Error && STATEFUL.has(path)) expect(page, path).toBeInstanceOf(APIError);
        else expect(page, path).toBeInstanceOf(ListPage);
        lists++;
      } else if (STATEFUL.has(path)) {
        // The mock's own rules judge these ids (ResourceNotFound for ids it does not have).
        const outcome = await (result as Promise<unknown>).catch((error: unknown) => error);
        if (outcome instanceof Error) expect(outcome, path).toBeInstanceOf(APIError);
      } else {
        const data = await (result as Promise<unknown>).catch((error: unknown) => {
          // A write naming a member, team or channel the mock's world does not have (the OpenAPI's example ids).
          if (info.kind === 'mutation' && error instanceof ResourceNotFoundError && / named in /.test(error.message))
            return undefined;
          throw new Error(`${path}: ${String(error)}`);
        });
        if (data !== undefined || info.kind !== 'mutation')
          expect(checkSchema(data, RESPONSES[path]!.schema, DEFS), path).toBeUndefined();
      }
      expect(h.calls.length, path).toBe(before + 1);
      expect(lastCall(), path).toEqual({ path: pathOf(path, trigger), method: info.http });
    }
    expect(lists).toBe(30);
  });

  it('every list that pages walks to its end by its own paging, each item once, and the count is its total', async () => {
    for (const { path, info, body } of OPERATION_CASES) {
      if (!info.paging || STATEFUL.has(path)) continue;
      const first = await (callMethod(client, info.method, {
        ...body,
        limit: 5,
        p: undefined,
        search_after_ctx: undefined,
      }) as ListPagePromise<unknown>);
      const seen: string[] = [];
      for await (const item of callMethod(client, info.method, {
        ...body,
        limit: 5,
        p: undefined,
        search_after_ctx: undefined,
      }) as ListPagePromise<unknown>) {
        seen.push(JSON.stringify(item));
      }
      expect(new Set(seen).size, path).toBe(seen.length);
      expect(seen.length, path).toBeGreaterThan(5); // more than one page
      if (first.total !== undefined) expect(seen.length, path).toBe(first.total);
    }
  });

  it('refuses a misspelt or missing field at run time, naming it, with nothing sent', async () => {
    const before = h.calls.length;
    const missing = await rejection(client.channels.create({ team_id: 1 } as never));
    expect(missing).toBeInstanceOf(RequestValidationError);
    expect((missing as RequestValidationError).field).toBe('channel_name');
    const wrongType = await rejection(client.members.list({ limit: 'ten' } as never));
    expect((wrongType as RequestValidationError).field).toBe('limit');
    const notAnObject = await rejection(client.incidents.ack('64b1352e376e32c85c56e25b' as never));
    expect((notAnObject as RequestValidationError).field).toBe('params');
    expect(h.calls.length).toBe(before);
  });

  it('refuses a resume token of another list operation', async () => {
    const page = await client.members.list({ limit: 5 });
    const error = await rejection(
      (async () => {
        for await (const _ of client.teams.list({ limit: 5 }).items({ resumeFrom: page.resumeToken })) break;
      })(),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('resumeFrom');
  });
});
