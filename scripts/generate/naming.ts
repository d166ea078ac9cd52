// The naming rule of the generated methods, and the short table of names that do not follow it.
// The rule (stated in the README, "Every operation a method"):
//   - the resource is the path's first segment, camelCase and plural: `/incident/ack` → `incidents`,
//     `/status-page/…` → `statusPages`, `/alert-event/list` → `alertEvents`;
//   - the segments between the first and the last make one sub-resource, joined in camelCase and
//     plural: `/channel/escalate/rule/list` → `channels.escalateRules`, `/incident/war-room/list` →
//     `incidents.warRooms`;
//   - the last segment is the verb, camelCase: `/incident/list-by-ids` → `incidents.listByIds`.
// A first segment that names a product rather than a resource (PRODUCTS: `/safari/` is AI SRE) is
// not a resource: the segments between it and the verb make the resource, joined in camelCase and
// plural (`/safari/mcp/server/list` → `mcpServers.list`, `/safari/a2a-agent/enable` → `a2aAgents.enable`).
// A product's area with resources of its own (AREAS: `/safari/automation/` is AI SRE's
// automations, with rules, runs, templates and triggers) is one namespace, its next segments the
// sub-resource: `/safari/automation/rule/create` → `automations.rules.create`. A path parameter
// (`{trigger_id}`) is no segment of the name: `/safari/automation/triggers/{trigger_id}/fire` →
// `automations.triggers.fire`.
// A name the rule would make awkward, or one the SDK's users call by another name, is in
// OVERRIDES with its reason. The generator refuses two paths with one name, and a name that is both
// a method and a namespace.

/** Paths whose method name is not the rule's, each with the reason. */
export const OVERRIDES: Record<string, { method: string; why: string }> = {
  '/incident/responder/add': { method: 'incidents.addResponder', why: 'a name users already call' },
  '/alert/event/list': { method: 'alerts.events', why: 'a name users already call: the events of one alert' },
  '/webhook/history/list': { method: 'webhookHistory.list', why: 'a name users already call' },
  '/webhook/history/detail': { method: 'webhookHistory.detail', why: 'a name users already call' },
  '/incident/past/list': { method: 'incidents.listPast', why: '"past" has no plural: the rule would say pasts' },
  '/member/info/reset': {
    method: 'members.resetInfo',
    why: 'the rule would make a namespace `infos` beside the method `info`',
  },
  '/monit/rule/list/basic': {
    method: 'monitors.rules.list',
    why: 'the only list of rules; "basic" is the service’s variant name, not a resource',
  },
  '/monit/rule/delete/batch': { method: 'monitors.rules.deleteBatch', why: 'a verb with a modifier, not a resource' },
  '/monit/rule/update/fields': { method: 'monitors.rules.updateFields', why: 'a verb with a modifier, not a resource' },
  '/status-page/change/active/list': {
    method: 'statusPages.changes.listActive',
    why: '"active" filters the changes, it is no resource: the rule would say changeActives (as incidents.listPast)',
  },
  '/datasource/im/person/try-link': {
    method: 'datasources.im.persons.tryLink',
    why: 'IM is an acronym with no plural (as rum), and its methods sit under `datasources.im`: the rule would say imPersons',
  },
  '/incident/post-mortem/basics/reset': {
    method: 'incidents.postMortems.resetBasics',
    why: 'resets a part of a post-mortem, no resource of its own (as members.resetInfo): the rule would say postMortemBasics',
  },
  '/incident/post-mortem/status/reset': {
    method: 'incidents.postMortems.resetStatus',
    why: 'resets a part of a post-mortem, no resource of its own (as members.resetInfo)',
  },
  '/incident/post-mortem/title/reset': {
    method: 'incidents.postMortems.resetTitle',
    why: 'resets a part of a post-mortem, no resource of its own (as members.resetInfo)',
  },
  '/incident/post-mortem/follow-ups/reset': {
    method: 'incidents.postMortems.resetFollowUps',
    why: 'resets a part of a post-mortem, no resource of its own (as members.resetInfo)',
  },
  '/datasource/im/war-room-enabled/list': {
    method: 'datasources.im.listWarRoomEnabled',
    why: 'IM is an acronym with no plural (as rum), and "war-room-enabled" filters the list: the rule would say imWarRoomEnableds',
  },
};

