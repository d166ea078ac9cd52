// The runtime side for workerd: a Worker as a user writes one, bundled by the test with esbuild
// (as wrangler does) and run by Miniflare. `/client` runs the client checks against the mock whose
// address is in `?mock=`, `/hooks` is the receiver's fetchHandler, `/seen` what its handlers saw.
import { clientChecks, createReceiver, type MockAddress } from './checks.js';

const { receiver, seen } = createReceiver();

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/client')
      return Response.json(await clientChecks(JSON.parse(url.searchParams.get('mock') ?? '{}') as MockAddress));
    if (url.pathname === '/hooks') return receiver.fetchHandler(request);
    if (url.pathname === '/seen') return Response.json(seen);
    return new Response('not found', { status: 404 });
  },
};
