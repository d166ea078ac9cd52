// How the command line ends: one line on stderr naming the error's class, the envelope's code and
// the request, and the exit code for it (2 for what was refused before sending, 1 for the rest).
import { describe, expect, it } from 'vitest';
import { EXIT, reportError, UsageError } from '../../../src/cli/exit.js';
import { APIConnectionError, ConfigError, InvalidParameterError, RequestValidationError } from '../../../src/index.js';
import { recordingIo } from './support.js';

function reported(error: unknown): { code: number; line: string } {
  const io = recordingIo();
  const code = reportError(error, io);
  expect(io.printed.out).toBe('');
  return { code, line: io.printed.err };
}

describe('reportError', () => {
  it('keeps the exit codes scripts rely on', () => {
    expect(EXIT).toEqual({ ok: 0, failed: 1, usage: 2 });
  });

  it('a usage error: exit 2, pointing at the command’s help when it knows the command', () => {
    expect(reported(new UsageError('--to is required', 'webhooks trigger'))).toEqual({
      code: 2,
      line: 'flashduty: --to is required (see flashduty webhooks trigger --help)\n',
    });
    expect(reported(new UsageError('unknown command "x"'))).toEqual({
      code: 2,
      line: 'flashduty: unknown command "x"\n',
    });
  });

  it('an API error: exit 1, its class, code and request id on one line', () => {
    const error = new InvalidParameterError('Parameter limit must be between 0 and 100.', {
      status: 400,
      code: 'InvalidParameter',
      requestId: '0000002a',
    });
    const { code, line } = reported(error);
    expect(code).toBe(1);
    expect(line).toBe(
      'flashduty: InvalidParameterError (InvalidParameter): Parameter limit must be between 0 and 100. (request 0000002a)\n',
    );
    expect(line.split('\n')).toHaveLength(2);
  });

  it('a param or an option refused before sending: exit 2, as a usage error', () => {
    expect(reported(new RequestValidationError('progress', 'expected one of …')).code).toBe(2);
    expect(reported(new ConfigError('appKey and accessToken are both set')).code).toBe(2);
  });

  it('anything else: exit 1, named as well as it can be', () => {
    expect(reported(new APIConnectionError('connect ECONNREFUSED')).line).toMatch(/^flashduty: APIConnectionError: /);
    expect(reported(new TypeError('boom'))).toEqual({ code: 1, line: 'flashduty: TypeError: boom\n' });
    expect(reported('a string')).toEqual({ code: 1, line: 'flashduty: Error: a string\n' });
  });
});
