// `src/generated/resources/`: every operation as a named, typed and documented method of its
// namespace (`client.<resource>[.<sub>].<verb>`), one file per root namespace with its sub-namespaces,
// and `index.ts`, whose Resources class (the client's base) makes the root namespaces. Each method is
// one line over the one call path (src/client/resources/resource.ts), so go-to-definition and stack
// traces land on it. What a method's TSDoc says, once for every operation: the OpenAPI's summary and
// description; the fields that take a `Date` (with their unit), an array (with their allowed values)
// or go into the path; an operation's own token; paging, forms and NDJSON answers; where an operation
// the newest OpenAPI lacks was kept from.

import { SOURCES } from './merge.js';
import type { Described } from './methods.js';
import { MODULES, NAMED } from './named.js';

/** `Members`, `ChannelsEscalateRules`: a namespace's class name. */
function typeName(namespace: string): string {
  return namespace
    .split('.')
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');
}

/** A TSDoc block, its text escaped for a comment. */
function doc(lines: string[], indent: string): string {
  const text = lines.flatMap((line) => line.replace(/\*\//g, '*\\/').split('\n'));
  return `${indent}/**\n${text.map((line) => `${indent} *${line ? ` ${line}` : ''}`).join('\n')}\n${indent} */`;
}

interface Namespace {
  methods: Described[];
  children: Set<string>;
}

/** The files of `src/generated/resources/`, by name: one per root namespace, and `index.ts`. */
export function resourceFiles(operations: Described[], header: string): Map<string, string> {
  const namespaces = new Map<string, Namespace>();
  const ensure = (name: string) => {
    let entry = namespaces.get(name);
    if (!entry) namespaces.set(name, (entry = { methods: [], children: new Set() }));
    return entry;
  };
  for (const operation of operations) {
    const parts = operation.method.split('.');
    ensure(parts.slice(0, -1).join('.')).methods.push(operation);
    for (let i = 1; i < parts.length - 1; i++)
      ensure(parts.slice(0, i).join('.')).children.add(parts.slice(0, i + 1).join('.'));
  }
  /** The path segment of a namespace's operations, for its documentation. */
  const segment = (name: string) => operations.find((o) => o.method.startsWith(`${name}.`))?.path.split('/')[1];
  const roots = [...namespaces.keys()].filter((name) => !name.includes('.')).sort();
  const files = new Map<string, string>();
  for (const root of roots) {
    const tree = [...namespaces.entries()]
      .filter(([name]) => name === root || name.startsWith(`${root}.`))
      .sort(([a], [b]) => (a < b ? -1 : 1));
    const classes = tree.map(([name, namespace]) => namespaceClass(name, namespace, namespaces, segment(name)));
    const body = classes.join('\n\n');
    files.set(
      `${root}.ts`,
      `${header}
// \`client.${root}\`${tree.length > 1 ? ' and its sub-namespaces' : ''}: the operations under \`/${segment(root)}/\`.
// Each is a named method of one line over the one call path (src/client/resources/resource.ts).

${imports(body)}

${body}
`,
    );
  }
  const index = `${header}
// The client's resource namespaces: Resources, the base class of Flashduty, makes one of each root
// namespace (client.incidents, client.members, …), each of its sub-namespaces in turn; the methods
// are the namespaces' own (one file per root namespace beside this one).

import type { Flashduty } from '../../client/client.js';
${roots.map((root) => `import { ${typeName(root)} } from './${root}.js';`).join('\n')}

${roots.map((root) => `export type * from './${root}.js';`).join('\n')}

/** Every resource namespace of the client. */
export class Resources {
${roots.map((root) => `${doc([`The operations under \`/${segment(root)}/\`.`], '  ')}\n  readonly ${root}: ${typeName(root)};`).join('\n')}

  /** @internal Made as the base of a Flashduty client, which every namespace calls through. */
  constructor() {
    const client = this as unknown as Flashduty;
${roots.map((root) => `    this.${root} = new ${typeName(root)}(client, '${root}');`).join('\n')}
  }
}
`;
  files.set('index.ts', index);
  return files;
}

/** A namespace's class: its sub-namespaces as fields, then its methods. */
function namespaceClass(
  name: string,
  { methods, children }: Namespace,
  all: Map<string, Namespace>,
  segment: string | undefined,
): string {
  const members = [
    ...[...children].sort().map((child) => {
      const verbs = all.get(child)?.methods.map((m) => m.method.split('.').pop()) ?? [];
      const last = child.split('.').pop() as string;
      return `${doc([`\`${child}\`: ${verbs.join(', ')}.`], '  ')}\n  readonly ${last} = new ${typeName(child)}(this, '${last}');`;
    }),
    ...methods.map((operation) => method(operation)),
  ];
  return `${doc([`\`client.${name}\`: the operations under \`/${segment}/\`.`], '')}\nexport class ${typeName(name)} extends Resource {\n${members.join('\n')}\n}`;
}

/** The imports a file's classes use: the base class, the types of the method layer, and the named types. */
function imports(body: string): string {
  const used = (name: string) => new RegExp(`\\b${name}\\b`).test(body);
  const lines = [
    ...(used('APIPromise') ? ["import type { APIPromise } from '../../core/api-promise.js';"] : []),
    `import type { ${['RequestOptions', 'TokenRequestOptions'].filter(used).join(', ')} } from '../../client/client-options.js';`,
    "import { Resource } from '../../client/resources/resource.js';",
  ];
  const types = ['Data', 'ListPagePromiseOf', 'Params'].filter(used);
  if (types.length > 0) lines.push(`import type { ${types.join(', ')} } from '../../client/resources/types.js';`);
  const byModule = new Map<string, { values: string[]; types: string[] }>();
  const pages = new Set(Object.values(NAMED).flatMap((named) => (named.pages ? [named.pages] : [])));
  for (const [name, module] of Object.entries(MODULES)) {
    if (!used(name)) continue;
    const entry = byModule.get(module) ?? { values: [], types: [] };
    // A page promise class is made by its method (a value); the other names are types.
    (pages.has(name) && new RegExp(`, ${name}\\)`).test(body) ? entry.values : entry.types).push(name);
    byModule.set(module, entry);
  }
  for (const [module, { values, types: named }] of [...byModule].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const list = [...values, ...named.map((type) => (values.length > 0 ? `type ${type}` : type))];
    lines.push(`import ${values.length > 0 ? '' : 'type '}{ ${list.join(', ')} } from '../../${module}';`);
  }
  return lines.join('\n');
}

/** "`a`" or "`a` and `b`" or "`a`, `b` and `c`". */
function names(fields: string[]): string {
  const quoted = fields.map((field) => `\`${field}\``);
  return quoted.length < 2 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

/** What the TSDoc says of the fields that take a `Date` (with their unit), an array (with their values), or go into the path. */
function fieldNotes({ times, lists, pathParams, token }: Described): string[] {
  const byUnit = (unit: 's' | 'ms') => Object.keys(times).filter((field) => times[field] === unit);
  const unitName = { s: 'Unix seconds', ms: 'Unix milliseconds' } as const;
  const notes = (['s', 'ms'] as const).flatMap((unit) => {
    const fields = byUnit(unit);
    if (fields.length === 0) return [];
    return [
      `${names(fields)} ${fields.length === 1 ? 'is' : 'are'} ${unitName[unit]}, and take${fields.length === 1 ? 's' : ''} a \`Date\` as well.`,
    ];
  });
  for (const [field, values] of Object.entries(lists)) {
    const allowed = values.length > 0 ? ` of ${values.join(', ')} (any other is refused before sending)` : '';
    notes.push(`\`${field}\` is a comma-separated list${allowed}: it takes an array as well.`);
  }
  if (pathParams.length > 0)
    notes.push(
      `${names(pathParams)} ${pathParams.length === 1 ? 'goes' : 'go'} into the path (encoded), not the body.`,
    );
  if (token) {
    notes.push(
      'Authenticated by a token of its own, not the client’s credential: pass it as the option `token` (sent as `Authorization: Bearer`; the app key or access token is not sent).',
    );
  }
  return notes;
}

/** Where an operation the newest file lacks comes from, as its TSDoc says it. */
function sourceNote(file: string): string {
  const source = SOURCES.find((entry) => entry.file === file);
  return source?.ours
    ? `Described in ${file}: no vendored OpenAPI file lists it (the vendor’s Go SDK calls it; see openapi/SOURCES.md).`
    : `Kept from ${file} (${source?.origin ?? 'an older file'}): the newest OpenAPI description does not list it.`;
}

/** The type of a method's params: `Params<path, time fields, { list field: its values }>`. */
function paramsType({ path, times, lists }: Described): string {
  const timeKeys =
    Object.keys(times)
      .map((t) => JSON.stringify(t))
      .join(' | ') || 'never';
  const listValues = Object.entries(lists).map(
    ([field, values]) =>
      `${JSON.stringify(field)}: ${values.length > 0 ? values.map((v) => JSON.stringify(v)).join(' | ') : 'string'}`,
  );
  return `Params<${JSON.stringify(path)}, ${timeKeys}${listValues.length > 0 ? `, { ${listValues.join('; ')} }` : ''}>`;
}

/** A method: its TSDoc, then one line, its signature and its call (`_send` for data, `_list` for a PagePromise). */
function method(operation: Described): string {
  const { path, http, summary, description, required, paging, method, multipart, ndjson, source, token } = operation;
  const notes = fieldNotes(operation);
  const list = Boolean(paging);
  const lines = [
    `${summary} (\`${http} ${path}\`).`,
    ...(description && description !== summary ? ['', description] : []),
    ...(notes.length > 0 ? ['', notes.join(' ')] : []),
    ...(list ? ['', '`await` gives the first page; `for await` walks every item of every page.'] : []),
    ...(multipart
      ? ['', 'Sent as `multipart/form-data`: give the file as a `File` (its name is sent) or a `Blob`.']
      : []),
    ...(ndjson
      ? [
          '',
          `Resolves to the answer’s NDJSON lines, each parsed, read whole within \`maxResponseBytes\`${
            operation.orEnvelope ? '; or, where the request asks for an envelope instead, to its `data`' : ''
          }.`,
        ]
      : []),
    ...(source ? ['', sourceNote(source)] : []),
  ];
  const result = list
    ? `ListPagePromiseOf<${JSON.stringify(path)}, ${JSON.stringify(paging?.items ?? 'items')}>`
    : `APIPromise<Data<${JSON.stringify(path)}>>`;
  const verb = method.split('.').pop() as string;
  const named = NAMED[path];
  const options = token ? 'options: TokenRequestOptions' : 'options?: RequestOptions';
  const call = list
    ? `this._list('${verb}', params, options${named?.pages ? `, ${named.pages}` : ''})`
    : `this._send('${verb}', params, options)`;
  const signature = `${verb}(params${required ? '' : '?'}: ${named?.params ?? paramsType(operation)}, ${options}): ${named?.result ?? result}`;
  return `${doc(lines, '  ')}\n  ${signature} { return ${call}; }`;
}
