// receiver.nodeMiddleware(): the node adapter translates, and nothing else: a request (its method,
// headers and body, streamed or parsed by a body parser already) into the receiver's input, and the
// reply into writeHead/end, or into destroy() for a reply to drop; what the response refuses goes to
// `next`, or closes the connection where there is none. The request is a real node Readable (a
// PassThrough); the response records what it was told.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildWebhookEvent } from '../../../../src/testing/index.js';
import { MemoryStateStore, WebhookReceiver } from '../../../../src/webhooks/index.js';

/** A request (method POST unless told) and a response that records what it was told. */
function exchange(method = 'POST', headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const req = Object.assign(new PassThrough(), { method, headers }) as PassThrough & {
    method: string;
    headers: Record<string, string>;
    body?: unknown;
    _body?: boolean;
  };
  let settle: () => void = () => {};
  const res = {
    status: 0,
    headers: {} as Readonly<Record<string, string>>,
    body: '',
    destroyed: false,
    done: new Promise<void>((resolve) => (settle = resolve)),
    writeHead(status: number, headers: Readonly<Record<string, string>>) {
      this.status = status;
      this.headers = headers;
    },
    end(body?: string) {
      this.body = body ?? '';
      settle();
    },
    destroy() {
      this.destroyed = true;
      settle();
    },
  };
  return { req, res };
}

describe('receiver.nodeMiddleware()', () => {
  it("writes the reply's status, headers and body", async () => {
    const { req, res } = exchange();
    new WebhookReceiver({ logger: false }).nodeMiddleware()(req, res);
    req.end(JSON.stringify(buildWebhookEvent('i_ack')));
    await res.done;
    expect(res).toMatchObject({
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: '{"outcome":"accepted"}',
      destroyed: false,
    });
  });

  it('takes a body a parser already read, without touching the stream', async () => {
    const { req, res } = exchange();
    req.body = buildWebhookEvent('i_ack');
    req._body = true; // what express.json() sets
    new WebhookReceiver({ logger: false }).nodeMiddleware()(req, res);
    await res.done;
    expect(res.status).toBe(200);
  });

  it('closes the connection for a reply to drop (the delivery could not be recorded)', async () => {
    const store = new MemoryStateStore();
    store.claim = (() => Promise.reject(new Error('store down'))) as never;
    const { req, res } = exchange();
    new WebhookReceiver({ store, logger: false }).nodeMiddleware()(req, res);
    req.end(JSON.stringify(buildWebhookEvent('i_ack')));
    await res.done;
    expect(res).toMatchObject({ status: 0, destroyed: true });
  });

  it('answers a non-POST as the receiver says: 405, whatever the adapter', async () => {
    const { req, res } = exchange('GET', {});
    new WebhookReceiver({ logger: false }).nodeMiddleware()(req, res);
    await res.done;
    expect(res).toMatchObject({ status: 405, body: '{"outcome":"rejected","reason":"use POST"}' });
    expect(res.headers).toMatchObject({ Allow: 'POST', Connection: 'close' });
  });

  it('hands what the response refuses (another middleware answered first) to next', async () => {
    const { req, res } = exchange();
    res.writeHead = () => {
      throw new Error('ERR_HTTP_HEADERS_SENT');
    };
    const passed = new Promise<unknown>((resolve) =>
      new WebhookReceiver({ logger: false }).nodeMiddleware()(req, res, resolve),
    );
    req.end(JSON.stringify(buildWebhookEvent('i_ack')));
    expect(await passed).toEqual(new Error('ERR_HTTP_HEADERS_SENT'));
  });

  it('closes the connection when the response refuses the reply and there is no next (plain node:http)', async () => {
    const { req, res } = exchange();
    res.writeHead = () => {
      throw new Error('ERR_HTTP_HEADERS_SENT');
    };
    new WebhookReceiver({ logger: false }).nodeMiddleware()(req, res);
    req.end(JSON.stringify(buildWebhookEvent('i_ack')));
    await res.done;
    expect(res.destroyed).toBe(true);
  });

  it('a request it cannot read (a body getter that throws): told to "error", the connection closed, nothing unhandled', async () => {
    const { req, res } = exchange();
    Object.defineProperty(req, 'body', {
      get() {
        throw new Error('body getter failed');
      },
    });
    const receiver = new WebhookReceiver({ logger: false });
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    receiver.nodeMiddleware()(req, res);
    await res.done;
    expect(res.destroyed).toBe(true);
    expect(errors).toEqual([new Error('body getter failed')]);
  });
});

describe('receiver.nodeMiddleware(): the adapter loads with the member', () => {
  it('answers a request that came before its code loaded, and the ones after', async () => {
    const receiver = new WebhookReceiver({ logger: false });
    const middleware = receiver.nodeMiddleware();
    const first = exchange();
    middleware(first.req, first.res); // before the load: its body stays in the stream meanwhile
    first.req.end(JSON.stringify(buildWebhookEvent('i_ack')));
    await first.res.done;
    expect(first.res.status).toBe(200);
    const second = exchange();
    middleware(second.req, second.res);
    second.req.end(JSON.stringify(buildWebhookEvent('i_ack')));
    await second.res.done;
    expect(second.res).toMatchObject({ status: 200, body: '{"outcome":"accepted"}' });
  });
});
