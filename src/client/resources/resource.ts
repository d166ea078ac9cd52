// The base class of the generated namespaces, and the one call path of their methods. Every method
// of src/generated/resources/ (client.incidents, client.members.roles, …) is one named line,
// `this._send(verb, …)` for an operation that resolves to its answer's `data`, or
// `this._list(verb, …)` for a list, which returns a PagePromise at once. Both hand the call to
// call.ts, which loads with the first call together with the generated tables, so a client that is
// only constructed carries none of them; client.request(path, …) takes the same way.

import type { APIPromise } from '../../core/api-promise.js';
import { lazy } from '../../internal/lazy.js';
import type { Flashduty } from '../client.js';
import type { RequestOptions } from '../client-options.js';
import type { PagedRequest } from '../pagination/operation.js';
import type { ListPage } from '../pagination/page.js';
import { type ListOpener, ListPagePromise } from '../pagination/page-promise.js';

/** @internal How an operation is called once the tables have loaded (call.ts), imported with the first call. */
export const loadCall = lazy(() => import('./call.js'));

/** A namespace of the client: `client.incidents`, `client.incidents.alerts`. */
export abstract class Resource {
  /** The client every method calls through. */
  readonly #client: Flashduty;
  /** The namespace's dotted name (`incidents.alerts`): its methods are `<name>.<verb>`. */
  readonly #name: string;

  /**
   * @internal Namespaces are made by the client (`parent`), and sub-namespaces by their namespace.
   * Their methods are bound to them, so that a method handed on alone (`ids.map(client.incidents.info)`,
   * the command line's dispatch) still calls through its client.
   */
  constructor(parent: Flashduty | Resource, name: string) {
    const within = parent instanceof Resource;
    this.#client = within ? parent.#client : parent;
    this.#name = within ? `${parent.#name}.${name}` : name;
    const self = this as unknown as Record<string, unknown>;
    for (const key of Object.getOwnPropertyNames(Object.getPrototypeOf(this))) {
      const value = self[key];
      if (key !== 'constructor' && typeof value === 'function') self[key] = value.bind(this);
    }
  }

  /** @internal A method whose call resolves to its answer's `data` (typed by the generated signature). */
  protected _send<T>(verb: string, params: unknown, options: RequestOptions | undefined): APIPromise<T> {
    const client = this.#client;
    const method = `${this.#name}.${verb}`;
    return client._call<T>(() => loadCall().then((call) => call.sendMethod(client, method, params, options)));
  }

  /**
   * @internal A list method: a PagePromise at once, a ListPagePromise or of `Promise_`'s class (one
   * the API names: IncidentPagePromise); the params are copied now (what the caller changes later is
   * not sent), converted and checked with the first page or walk.
   */
  protected _list<P>(verb: string, params: unknown, options: RequestOptions | undefined): P;
  protected _list<Item, Request extends PagedRequest, Page extends ListPage<Item, Request>, P>(
    verb: string,
    params: unknown,
    options: RequestOptions | undefined,
    Promise_: new (open: ListOpener<Item, Request, Page>) => P,
  ): P;
  protected _list(
    verb: string,
    params: unknown,
    options: RequestOptions = {},
    Promise_: new (open: ListOpener<unknown, PagedRequest, ListPage<unknown>>) => unknown = ListPagePromise,
  ): unknown {
    const client = this.#client;
    const method = `${this.#name}.${verb}`;
    const copy = typeof params === 'object' && params !== null && !Array.isArray(params) ? { ...params } : params;
    return new Promise_((Page) => loadCall().then((call) => call.openList(client, method, copy, options, Page)));
  }
}
