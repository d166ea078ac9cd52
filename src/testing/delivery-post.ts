// One POST of a webhook delivery, as the service's Go sender makes it, and what the retry rule makes
// of it: the JSON body with the integration's headers, within a deadline (2 s; 1 s for a custom
// action); a deadline that passes before the answer's headers is not retried (Go's "Client.Timeout
// exceeded while awaiting headers"), one that passes while reading the body is, as are i/o timeouts
// and EOF (a connection reset or closed mid-answer). Custom header values go out as their UTF-8
// bytes, as Go writes a string. The sender (sender.ts) takes this as its way to post, so that its
// rules can be tried without sockets.

/** What one POST came to: the answer, or why none came; and whether the retry rule retries it. */
export interface Attempt {
  /** The HTTP status; 0 when no answer came. */
  status: number;
  headers: Record<string, string>;
  body: string;
  error?: string;
  retryable: boolean;
}

/** One POST of a delivery. */
export interface DeliveryRequest {
  endpoint: string;
  headers: Record<string, string>;
  body: string;
  deadlineMs: number;
  /** Verify an https endpoint's certificate. */
  tlsVerify: boolean;
}

/** How the sender posts a delivery: over node:http(s) by default. */
export type PostDelivery = (request: DeliveryRequest) => Promise<Attempt>;

/** The most of an answer's body the history keeps. */
const MAX_RECORDED_BODY = 64 * 1024;

/** The attempt of a deadline that passed: retried only once the answer's headers had come. */
export function deadlineAttempt(gotHeaders: boolean): Attempt {
  return gotHeaders
    ? { status: 0, headers: {}, body: '', error: 'deadline exceeded while reading the body', retryable: true }
    : {
        status: 0,
        headers: {},
        body: '',
        error: 'deadline exceeded (timeout exceeded while awaiting headers)',
        retryable: false,
      };
}

/** The attempt of a request that failed: a reset or a hang-up is EOF, retried; the rest (refused, DNS) is not. */
export function networkAttempt(error: NodeJS.ErrnoException): Attempt {
  const eof = error.code === 'ECONNRESET' || error.message === 'socket hang up';
  return { status: 0, headers: {}, body: '', error: eof ? `EOF: ${error.message}` : error.message, retryable: eof };
}

/** The attempt of an answer that broke off mid-body: EOF, retried. */
function brokenOff(): Attempt {
  return { status: 0, headers: {}, body: '', error: 'EOF: the connection closed mid-response', retryable: true };
}

/** One POST over node:http(s) with the deadline, classified by the retry rule. */
export const postDelivery: PostDelivery = async ({ endpoint, headers, body, deadlineMs, tlsVerify }) => {
  const url = new URL(endpoint);
  const http = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise<Attempt>((resolve) => {
    let gotHeaders = false;
    let finished = false;
    const done = (attempt: Attempt) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: { ...wireHeaders(headers), 'Content-Length': String(Buffer.byteLength(body)) },
        ...(url.protocol === 'https:' ? { rejectUnauthorized: tlsVerify } : {}),
        agent: false,
      },
      (res) => {
        gotHeaders = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_RECORDED_BODY) chunks.push(chunk);
        });
        res.on('end', () =>
          done({
            status: res.statusCode ?? 0,
            headers: flatten(res.headers),
            body: Buffer.concat(chunks).toString('utf8'),
            retryable: false,
          }),
        );
        res.on('error', () => done(brokenOff()));
        res.on('aborted', () => done(brokenOff()));
      },
    );
    const timer = setTimeout(() => {
      done(deadlineAttempt(gotHeaders));
      req.destroy();
    }, deadlineMs);
    req.on('error', (error: NodeJS.ErrnoException) => done(networkAttempt(error)));
    req.end(Buffer.from(body, 'utf8')); // a Buffer: the headers go out as Latin-1 (see wireHeaders)
  });
};

/**
 * Custom headers as the service sends them: each value's UTF-8 bytes on the wire, as Go writes a
 * string. node:http writes a header's text as Latin-1 (one byte per character) when the body is a
 * Buffer, and refuses any character past U+00FF: the text given is the Latin-1 reading of the bytes.
 */
export function wireHeaders(headers: Record<string, string>): Record<string, string> {
  const wire: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) wire[name] = Buffer.from(value, 'utf8').toString('latin1');
  return wire;
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
