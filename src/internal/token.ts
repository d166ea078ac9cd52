// Tokens unique across processes (claims of the webhook stores, slots of the shared rate limiter):
// a random prefix per process and a counter, so that making one costs no randomness. The prefix is
// made with the first token: a module-level value would stay in every bundle that imports this file
// (a bundler cannot tell that Math.random() has no side effects), the receiver's up front included.

let processNonce: string | undefined;
let counter = 0;

/** A token unique enough to tell holders apart across processes. */
export function uniqueToken(): string {
  processNonce ??= Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${processNonce}.${counter.toString(36)}`;
}