/** First segments whose plural the rule would get wrong, or that the service names otherwise. */
const RESOURCES: Record<string, { name: string; why: string }> = {
  monit: { name: 'monitors', why: 'the product is "Monitors" (the OpenAPI’s tags); "monits" is no word' },
  rum: { name: 'rum', why: 'an acronym (Real User Monitoring) with no plural' },
};

/**
 * First segments that name a product, not a resource: the resource is what follows. AI SRE's paths
 * (`/safari/skill/…`, `/safari/mcp/server/…`) would otherwise all be one namespace `safaris`, a word
 * nobody calls them by, and its resources would sit a level deeper than every other product's;
 * `client.skills`, `client.a2aAgents` also read as the siblings of the fixed `deleteSkill` and
 * `enableA2AAgent`.
 */
const PRODUCTS: Record<string, { why: string }> = {
  safari: { why: 'the AI SRE product (Safari), whose paths name skills, MCP servers, A2A agents and sessions' },
  oncall: { why: 'the On-call product, whose `/oncall/license/list` names its licenses: `licenses`, not `oncalls`' },
};

/**
 * Areas of a product whose paths name several resources of their own (`/safari/automation/rule/…`,
 * `…/run/…`, `…/template/…`, `…/triggers/…`): one namespace, the resources its members. Flattened by
 * the product rule they would read `automationRules`, `automationRuns`, …: four namespaces of one thing.
 */
const AREAS: Record<string, { name: string; why: string }> = {
  'safari/automation': { name: 'automations', why: 'AI SRE’s Automations: rules, their runs, templates and triggers' },
};

/** The method name the rule gives a path (`'/channel/escalate/rule/list'` → `'channels.escalateRules.list'`). */
export function methodName(path: string): string {
  const override = OVERRIDES[path];
  if (override) return override.method;
  const segments = path.split('/').filter((segment) => segment !== '' && !/^\{.+\}$/.test(segment));
  const area = AREAS[segments.slice(0, 2).join('/')];
  if (area) {
    const [, , ...inner] = segments;
    const verb = inner.pop();
    if (!verb || inner.length === 0)
      throw new Error(`generate: ${path} names no resource in its area; add it to OVERRIDES`);
    return `${area.name}.${plural(camel(inner.join('-')))}.${camel(verb)}`;
  }
  if (segments.length < 2) throw new Error(`generate: ${path} has no verb segment; add it to OVERRIDES`);
  const [first, ...rest] = segments as [string, ...string[]];
  const verb = camel(rest.pop() as string);
  if (PRODUCTS[first]) {
    if (rest.length === 0) throw new Error(`generate: ${path} names no resource after /${first}/; add it to OVERRIDES`);
    return `${plural(camel(rest.join('-')))}.${verb}`;
  }
  const resource = RESOURCES[first]?.name ?? plural(camel(first));
  const sub = rest.length > 0 ? plural(camel(rest.join('-'))) : undefined;
  return [resource, sub, verb].filter(Boolean).join('.');
}

/** `list-by-ids` → `listByIds`. */
export function camel(text: string): string {
  return text.replace(/[-_]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** English plural of a camelCase name's last word: rule → rules, policy → policies, data stays. */
export function plural(name: string): string {
  if (/(data|s)$/i.test(name)) return name;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(x|ch|sh)$/.test(name)) return `${name}es`;
  return `${name}s`;
}

/**
 * Every path's method, checked: no two paths share a name, and no name is both a method and a
 * namespace. With `partial` (an older description alone, for the report of what changed), OVERRIDES
 * may name paths it does not have.
 */
export function methodNames(paths: string[], partial = false): Map<string, string> {
  const byPath = new Map(paths.map((path) => [path, methodName(path)]));
  const owners = new Map<string, string>();
  for (const [path, method] of byPath) {
    const other = owners.get(method);
    if (other) throw new Error(`generate: ${other} and ${path} would both be ${method}; add one to OVERRIDES`);
    owners.set(method, path);
  }
  for (const [path, method] of byPath) {
    if ([...owners.keys()].some((name) => name.startsWith(`${method}.`))) {
      throw new Error(`generate: ${method} (${path}) is also a namespace of other methods; add one to OVERRIDES`);
    }
  }
  for (const path of partial ? [] : Object.keys(OVERRIDES)) {
    if (!byPath.has(path)) throw new Error(`generate: OVERRIDES names ${path}, which the OpenAPI no longer has`);
  }
  return byPath;
}
