// The runtime side for Bun and Deno: run the checks on the built package, serve the receiver's
// fetchHandler with the runtime's own HTTP server on loopback, post deliveries to it over real
// HTTP, and print one `RESULT {json}` line for the test to assert on.
import { clientChecks, createReceiver, type MockAddress, webhookScenario } from './checks.js';

interface Listening {
  url: string;
  stop(): Promise<void>;
}
type Handler = (request: Request) => Promise<Response>;
interface BunLike {
  argv: string[];
  serve(options: { hostname: string; port: number; fetch: Handler }): {
    port: number;
    stop(force?: boolean): Promise<void> | void;
  };
}
interface DenoLike {
  args: string[];
  serve(
    options: { hostname: string; port: number; onListen(): void },
    handler: Handler,
  ): { addr: { port: number }; shutdown(): Promise<void> };
}
const { Bun, Deno } = globalThis as { Bun?: BunLike; Deno?: DenoLike };

function listen(handler: Handler): Listening {
  if (Bun) {
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler });
    return { url: `http://127.0.0.1:${server.port}/hooks`, stop: async () => void (await server.stop(true)) };
  }
  if (Deno) {
    const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, handler);
    return { url: `http://127.0.0.1:${server.addr.port}/hooks`, stop: () => server.shutdown() };
  }
  throw new Error('neither Bun nor Deno');
}

const args = Bun ? Bun.argv.slice(2) : (Deno?.args ?? []);
const mock = JSON.parse(args[0] ?? '{}') as MockAddress;
const client = await clientChecks(mock);
const { receiver, seen } = createReceiver();
const server = listen(receiver.fetchHandler);
try {
  const webhooks = await webhookScenario((init) => fetch(server.url, init));
  console.log(`RESULT ${JSON.stringify({ runtime: Bun ? 'bun' : 'deno', client, webhooks, seen })}`);
} finally {
  await server.stop();
}
