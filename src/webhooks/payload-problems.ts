// Why a body is not a valid default payload, and the slower checks of its JSON text (where malformed
// text stops, how deep a text with many brackets nests): the required fields of each kind as tables of rules,
// walked only to explain a failure (the check that runs on every delivery is payload.ts'
// `validKind`, which a property test keeps in agreement with these tables). The receiver loads this
// file with the first invalid delivery; `checkPayload` and `readDefaultPayload` use it directly.

import type { Problem } from '../core/problem.js';
import { FlashdutyError } from '../internal/flashduty-error.js';
import { isObject } from '../internal/guards.js';
import {
  ID_EXPECTED,
  isId,
  isInteger,
  isMilliseconds,
  isNonEmptyString,
  isOptionalObject,
  isString,
  isValidFast,
  kindOf,
  MAX_ID_LENGTH,
} from './payload.js';

/**
 * Where a delivery breaks the payload contract.
 *
 * @deprecated The same as {@link Problem}; use that name.
 */
export type PayloadProblem = Problem;

type Rule = [field: string, valid: (v: unknown) => boolean, expected: string];

const COMMON: Rule[] = [
  ['event_type', isNonEmptyString, 'a non-empty string'],
  ['event_time', isInteger, 'an integer (milliseconds)'],
  ['person', isOptionalObject, 'an object'],
];
/** An incident's or alert's time, judged against watermarks in milliseconds. */
const IN_MILLISECONDS: Rule = ['event_time', isMilliseconds, 'Unix milliseconds'];
const INCIDENT: Rule[] = [
  ['incident_id', isId, ID_EXPECTED],
  ['title', isString, 'a string'],
  ['incident_severity', isNonEmptyString, 'a non-empty string'],
  ['incident_status', isNonEmptyString, 'a non-empty string'],
  ['progress', isNonEmptyString, 'a non-empty string'],
  ['created_at', isInteger, 'an integer (seconds)'],
  ['updated_at', isInteger, 'an integer (seconds)'],
  ['start_time', isInteger, 'an integer (seconds)'],
  ['detail_url', isString, 'a string'],
];
const ALERT: Rule[] = [
  ['alert_id', isId, ID_EXPECTED],
  ['title', isString, 'a string'],
  ['alert_severity', isNonEmptyString, 'a non-empty string'],
  ['alert_status', isNonEmptyString, 'a non-empty string'],
  ['progress', isNonEmptyString, 'a non-empty string'],
  ['channel_id', isInteger, 'an integer'],
  ['created_at', isInteger, 'an integer (seconds)'],
  ['updated_at', isInteger, 'an integer (seconds)'],
  ['start_time', isInteger, 'an integer (seconds)'],
  ['last_time', isInteger, 'an integer (seconds)'],
  ['incident', isOptionalObject, 'an object'],
];

/** What a value is, in words that quote none of it (answers are kept in the sender's history). */
function describe(v: unknown, expected?: string): string {
  if (expected === IN_MILLISECONDS[2] && isInteger(v)) return 'what reads as seconds';
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v === '' ? 'an empty string' : 'a string';
  if (typeof v === 'number')
    return !Number.isInteger(v) ? 'a fraction' : Number.isSafeInteger(v) ? 'a number' : 'an unsafe integer';
  return `a ${typeof v}`;
}

/** `undefined` when `body` is a valid delivery of any kind; otherwise the first field at fault. */
export function checkPayload(body: unknown): Problem | undefined {
  return isValidFast(body) ? undefined : findProblem(body);
}

/** The first field at fault, by the tables. */
export function findProblem(body: unknown): Problem | undefined {
  if (!isObject(body)) return { path: '', message: `expected a JSON object, got ${describe(body)}` };
  const kind = kindOf(body);
  const inner = kind === 'other' ? undefined : kind;
  const object = inner && body[inner];
  // The id may sit inside `incident` (custom actions) only when it is not at the top.
  const idInside =
    kind === 'incident' && body.event_id === undefined && isObject(object) && object.event_id !== undefined;
  const id = idInside
    ? fieldProblem(object, ['event_id', isId, ID_EXPECTED], 'incident.')
    : fieldProblem(body, ['event_id', isId, ID_EXPECTED], '');
  if (id) return id;
  for (const rule of COMMON) {
    const problem = fieldProblem(body, rule, '');
    if (problem) return problem;
  }
  if (!inner) return undefined;
  const time = fieldProblem(body, IN_MILLISECONDS, '');
  if (time) return time;
  if (!isObject(object)) return { path: inner, message: `expected an object, got ${describe(object)}` };
  for (const rule of inner === 'incident' ? INCIDENT : ALERT) {
    const problem = fieldProblem(object, rule, `${inner}.`);
    if (problem) return problem;
  }
  return undefined;
}

function fieldProblem(
  object: Record<string, unknown>,
  [field, valid, expected]: Rule,
  prefix: string,
): Problem | undefined {
  const value = object[field];
  if (valid(value)) return undefined;
  const path = `${prefix}${field}`;
  if (expected === ID_EXPECTED && typeof value === 'string' && value !== '')
    return {
      path,
      message: value.length > MAX_ID_LENGTH ? `longer than ${MAX_ID_LENGTH} characters` : 'not well-formed Unicode',
    };
  return { path, message: `expected ${expected}, got ${describe(value, expected)}` };
}

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
  // Thrown to stop at `i` (a FlashdutyError: this file is built apart, and only the SDK's own
  // errors, recognised across copies, may be thrown from such a file).
  const STOP = new FlashdutyError('not JSON');
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
