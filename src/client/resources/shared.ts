// What every resource method shares: params checked against the OpenAPI's request schema before
// anything is sent (the schemas and the checker load on first use, so they cost a client nothing up
// front), then one call through client.request, or one list operation through the paging engine.

import type { APIPromise } from '../../core/api-promise.js';
import { RequestValidationError } from '../../core/errors.js';
import type { Flashduty, RequestOptions } from '../client.js';
import type { ListShape } from '../list-shape.js';
import { ListPage, type ListOperation, ListPagePromise, type PagedRequest, snapshot } from '../paging.js';
import { checkBody, type OperationBody, type OperationData, type OperationPath, request } from '../request.js';

/** Throws RequestValidationError naming the first field of `params` that breaks the operation's request schema. */
export async function checkParams(path: OperationPath, params: unknown): Promise<void> {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new RequestValidationError('params', 'expected an object (the operation’s request body)');
  }
  await checkBody(path, params, true, 'params');
}

/** One operation: check the params, then call it; resolves to the response's `data`. */
export function send<P extends OperationPath>(
  client: Flashduty,
  path: P,
  params: OperationBody<P>,
  options?: RequestOptions,
): APIPromise<OperationData<P>> {
  return request(client, path, params, options, () => checkParams(path, params));
}

/** The item type of a list operation's `data.items`. */
export type ItemOf<P extends OperationPath> = OperationData<P> extends { items?: Array<infer Item> } ? Item : never;

/** How a list operation pages. */
export interface ListSpec<P extends OperationPath> {
  path: P;
  name: string;
  cursor?: boolean;
  number?: boolean;
  defaultLimit?: number;
  maxDepth?: number;
  window?: ListOperation<ItemOf<P>>['window'];
  idOf?: (item: ItemOf<P>) => string;
  shape?: ListShape;
}

/** A list operation of the engine, its params checked against the OpenAPI before the first request. */
export function listOperation<P extends OperationPath>(spec: ListSpec<P>): ListOperation<ItemOf<P>> {
  return {
    name: spec.name,
    path: spec.path.slice(1),
    cursor: spec.cursor ?? false,
    number: spec.number ?? false,
    defaultLimit: spec.defaultLimit ?? 20,
    ...(spec.maxDepth !== undefined ? { maxDepth: spec.maxDepth } : {}),
    ...(spec.window ? { window: spec.window } : {}),
    ...(spec.idOf ? { idOf: spec.idOf } : {}),
    prepare: (wire) => checkParams(spec.path, wire),
    ...(spec.shape ? { shape: spec.shape } : {}),
  };
}

/** A PagePromise over a list operation. */
export function list<P extends OperationPath>(
  client: Flashduty,
  operation: ListOperation<ItemOf<P>>,
  params: OperationBody<P>,
  options: RequestOptions = {},
): ListPagePromise<ItemOf<P>, OperationBody<P> & PagedRequest> {
  type Request = OperationBody<P> & PagedRequest;
  return new ListPagePromise<ItemOf<P>, Request, ListPage<ItemOf<P>, Request>>(
    client,
    operation,
    snapshot(params as Request),
    options,
    ListPage,
  );
}
