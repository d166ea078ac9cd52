// withResponse() (src/core/api-promise.ts): a call's promise resolves to its result, and
// `withResponse()` also gives the HTTP answer it came from, its headers scrubbed of the credential
// (the call's own token too); a rejection is not reported twice as unhandled.
import { describe, expect, it } from 'vitest';
import { apiPromise, responseInfo } from '../../../src/core/api-promise.js';
import { createRedactor } from '../../../src/internal/redact.js';

const answer = {
  status: 200,
  requestId: 'r1',
  url: 'https://api.test/x?app_key=***',
  headers: new Headers({ 'X-Echo': 'key-1 and own-token' }),
};
const scrub = createRedactor('key-1');

describe('apiPromise', () => {
  it('resolves to the data, and withResponse() to the data with its answer', async () => {
    const promise = apiPromise(Promise.resolve({ data: 7, answer }), scrub);
    expect(await promise).toBe(7);
    const { data, response } = await promise.withResponse();
    expect(data).toBe(7);
    expect({ ...response, headers: response.headers.get('x-echo') }).toEqual({
      status: 200,
      requestId: 'r1',
      url: answer.url,
      headers: '*** and own-token',
    });
  });

  it('scrubs with the call’s own scrub where it had a token of its own', () => {
    const own = createRedactor(['key-1', 'own-token']);
    expect(responseInfo({ ...answer, scrub: own }, scrub).headers.get('x-echo')).toBe('*** and ***');
  });

  it('rejects through withResponse() alone, the plain promise’s rejection handled', async () => {
    const failure = new Error('failed');
    const promise = apiPromise(Promise.reject(failure), scrub);
    await expect(promise.withResponse()).rejects.toBe(failure);
  });
});
