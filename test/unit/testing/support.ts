// What the mock's unit tests share: a fixed clock, the mock's state with the credentials
// createMockService gives it, a way to post deliveries that records them and answers as told (no
// socket), requests as a client would send them, and one call's answer read back.
import { OPERATIONS } from '../../../src/generated/operations.js';
import type { Attempt, DeliveryRequest, PostDelivery } from '../../../src/testing/delivery-post.js';
import { route } from '../../../src/testing/router.js';
import { MockState, type MockStateOptions } from '../../../src/testing/state.js';

/** 2026-11-01T00:00:00Z, the mock's clock in these tests. */
export const NOW_MS = Date.UTC(2026, 10, 1);

/** The credentials of {@link mockState}. */
export const KEYS = { full: 'fdk_full', noPermission: 'fdk_no_permission', expired: 'fdk_expired', token: 'fdt_token' };

/** The mock's state on a fixed clock, 20 incidents, no rate limits unless given; the keys of {@link KEYS}. */
export function mockState(options: Partial<MockStateOptions> = {}): MockState {
  const state = new MockState({
    seed: 1,
    incidents: 20,
    now: NOW_MS,
    agents: [{ agent_id: 'a2a_demo' }, { agent_id: 'a2a_enabled', enabled: true }],
    skills: [{ skill_id: 'skill_demo' }],
    rateLimits: false,
    maxBodyBytes: 1024,
    ...options,
  });
  const personId = state.world.members[0]?.person_id as number;
  const credential = (name: string, permissions: string[], expired = false) => ({
    name,
    personId,
    permissions,
    expired,
  });
  state.credentials.set(KEYS.full, credential('full', ['on-call', 'ai-sre']));
  state.credentials.set(KEYS.noPermission, credential('no-permission', ['ai-sre']));
  state.credentials.set(KEYS.expired, credential('expired', ['on-call', 'ai-sre'], true));
  state.credentials.set(KEYS.token, credential('access-token', ['on-call', 'ai-sre']));
  return state;
}

/** A way to post deliveries that records each request and answers with `answer` (default: 200 ok). */
export function recordingPost(
  answer: (request: DeliveryRequest, index: number) => Partial<Attempt> = () => ({}),
): PostDelivery & { requests: DeliveryRequest[] } {
  const requests: DeliveryRequest[] = [];
  const post = async (request: DeliveryRequest): Promise<Attempt> => {
    requests.push(request);
    return { status: 200, headers: {}, body: 'ok', retryable: false, ...answer(request, requests.length - 1) };
  };
  return Object.assign(post, { requests });
}

/** A POST of JSON to the mock's `path`, with the app key `key` (none for `null`). */
export function apiRequest(
  path: string,
  body: unknown,
  { key = KEYS.full, headers = {} }: { key?: string | null; headers?: Record<string, string> } = {},
): Request {
  const query = key === null ? '' : `?app_key=${key}`;
  return new Request(`http://mock.test${path}${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** What one call answered: its `data`, or its error's code and message. */
export interface Answer<T = unknown> {
  data: T;
  code?: string;
  message?: string;
}

/** One call of an operation through the router, as a client makes it (a GET's fields in its query), with the full key. */
export async function callMock<T = unknown>(state: MockState, path: string, body: object = {}): Promise<Answer<T>> {
  const get = (OPERATIONS as Record<string, { http: string }>)[path]?.http === 'GET';
  const query = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, String(value)]));
  const request = get
    ? new Request(`http://mock.test${path}?${new URLSearchParams({ app_key: KEYS.full, ...query })}`)
    : apiRequest(path, body);
  const answer = (await route(state, request)) as Response;
  const json = (await answer.json()) as { data?: T; error?: { code: string; message: string } };
  return { data: json.data as T, ...(json.error ? { code: json.error.code, message: json.error.message } : {}) };
}
