// The operations whose params, result or pages have names of their own in the SDK, in one table:
// the incident list (`ListIncidentsParams`, its pages made by `IncidentPagePromise`, and
// `listIncidents`, the name its walks' messages and resume tokens carry) and the webhook history (its
// types in src/schemas/webhook-history.ts). The generated methods (resources.ts) use these names and
// classes, and the operation's paging rule carries `name` (methods.ts); every other operation's
// types and pages are the rule's.

export interface Named {
  /** The type of the method's params. */
  params: string;
  /** The type the method returns. */
  result: string;
  /** For a list: the page promise class it returns (a ListPagePromise whose pages are of a class of their own). */
  pages?: string;
  /** For a list: the name its walks' messages and resume tokens carry, instead of its method's. */
  name?: string;
}

export const NAMED: Readonly<Record<string, Named>> = {
  '/incident/list': {
    params: 'ListIncidentsParams',
    result: 'IncidentPagePromise',
    pages: 'IncidentPagePromise',
    name: 'listIncidents',
  },
  '/webhook/history/list': { params: 'ListWebhookHistoryParams', result: 'WebhookHistoryPagePromise' },
  '/webhook/history/detail': { params: 'GetWebhookHistoryDetailRequest', result: 'APIPromise<WebhookHistoryDetail>' },
};

/** Where each name the table uses is exported from, relative to src/. */
export const MODULES: Readonly<Record<string, string>> = {
  ListIncidentsParams: 'schemas/list.js',
  IncidentPagePromise: 'client/pagination/incident-page.js',
  ListWebhookHistoryParams: 'schemas/webhook-history.js',
  WebhookHistoryPagePromise: 'client/resources/types.js',
  GetWebhookHistoryDetailRequest: 'schemas/webhook-history.js',
  WebhookHistoryDetail: 'schemas/webhook-history.js',
};
