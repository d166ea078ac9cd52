// What the request loop accepts from the wire (src/client/transport.ts), without a socket: a
// mutation follows no redirect; a read follows at most five, within the base URL's origin, keeping
// its method and body, the app key added where the target lacks it; a body over the limit is given up
// (declared or counted); a connection error names the host and the innermost reason.
import { describe, expect, it } from 'vitest';
import { APIError, ResponseTooLargeError } from '../../../src/index.js';
import { connectionMessage, follow, type Hop, readText } from '../../../src/client/transport.js';
import { startAttempt } from '../../../src/internal/abort.js';
import { rejection } from '../../helpers.js';

const BASE = 'https://api.test';
const hop = (over: Partial<Hop> = {}): Hop => ({
  at: `${BASE}/incident/info?app_key=k`,
  base: BASE,
  method: 'GET',
  mutation: false,
  appKeyParam: 'app_key=k',
  url: `${BASE}/incident/info?app_key=***`,
  show: (headers) => headers,
  ...over,
});
const redirect = (status: number, location?: string) =>
  new Response(null, { status, headers: location === undefined ? {} : { Location: location } });
const noLog = () => {};

describe('follow', () => {
  it('follows a read within the origin, adding the app key where the target has none', async () => {
    const asked: string[] = [];
    const send = async (url: string) => {
      asked.push(url);
      return asked.length < 2 ? redirect(302, '/v2/info?x=1') : new Response('done');
    };
    const answer = await follow(redirect(301, '/v1/info'), hop(), send, noLog);
    expect(await answer.text()).toBe('done');
    expect(asked).toEqual([`${BASE}/v1/info?app_key=k`, `${BASE}/v2/info?x=1&app_key=k`]);
  });

  it('follows a POST read only where its method and body are kept (307, 308)', async () => {
    const answer = await follow(
      redirect(307, '/again'),
      hop({ method: 'POST' }),
      async () => new Response('ok'),
      noLog,
    );
    expect(answer.status).toBe(200);
    const error = await rejection(
      follow(redirect(302, '/again'), hop({ method: 'POST' }), async () => new Response(''), noLog),
    );
    expect((error as APIError).message).toBe('HTTP 302: redirect not followed (a 302 would turn POST into GET)');
    const withId = redirect(302, '/again');
    withId.headers.set('Service-Request-Id', 'rid-302');
    const refused = await rejection(follow(withId, hop({ method: 'POST' }), async () => new Response(''), noLog));
    expect((refused as APIError).requestId).toBe('rid-302');
  });

  it.each<[string, Response, Partial<Hop>, string]>([
    ['for a mutation', redirect(307, '/x'), { mutation: true, method: 'POST' }, 'a mutation is never redirected'],
    ['out of the origin', redirect(302, 'https://elsewhere.test/x'), {}, `it leaves ${BASE}`],
    ['without a Location', redirect(302), {}, 'no Location'],
    ['to an unreadable Location', redirect(302, 'http://[bad'), {}, 'an unreadable Location'],
  ])('refuses a redirect %s, as an APIError with its status', async (_, response, over, why) => {
    const error = await rejection(follow(response, hop(over), async () => new Response(''), noLog));
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(response.status);
    expect((error as Error).message).toContain(`(${why})`);
  });

  it('gives up after five hops', async () => {
    const error = await rejection(follow(redirect(302, '/0'), hop(), async () => redirect(302, '/n'), noLog));
    expect((error as Error).message).toContain('more than 5 redirects');
  });
});

describe('readText', () => {
  const context = { status: 200, url: `${BASE}/x` };

  it('reads a body within the limit, and refuses one past it, declared or counted', async () => {
    expect(await readText(new Response('12345'), 5, context, startAttempt(1_000))).toBe('12345');
    const declared = new Response('123456', { headers: { 'Content-Length': '6' } });
    expect(await rejection(readText(declared, 5, context, startAttempt(1_000)))).toBeInstanceOf(ResponseTooLargeError);
    const streamed = new Response(new Blob(['123', '456']).stream(), { headers: { 'Service-Request-Id': 'rid-big' } });
    const tooLarge = await rejection(readText(streamed, 5, context, startAttempt(1_000)));
    expect(tooLarge).toBeInstanceOf(ResponseTooLargeError);
    expect((tooLarge as ResponseTooLargeError).requestId).toBe('rid-big'); // the header's, as every error has it
  });
});

describe('connectionMessage', () => {
  it('names the host and the innermost reason, never the query', () => {
    const cause = {
      name: 'TypeError',
      message: 'fetch failed',
      cause: { name: 'Error', message: 'connect refused', code: 'ECONNREFUSED' },
    };
    expect(connectionMessage(`${BASE}/x`, cause)).toBe('Connection to api.test failed: ECONNREFUSED: connect refused.');
    expect(connectionMessage(BASE, undefined)).toBe('Connection to api.test failed.');
  });
});
