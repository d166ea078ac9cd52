// The ids the mock makes: object ids (24 hex digits that begin with their time, as the service's
// incidents, alerts and rules have) and, for a resource family, ids shaped like the OpenAPI's example
// of one: a number of as many digits, an object id, or a prefix such as `cal.` and as many random
// letters and digits, each of the example's kind.

import type { Random } from '../model/random.js';

/** An object id of `seconds`: 8 hex digits of the time, 16 random. */
export function objectId(seconds: number, random: Random): string {
  return Math.max(0, Math.floor(seconds)).toString(16).padStart(8, '0').slice(-8) + random.hex(16);
}

/**
 * A new id shaped like `example`: a number of as many digits (4 at least), an object id (24 hex
 * digits beginning with the time), or text: the example's prefix (`cal.`, `a2a_`) and as many
 * random letters and digits, each of the example's kind; `taken` says which are in use.
 */
export function newId(
  example: string | number | undefined,
  random: Random,
  nowSeconds: number,
  taken: (id: string | number) => boolean,
): string | number {
  for (;;) {
    const id = idLike(example, random, nowSeconds);
    if (!taken(id)) return id;
  }
}

function idLike(example: string | number | undefined, random: Random, nowSeconds: number): string | number {
  if (typeof example !== 'string') {
    const digits = Math.max(String(example ?? 1000131).length, 4);
    return random.int(10 ** (digits - 1), 10 ** digits - 1);
  }
  const [, prefix = '', rest = ''] = /^([A-Za-z0-9]+[._])?(.*)$/.exec(example) ?? [];
  if (/^[0-9a-f]{24}$/.test(rest) || !/^[A-Za-z0-9]+$/.test(rest)) return prefix + objectId(nowSeconds, random);
  return prefix + rest.replace(/[0-9]|[a-z]|[A-Z]/g, (c) => randomLike(c, random));
}

function randomLike(c: string, random: Random): string {
  if (c >= '0' && c <= '9') return String(random.int(0, 9));
  const letter = String.fromCharCode(97 + random.int(0, 25));
  return c >= 'a' && c <= 'z' ? letter : letter.toUpperCase();
}
