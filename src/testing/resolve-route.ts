// Which route of the mock a request path is: the route itself, or under a base path
// (`/api/incident/list`) the longest route it ends with, so that `/insight/incident/list` is never
// taken for `/incident/list`. A route with path parameters (`/safari/automation/triggers/{trigger_id}/fire`)
// matches any one segment in their place, and gives their values, decoded.

/** A route with path parameters, as a pattern that matches a path ending with it. */
interface Template {
  route: string;
  names: string[];
  pattern: RegExp;
}

/** What a list of routes is looked up by: the plain ones as a set, the ones with parameters as patterns. */
interface Table {
  plain: Set<string>;
  templates: Template[];
}

const tables = new Map<readonly string[], Table>();

function tableOf(routes: readonly string[]): Table {
  let table = tables.get(routes);
  if (!table) {
    const templates = routes
      .filter((route) => route.includes('{'))
      .map((route) => {
        const names = [...route.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
        const source = route
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('([^/]+)');
        return { route, names, pattern: new RegExp(`${source}$`) };
      });
    table = { plain: new Set(routes.filter((route) => !route.includes('{'))), templates };
    tables.set(routes, table);
  }
  return table;
}

/** The route of `pathname` among `routes`, and its path parameters. */
export function resolveRoute(
  pathname: string,
  routes: readonly string[],
): { path: string; params: Record<string, string> } {
  const path = pathname.replace(/\/+$/, '') || '/';
  const { plain, templates } = tableOf(routes);
  if (plain.has(path)) return { path, params: {} };
  for (const { route, names, pattern } of templates) {
    const match = pattern.exec(path);
    if (!match) continue;
    try {
      const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] as string)]));
      return { path: route, params };
    } catch {
      return { path, params: {} }; // a parameter that is not valid percent-encoding: no route
    }
  }
  let best: string | undefined;
  for (const known of plain) if (path.endsWith(known) && known.length > (best?.length ?? 0)) best = known;
  return { path: best ?? path, params: {} };
}
