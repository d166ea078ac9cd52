// `npm run bench`: what a body sent in tiny chunks costs the receiver in memory. Ten deliveries of
// ~1 MiB each are in flight at once, each arriving one byte per chunk, as an attacker's 1-byte TCP
// segments reach nodeMiddleware: every chunk a Buffer of its own, handed to the request stream's
// 'data' listeners. Reported: heap and ArrayBuffer growth (after a full GC) while all ten are
// still arriving, as a ratio of the bytes in flight. Target ≤ 3×.
import { buildWebhookEvent } from '../dist/testing/index.js';
import { WebhookReceiver } from '../dist/webhooks/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const DELIVERIES = 10;
const BYTES = 1024 * 1024;
const LIMIT = 2 * 1024 * 1024;

type Listener = (...args: never[]) => void;
/** A request stream as nodeMiddleware meets it, driven by hand. */
function stream() {
  const listeners = new Map<string, Listener[]>();
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    on(event: string, listener: Listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return this;
    },
    emit(event: string, ...args: unknown[]) {
      for (const listener of listeners.get(event) ?? []) (listener as (...a: unknown[]) => void)(...args);
    },
  };
}

const used = () => {
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

const receiver = new WebhookReceiver({ maxBodyBytes: LIMIT, ackTimeoutMs: 600_000, logger: false });
const middleware = receiver.nodeMiddleware();
/** A valid delivery of `bytes` bytes, padded with a field the payload may carry. */
const delivery = (bytes: number) => {
  const event = buildWebhookEvent('i_new');
  return Buffer.from(JSON.stringify({ ...event, padding: 'x'.repeat(bytes - JSON.stringify(event).length - 14) }));
};
const body = delivery(BYTES);
const statuses: number[] = [];
const response = () => ({
  writeHead: (status: number) => void statuses.push(status),
  end: () => {},
  destroy: () => {},
});
/** Waits for the answers; every one must be a 200, or nothing was measured. */
async function answered(count: number): Promise<void> {
  while (statuses.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
  if (statuses.some((status) => status !== 200)) throw new Error(`answered ${statuses.join(', ')}, not 200s`);
}

// One delivery first: the middleware loads its node adapter with the first request, and this
// stream, unlike a socket's, does not wait for a reader before it emits.
const warm = stream();
middleware(warm, response());
await new Promise((resolve) => setTimeout(resolve, 100));
warm.emit('data', delivery(4096));
warm.emit('end');
await answered(1);
statuses.length = 0;

const before = used();
const streams = Array.from({ length: DELIVERIES }, () => stream());
for (const s of streams) middleware(s, response());
// Interleaved, one byte at a time, so that all ten are in flight together.
// Each chunk its own allocation, as each socket read is (a view into one buffer would share it).
const byte = (i: number) => {
  const chunk = Buffer.allocUnsafeSlow(1);
  chunk[0] = body[i] as number;
  return chunk;
};
for (let i = 0; i < body.length; i++) for (const s of streams) s.emit('data', byte(i));
const inFlight = used() - before;
for (const s of streams) s.emit('end');
await answered(DELIVERIES);
const ratio = inFlight / (DELIVERIES * BYTES);
console.log(
  `\n${DELIVERIES} deliveries of ${(BYTES / 1048576).toFixed(2)} MiB in 1-byte chunks: memory grew ${(inFlight / 1048576).toFixed(1)} MiB` +
    ` while in flight, ${ratio.toFixed(2)}× the ${((DELIVERIES * BYTES) / 1048576).toFixed(1)} MiB in flight (target ≤ 3×)`,
);
process.exit(0); // the receiver's deadline timers (ackTimeoutMs) would keep the process up
