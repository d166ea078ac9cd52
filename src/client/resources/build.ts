// The client's resource namespaces (client.incidents, client.members.roles, …), built at
// construction from the generated table of method names: every method is a function of a few
// words over the one call path (call.ts), so adding an operation to the OpenAPI adds a method with
// no hand-written code. Their types come from the generated interfaces (src/generated/resources.ts).

import { RESOURCE_METHODS } from '../../generated/resources.js';
import type { Flashduty, RequestOptions } from '../client.js';
import { IncidentPagePromise } from '../pagination/incident-page.js';
import { callMethod, listMethod, type PagePromiseClass } from './call.js';

/** List methods whose pages the API names with a class of their own. */
const PAGE_CLASSES: Record<string, PagePromiseClass> = {
  'incidents.list': IncidentPagePromise as unknown as PagePromiseClass,
};

/** Defines every namespace of the generated table on `client`, each method bound to it. */
export function buildResources(client: Flashduty): void {
  for (const [namespace, verbs] of Object.entries(RESOURCE_METHODS)) {
    let target = client as unknown as Record<string, unknown>;
    for (const part of namespace.split('.')) {
      if (!Object.hasOwn(target, part)) {
        Object.defineProperty(target, part, { value: {}, enumerable: true });
      }
      target = target[part] as Record<string, unknown>;
    }
    for (const word of verbs.split(' ')) {
      const list = word.startsWith('*');
      const verb = list ? word.slice(1) : word;
      const method = `${namespace}.${verb}`;
      target[verb] = list
        ? (params?: unknown, options?: RequestOptions) =>
            listMethod(client, method, params, options, PAGE_CLASSES[method])
        : (params?: unknown, options?: RequestOptions) => callMethod(client, method, params, options);
    }
  }
}
