// Resume tokens, written and read in one place: a page's token is the operation's name, the params'
// fingerprint (their hash without the paging fields) and where the walk goes next (a window, and a
// cursor or page number in it), as base64 of JSON. `resumeFrom` accepts only a token of the same
// operation and params, so a walk never resumes into another list's position.

import { RequestValidationError } from '../../core/api-errors.js';
import type { ListOperation, PageContext, PagedRequest } from './operation.js';

/** What a resume token holds. @internal */
export interface Token {
  v: 1;
  op: string;
  f: string;
  w: number;
  c?: string;
  p?: number;
  end?: true;
}

/** Where the walk goes after a page. @internal */
export type Next = Omit<Token, 'v' | 'op' | 'f'>;

/** A page's token. */
export function encodeToken(next: Next, operation: ListOperation<never>, context: PageContext): string {
  const token: Token = { v: 1, op: operation.name, f: context.fingerprint(), ...next };
  return btoa(encodeURIComponent(JSON.stringify(token))).replace(/=+$/, '');
}

/** The params without their paging fields, hashed (FNV-1a over canonical JSON): what a token belongs to. */
export function fingerprint(wire: PagedRequest): string {
  const { p: _p, search_after_ctx: _c, ...rest } = wire;
  const text = canonical(rest);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
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
export function decodeToken(text: unknown, operation: ListOperation<never>, print: string): Token {
  let token: Partial<Token> | undefined;
  try {
    token = typeof text === 'string' ? (JSON.parse(decodeURIComponent(atob(text))) as Partial<Token>) : undefined;
  } catch {
    token = undefined;
  }
  if (!token || token.v !== 1 || typeof token.w !== 'number') {
    throw new RequestValidationError('resumeFrom', 'expected the resumeToken of a page');
  }
  if (token.op !== operation.name || token.f !== print) {
    throw new RequestValidationError(
      'resumeFrom',
      `the token belongs to other params (or another list than ${operation.name}); resume with the params it came from`,
    );
  }
  return token as Token;
}
