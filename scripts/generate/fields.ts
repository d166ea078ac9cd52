// Which request fields get the SDK's conveniences and checks, read from the OpenAPI by one rule each,
// with the short tables of what the OpenAPI does not say. Rules owned here:
// - a Unix-time field is an integer, at any depth of the request, whose description says Unix,
//   epoch or timestamp (not a duration); milliseconds when it says milli, else seconds. A field
//   whose partner (`start` ↔ `end`, `_start` ↔ `_end`, `after` ↔ `before`) is one is one too, in the
//   same unit. TIMES adds the few whose description names neither. Such a field takes a `Date`;
//   its documentation names its unit;
// - a comma-separated field is a top-level string described as comma-separated; its allowed values
//   are those its description lists after "Allowed values:", or LIST_VALUES's (the contract's), else
//   any. It takes an array too, and a value outside the allowed ones is refused before sending.

/** A schema as far as these rules read it. */
export interface FieldSchema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, FieldSchema>;
  allOf?: FieldSchema[];
  items?: FieldSchema;
}

type Resolve = (schema: FieldSchema | undefined) => FieldSchema | undefined;

/** Unix-time fields the descriptions do not mark, by path, each with its unit and why. */
export const TIMES: Record<string, Record<string, { unit: 's' | 'ms'; why: string }>> = {
  '/incident/post-mortem/list': {
    created_at_start_seconds: { unit: 's', why: '"Filter by creation time: lower bound in seconds": a creation time' },
    created_at_end_seconds: { unit: 's', why: '"Filter by creation time: upper bound in seconds": a creation time' },
  },
};

/** The values of comma-separated filters whose descriptions do not list them all, from the contract. */
export const LIST_VALUES: Record<string, Record<string, string[]>> = {
  '/incident/list': {
    // The contract (spec, POST /incident/list): "Comma-separated severities from Critical, Warning, Info".
    incident_severity: ['Critical', 'Warning', 'Info'],
    // The contract's progress states (Triggered, Processing, Closed); the description gives an example only.
    progress: ['Triggered', 'Processing', 'Closed'],
  },
};

const isInteger = (schema: FieldSchema | undefined) => [schema?.type ?? []].flat().includes('integer');

/** The unit a description gives a Unix time, or undefined when it describes none. */
function unitOf(description: string): 's' | 'ms' | undefined {
  if (!/unix|epoch|timestamp/i.test(description) || /duration/i.test(description)) return undefined;
  return /milli/i.test(description) ? 'ms' : 's';
}

/** `start` ↔ `end`, `created_at_start_seconds` ↔ `created_at_end_seconds`, `started_after` ↔ `started_before`. */
function partnerOf(name: string): string | undefined {
  const swaps: Array<[RegExp, string]> = [
    [/(^|_)start(_|$)/, '$1end$2'],
    [/(^|_)end(_|$)/, '$1start$2'],
    [/(^|_)after(_|$)/, '$1before$2'],
    [/(^|_)before(_|$)/, '$1after$2'],
  ];
  for (const [from, to] of swaps) if (from.test(name)) return name.replace(from, to);
  return undefined;
}

/**
 * The required fields of an object schema, through `$ref` and `allOf`, whichever way `resolve`
 * follows a reference (the OpenAPI's `#/components/schemas/…`, or the compacted schemas' names).
 */
export function requiredOf<S extends { required?: string[]; allOf?: S[] }>(
  resolve: (schema: S | undefined) => S | undefined,
  schema: S | undefined,
  depth = 0,
): string[] {
  const resolved = depth > 16 ? undefined : resolve(schema);
  const parts = resolved?.allOf ?? [];
  return [...(resolved?.required ?? []), ...parts.flatMap((part) => requiredOf(resolve, part, depth + 1))];
}

/** Every property of an object schema, through `$ref` and `allOf`. */
export function propertiesOf(resolve: Resolve, schema: FieldSchema | undefined): Record<string, FieldSchema> {
  const resolved = resolve(schema);
  if (!resolved) return {};
  const own = { ...resolved.properties };
  for (const part of resolved.allOf ?? []) Object.assign(own, propertiesOf(resolve, part));
  return own;
}

/**
 * The Unix-time fields of a request whose top-level fields are `fields`, by their place (`start_time`,
 * `time_filter.start_time`, `layers[].groups[].start`), each with its unit.
 */
export function timeFields(
  resolve: Resolve,
  path: string,
  fields: Record<string, FieldSchema>,
): Record<string, 's' | 'ms'> {
  const found: Record<string, 's' | 'ms'> = {};
  const visit = (properties: Record<string, FieldSchema>, at: string, depth: number) => {
    if (depth > 8) return;
    const own: Record<string, 's' | 'ms'> = {};
    for (const [name, field] of Object.entries(properties)) {
      const unit = isInteger(resolve(field))
        ? unitOf(field.description ?? resolve(field)?.description ?? '')
        : undefined;
      if (unit) own[name] = unit;
    }
    for (const name of Object.keys(properties)) {
      const partner = partnerOf(name);
      if (!(name in own) && partner && own[partner] && isInteger(resolve(properties[name]))) own[name] = own[partner];
    }
    for (const [name, unit] of Object.entries(own)) found[`${at}${name}`] = unit;
    for (const [name, field] of Object.entries(properties)) {
      const resolved = resolve(field);
      const types = [resolved?.type ?? []].flat();
      if (types.includes('array')) visit(propertiesOf(resolve, resolved?.items), `${at}${name}[].`, depth + 1);
      else if (!isInteger(resolved)) visit(propertiesOf(resolve, resolved), `${at}${name}.`, depth + 1);
    }
  };
  visit(fields, '', 0);
  for (const [name, { unit }] of Object.entries(TIMES[path] ?? {})) {
    if (!(name in fields)) throw new Error(`generate: fields.ts TIMES names ${path} ${name}, which it does not have`);
    if (found[name]) throw new Error(`generate: fields.ts TIMES names ${path} ${name}, which the rule finds already`);
    found[name] = unit;
  }
  return found;
}

/**
 * The schema of the field at a place (`time_filter.start_time`, `layers[].start`) among a request's
 * top-level `fields`: the document's own object, so that what is written to it shows in the types.
 */
export function fieldAt(resolve: Resolve, fields: Record<string, FieldSchema>, place: string): FieldSchema | undefined {
  let properties = fields;
  const steps = place.split('.');
  for (const [i, step] of steps.entries()) {
    const each = step.endsWith('[]');
    const field = properties[each ? step.slice(0, -2) : step];
    if (i === steps.length - 1) return field;
    properties = propertiesOf(resolve, each ? resolve(field)?.items : field);
  }
  return undefined;
}

/** The comma-separated fields of a request, each with its allowed values (empty: any). */
export function listFields(path: string, fields: Record<string, FieldSchema>): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const [name, field] of Object.entries(fields)) {
    const text = field.description ?? '';
    if ([field.type].flat().includes('string') && /comma-separated/i.test(text)) {
      const allowed = /Allowed values:((?:\s*`[^`]+`,?)+)/i.exec(text)?.[1];
      found[name] = allowed ? [...allowed.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string) : [];
    }
  }
  for (const [name, values] of Object.entries(LIST_VALUES[path] ?? {})) {
    if (found[name] === undefined)
      throw new Error(`generate: fields.ts LIST_VALUES names ${path} ${name}, no comma-separated field`);
    if (found[name].length > 0)
      throw new Error(`generate: ${path} ${name} lists its values now; drop it from LIST_VALUES`);
    found[name] = values;
  }
  return found;
}
