// The operations whose params, result or pages have names of their own in the SDK's types, in one
// table: the incident list (`ListIncidentsParams`, `IncidentPagePromise`, and `listIncidents`, the
// name its walks' messages and resume tokens carry) and the webhook history (its types in
// src/schemas/webhook-history.ts). The typed methods (resources.ts) use these names, and the
// operation's paging rule carries `name` (methods.ts); every other operation's types are the rule's.

export interface Named {
  /** The type of the method's params. */
  params: string;
  /** The type the method returns. */
  result: string;
  /** For a list: the name its walks' messages and resume tokens carry, instead of its method's. */
  name?: string;
}

export const NAMED: Readonly<Record<string, Named>> = {
  '/incident/list': { params: 'ListIncidentsParams', result: 'IncidentPagePromise', name: 'listIncidents' },
  '/webhook/history/list': { params: 'ListWebhookHistoryParams', result: 'WebhookHistoryPagePromise' },
  '/webhook/history/detail': { params: 'GetWebhookHistoryDetailRequest', result: 'APIPromise<WebhookHistoryDetail>' },
};
