// What the retry rule makes of a POST that got no answer (a deadline before or after the answer's
// headers, a reset, a refusal), and custom headers as the UTF-8 bytes the service's Go sender writes.
// The POST itself over node:http: test/integration/testing/mock-webhooks.test.ts.
import { describe, expect, it } from 'vitest';
import { deadlineAttempt, networkAttempt, wireHeaders } from '../../../src/testing/delivery-post.js';

const failure = (code: string | undefined, message: string) => Object.assign(new Error(message), { code });

describe('the retry rule', () => {
  it('does not retry a deadline that passed awaiting the headers, and retries one that passed reading the body', () => {
    expect(deadlineAttempt(false)).toEqual({
      status: 0,
      headers: {},
      body: '',
      error: 'deadline exceeded (timeout exceeded while awaiting headers)',
      retryable: false,
    });
    expect(deadlineAttempt(true)).toMatchObject({ error: 'deadline exceeded while reading the body', retryable: true });
  });

  it('retries EOF (a reset, a hang-up), not a refused connection or a name that does not resolve', () => {
    expect(networkAttempt(failure('ECONNRESET', 'read ECONNRESET'))).toMatchObject({
      status: 0,
      error: 'EOF: read ECONNRESET',
      retryable: true,
    });
    expect(networkAttempt(failure(undefined, 'socket hang up'))).toMatchObject({
      error: 'EOF: socket hang up',
      retryable: true,
    });
    expect(networkAttempt(failure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'))).toMatchObject({
      error: 'connect ECONNREFUSED 127.0.0.1:9',
      retryable: false,
    });
    expect(networkAttempt(failure('ENOTFOUND', 'getaddrinfo ENOTFOUND x')).retryable).toBe(false);
  });
});

describe('wireHeaders', () => {
  it('writes each value as its UTF-8 bytes, read as Latin-1 for node:http', () => {
    const wire = wireHeaders({ 'X-Team': 'Ops 团队', 'X-Plain': 'abc' });
    expect(wire['X-Plain']).toBe('abc');
    expect(Buffer.from(wire['X-Team'] as string, 'latin1').toString('utf8')).toBe('Ops 团队');
    expect([...(wire['X-Team'] as string)].every((c) => c.charCodeAt(0) <= 0xff)).toBe(true);
  });
});
