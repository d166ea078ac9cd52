// withResponse(): a call's promise resolves to its result like any promise, and `withResponse()`
// also gives the HTTP answer the result came from, as openai-node's APIPromise does. The answer's
// description (headers scrubbed of the app key) is built only when asked for, so a call that never
// asks pays one `then` for it. A page keeps its answer in a private field and shows it through the
// RESPONSE method, which its class has on its prototype: nothing per page beyond the field.

import { type Redactor, scrubHeaders } from '../internal/redact.js';
import { FlashdutyError } from './api-errors.js';

/** The HTTP answer a result came from. */
export interface ResponseInfo {
  /** The HTTP status. */
  status: number;
  /** The response headers (a copy, scrubbed of the app key). */
  headers: Headers;
  /** The request id the server gave the call. */
  requestId: string;
  /** The request URL, with `app_key=***`. */
  url: string;
}

/** What `withResponse()` resolves to. */
export interface WithResponse<T> {
  /** What the promise itself resolves to. */
  data: T;
  /** The HTTP answer of the (last) attempt. */
  response: ResponseInfo;
}

/** A call's promise: a `Promise` of its result, with {@link APIPromise.withResponse}. */
export interface APIPromise<T> extends Promise<T> {
  /** The result together with the HTTP answer it came from: `{ data, response }`. */
  withResponse(): Promise<WithResponse<T>>;
}

/** @internal An answer as the request loop keeps it: headers as received, scrubbed when shown. */
export interface Answer {
  status: number;
  requestId: string;
  url: string;
  headers: Headers;
  /** The call's own scrub, where it carried a token of its own (the client's knows only its credential). */
  scrub?: Redactor;
}

/** @internal The method by which an object built from an HTTP answer (a page) shows it. */
export const RESPONSE: unique symbol = Symbol('flashduty.response');

const ignore = (): void => {};

/** @internal What `withResponse()` shows of an answer: its headers scrubbed of the key. */
export function responseInfo({ status, requestId, url, headers, scrub: own }: Answer, scrub: Redactor): ResponseInfo {
  return { status, headers: scrubHeaders(headers, own ?? scrub), requestId, url };
}

/** @internal A call's promise from its result and the answer it came from. */
export function apiPromise<T>(result: Promise<{ data: T; answer: Answer }>, scrub: Redactor): APIPromise<T> {
  const promise = result.then(({ data }) => data) as APIPromise<T>;
  promise.withResponse = () => {
    // The caller observes the outcome through this promise: the plain one's rejection is handled too.
    promise.catch(ignore);
    return result.then(({ data, answer }) => ({ data, response: responseInfo(answer, scrub) }));
  };
  return promise;
}

/** @internal The answer an object was built from; a FlashdutyError if it was not built from one. */
export function responseOf(target: object): ResponseInfo {
  const show = (target as { [RESPONSE]?: unknown })[RESPONSE];
  if (typeof show !== 'function') throw new FlashdutyError('withResponse(): not built from an HTTP answer');
  return (show as () => ResponseInfo).call(target);
}
