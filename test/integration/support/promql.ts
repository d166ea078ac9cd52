// What a PromQL query asks of a Prometheus scrape, read closely enough to check it against the text a
// real exporter printed: the Prometheus text format parsed into samples, and a query's metric names,
// label matchers and grouping labels. A query is checked by whether each of its selectors selects at
// least one sample (every matcher satisfied by one sample) and whether each label it groups by is on
// a sample of a metric it names. A name the exporter does not print, a label it does not put on that
// metric, a value no sample has, a Grafana variable or a function this reader does not know: each is
// a problem, never skipped.

/** One sample line of the scrape: its metric name and labels. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
}

/** The samples of a scrape in the Prometheus text format (comments and blank lines left out). */
export function parseScrape(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+\S+/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[name as string] = JSON.parse(`"${value as string}"`) as string;
    samples.push({ name: match[1] as string, labels });
  }
  return samples;
}

/** A label matcher of a selector: `error_type!=""`. */
export interface Matcher {
  label: string;
  op: '=' | '!=' | '=~' | '!~';
  value: string;
}

/** What a query names: its selectors (a metric and its matchers) and the labels it groups by. */
export interface QueryParts {
  selectors: Array<{ metric: string; matchers: Matcher[] }>;
  groupBy: string[];
}

/** PromQL's functions and aggregations that the dashboard and docs may use. */
const FUNCTIONS = new Set([
  'abs',
  'absent',
  'avg',
  'avg_over_time',
  'bottomk',
  'ceil',
  'clamp_max',
  'clamp_min',
  'count',
  'count_over_time',
  'delta',
  'floor',
  'histogram_quantile',
  'increase',
  'irate',
  'max',
  'max_over_time',
  'min',
  'min_over_time',
  'quantile',
  'rate',
  'round',
  'sort',
  'sort_desc',
  'sum',
  'sum_over_time',
  'topk',
  'vector',
]);
const GROUPING = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const OPERATORS = new Set(['and', 'or', 'unless', 'bool', 'offset']);
const TOKEN =
  /\s+|#[^\n]*|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\[[^\]]*\]|[a-zA-Z_:][a-zA-Z0-9_:]*|\d+(?:\.\d+)?(?:e[+-]?\d+)?|!=|=~|!~|==|>=|<=|[{}(),=<>+\-*/^%]/y;

function tokens(query: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < query.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(query);
    if (!match) throw new Error(`cannot read the query at ${JSON.stringify(query.slice(at, at + 20))}: ${query}`);
    if (!/^\s|^#/.test(match[0])) out.push(match[0]);
  }
  return out;
}

const unquote = (token: string) => JSON.parse(token.startsWith("'") ? `"${token.slice(1, -1)}"` : token) as string;

/** The metric names, matchers and grouping labels of a PromQL query (comments allowed). */
export function partsOf(query: string): QueryParts {
  if (query.includes('$')) throw new Error(`a variable is left in the query: ${query}`);
  const list = tokens(query);
  const parts: QueryParts = { selectors: [], groupBy: [] };
  const matchersFrom = (start: number): [Matcher[], number] => {
    const matchers: Matcher[] = [];
    let i = start + 1;
    while (list[i] !== '}') {
      const [label, op, value] = [list[i], list[i + 1], list[i + 2]];
      if (!label || !['=', '!=', '=~', '!~'].includes(op ?? '') || !/^["']/.test(value ?? ''))
        throw new Error(`cannot read the matchers of: ${query}`);
      matchers.push({ label, op: op as Matcher['op'], value: unquote(value as string) });
      i += 3;
      if (list[i] === ',') i++;
    }
    return [matchers, i];
  };
  for (let i = 0; i < list.length; i++) {
    const token = list[i] as string;
    if (GROUPING.has(token)) {
      if (list[i + 1] !== '(') continue;
      for (i += 2; list[i] !== ')'; i++) if (list[i] !== ',') parts.groupBy.push(list[i] as string);
    } else if (OPERATORS.has(token)) {
      continue;
    } else if (FUNCTIONS.has(token)) {
      continue; // `sum(…)`, `sum by (…) (…)`
    } else if (/^[a-zA-Z_:]/.test(token) && list[i + 1] === '(') {
      throw new Error(`unknown function ${token} in: ${query}`);
    } else if (/^[a-zA-Z_:]/.test(token)) {
      let matchers: Matcher[] = [];
      if (list[i + 1] === '{') [matchers, i] = matchersFrom(i + 1);
      parts.selectors.push({ metric: token, matchers });
    } else if (token === '{') {
      let matchers: Matcher[];
      [matchers, i] = matchersFrom(i);
      const name = matchers.find((m) => m.label === '__name__' && m.op === '=');
      if (!name) throw new Error(`a selector without a metric name: ${query}`);
      parts.selectors.push({ metric: name.value, matchers: matchers.filter((m) => m !== name) });
    }
  }
  if (parts.selectors.length === 0) throw new Error(`no metric in: ${query}`);
  return parts;
}

function satisfies(sample: Sample, { label, op, value }: Matcher): boolean {
  const actual = sample.labels[label] ?? ''; // a label a sample lacks reads as empty, as in Prometheus
  if (op === '=') return actual === value;
  if (op === '!=') return actual !== value;
  const matches = new RegExp(`^(?:${value})$`).test(actual);
  return op === '=~' ? matches : !matches;
}

/** What in `query` the scrape does not have: an empty list when every part of it selects data. */
export function problemsOf(query: string, scrape: Sample[]): string[] {
  const problems: string[] = [];
  const { selectors, groupBy } = partsOf(query);
  for (const { metric, matchers } of selectors) {
    const samples = scrape.filter((sample) => sample.name === metric);
    if (samples.length === 0) {
      problems.push(`no metric ${metric} in the scrape`);
      continue;
    }
    for (const { label } of matchers)
      if (!samples.some((sample) => label in sample.labels)) problems.push(`${metric} has no label ${label}`);
    if (!samples.some((sample) => matchers.every((matcher) => satisfies(sample, matcher))))
      problems.push(`no sample of ${metric} matches ${JSON.stringify(matchers)}`);
  }
  const named = scrape.filter((sample) => selectors.some(({ metric }) => metric === sample.name));
  for (const label of groupBy)
    if (!named.some((sample) => label in sample.labels)) problems.push(`no metric of the query has a label ${label}`);
  return problems;
}
