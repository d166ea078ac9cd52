// Resume tokens, written and read in one place: a page's token is the list's name, the params'
// fingerprint (their hash without the paging fields) and where the walk goes next (a window, and a
// cursor or page number in it), as base64 of JSON. `resumeFrom` accepts only a token of the same
// list and params, so a walk never resumes into another list's position.

import { RequestValidationError } from '../../core/api-errors.js';
import { hashOf } from '../../internal/hash.js';
import type { Position } from './scheme.js';

/** What a resume token holds. @internal */
export interface Token extends Position {
  v: 1;
  op: string;
  f: string;
  /** The window the walk goes on in. */
  w: number;
  /** The walk has nothing after this page. */
  end?: true;
}

/** Where the walk goes after a page: a window, and a position in it, or the end. @internal */
export type Next = Omit<Token, 'v' | 'op' | 'f'>;

/** A page's token. */
export function encodeToken(name: string, fingerprint: string, next: Next): string {
  const token: Token = { v: 1, op: name, f: fingerprint, ...next };
  return btoa(encodeURIComponent(JSON.stringify(token))).replace(/=+$/, '');
}

/** The params without their position (their cursor, page number or offset), hashed (FNV-1a over canonical JSON): what a token belongs to. */
export function fingerprint(base: Record<string, unknown>): string {
  return hashOf(canonical(base)).toString(36);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The token a walk resumes from, checked: a RequestValidationError for anything but a token of these params. */
export function decodeToken(text: unknown, name: string, print: string): Token {
  let token: Partial<Token> | undefined;
  try {
    token = typeof text === 'string' ? (JSON.parse(decodeURIComponent(atob(text))) as Partial<Token>) : undefined;
  } catch {
    token = undefined;
  }
  if (!token || token.v !== 1 || typeof token.w !== 'number') {
    throw new RequestValidationError('resumeFrom', 'expected the resumeToken of a page');
  }
  if (token.op !== name || token.f !== print) {
    throw new RequestValidationError(
      'resumeFrom',
      `the token belongs to other params (or another list than ${name}); resume with the params it came from`,
    );
  }
  return token as Token;
}
