// Every paging scheme, in the one list the generator and the client read: the generator asks each,
// in this order, whether an operation of the OpenAPI pages by it (the first for each mode wins), and
// writes what it answers into the operation's paging rule; the client asks each which scheme a rule
// names. A new scheme is a file beside these and its line here.

import type { PagingRule } from '../../resources/rules.js';
import type { PagingMode, PagingScheme, SchemeKind } from '../scheme.js';
import { CursorPaging } from './cursor.js';
import { OffsetPaging } from './offset.js';
import { PageNumberPaging } from './page-number.js';

export const SCHEMES: readonly SchemeKind[] = [CursorPaging, PageNumberPaging, OffsetPaging];

/** The schemes of an operation with this rule, by mode (cursor first: the default where it has both). */
export function schemesOf(paging: PagingRule): Map<PagingMode, PagingScheme> {
  const schemes = new Map<PagingMode, PagingScheme>();
  for (const kind of SCHEMES) {
    const scheme = schemes.has(kind.by) ? undefined : kind.of(paging);
    if (scheme) schemes.set(kind.by, scheme);
  }
  return schemes;
}
