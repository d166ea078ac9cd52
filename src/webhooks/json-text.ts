// JSON text the receiver refuses, explained, and JSON text too deep to take: where malformed text
// stops being JSON (the position a 400 names, never the text: the service keeps answers in its
// delivery history), and whether text nests deeper than a limit, counted outside strings. Both run
// only on text that needs them: a refused text, and one with more opening brackets than the limit.

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPE = /["\\/bfnrt]|u[0-9a-fA-F]{4}/y;

/**
 * Where text that `JSON.parse` refused stops being JSON: the offset (in UTF-16 units) of the first
 * character that cannot continue it, or its length when it ends too early. Runs only on text
 * already refused, nested no deeper than the receiver allows (so the recursion is bounded); what
 * the runtime's own message says is not used, as it quotes the text and differs between runtimes.
 */
export function jsonErrorAt(text: string): number {
  let i = 0;
  // Thrown to stop at `i`, caught below: it never leaves this function.
  const STOP = new Error('not JSON');
  const fail = (): never => {
    throw STOP;
  };
  const space = () => {
    for (let c = text.charCodeAt(i); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = text.charCodeAt(++i));
  };
  const expect = (char: string) => {
    space();
    if (text[i] !== char) fail();
    i++;
  };
  const string = () => {
    expect('"');
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c) || c < 0x20) fail();
      i++;
      if (c === 0x22) return;
      if (c === 0x5c) {
        ESCAPE.lastIndex = i;
        if (!ESCAPE.test(text)) fail();
        i = ESCAPE.lastIndex;
      }
    }
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{' || c === '[') {
      i++;
      const close = c === '{' ? '}' : ']';
      space();
      if (text[i] === close) return void i++;
      for (;;) {
        if (close === '}') {
          string();
          expect(':');
        }
        value();
        space();
        if (text[i] === close) return void i++;
        expect(',');
      }
    }
    if (c === '"') return string();
    for (const literal of ['true', 'false', 'null']) if (text.startsWith(literal, i)) return void (i += literal.length);
    NUMBER.lastIndex = i;
    if (!NUMBER.test(text)) fail();
    i = NUMBER.lastIndex;
  };
  try {
    value();
    space();
    if (i < text.length) fail();
  } catch (error) {
    if (error === STOP) return i;
    throw error;
  }
  return text.length; // JSON after all: the runtime refused it for another reason (its size)
}

/**
 * Whether JSON text opens more than `limit` objects or arrays at once, counting brackets outside
 * strings (each string skipped whole by `indexOf`). Malformed text is counted as well as it reads;
 * JSON.parse refuses it after. Runs only on text with more opening brackets than `limit` (ingress.ts).
 */
export function nestedDeeper(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // To the closing quote: one not preceded by an odd number of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0) return false;
        let slashes = 0;
        while (text.charCodeAt(i - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
