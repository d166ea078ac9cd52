// The time windows of a list whose requests may span a limited range (incidents and alerts: 31
// days). A walk splits the params' range into consecutive windows of at most that length, in the
// requested order, and walks each in turn; the next window's first request is the params narrowed
// to it. Rules owned here: one request alone (an awaited first page) must fit; neighbouring
// windows share their edge second, and an item at that second belongs to the window walked first (the
// next window drops it), a rule that needs no memory, so resuming is exact.

import { RequestValidationError } from '../../core/api-errors.js';
import type { PagingRule } from '../resources/rules.js';
import type { WireRequest } from './scheme.js';

/** A window's range, `[start_time, end_time]`. */
export type Range = [number, number];

/** A request's range must fit the operation's longest window when it is sent alone (iteration splits it). */
export function checkWindowLength(paging: PagingRule, request: WireRequest): void {
  const max = paging.window;
  if (max !== undefined && rangeOf(request)[1] - rangeOf(request)[0] > max) {
    throw new RequestValidationError(
      'end_time',
      `the window must not exceed ${max / 86_400} days; iterate the result (for await, .items(), .pages()) to walk a longer range`,
    );
  }
}

/** The windows a walk of `request` goes through, in the requested order; undefined where the operation has none. */
export function windowsOf(paging: PagingRule, request: WireRequest): Range[] | undefined {
  if (paging.window === undefined) return undefined;
  const [start, end] = rangeOf(request);
  return splitWindows(start, end, request.asc === true, paging.window);
}

/** Consecutive windows of at most `max` in the requested order; neighbours share their edge second. */
export function splitWindows(start: number, end: number, ascending: boolean, max: number): Range[] {
  const windows: Range[] = [];
  if (ascending) {
    for (let from = start; from < end; from += max) windows.push([from, Math.min(from + max, end)]);
  } else {
    for (let to = end; to > start; to -= max) windows.push([Math.max(to - max, start), to]);
  }
  return windows.length > 0 ? windows : [[start, end]];
}

/** `request` narrowed to a window: itself where the window is its whole range. */
export function inWindow<Request extends WireRequest>(request: Request, window: Range | undefined): Request {
  if (!window) return request;
  const [start, end] = rangeOf(request);
  return window[0] === start && window[1] === end
    ? request
    : { ...request, start_time: window[0], end_time: window[1] };
}

/** The second a window shares with the one walked before it, whose items that window drops; none for the first. */
export function edgeOf(windows: readonly Range[] | undefined, index: number, ascending: boolean): number | undefined {
  const before = index > 0 ? windows?.[index - 1] : undefined;
  return before?.[ascending ? 1 : 0];
}

/**
 * Whether an item's time (the field the operation's windows filter on: incidents' and alerts'
 * `start_time`) is `edge`, in the field's own unit: a window's edge is in both windows around it.
 */
export function atEdge(item: unknown, paging: PagingRule, edge: number): boolean {
  const time = Number((item as Record<string, unknown>)[paging.windowField ?? 'start_time']);
  return time === edge * (paging.windowFieldUnits ?? 1);
}

function rangeOf(request: WireRequest): Range {
  const { start_time: start, end_time: end } = request;
  return [typeof start === 'number' ? start : 0, typeof end === 'number' ? end : 0];
}
