// `src/generated/resources.ts`: every operation as a typed, documented method of its namespace
// (`client.<resource>[.<sub>].<verb>`), and the table of names the client builds them from. What a
// method's TSDoc says, once for every operation: the OpenAPI's summary and description; the fields
// that take a `Date` (with their unit), an array (with their allowed values) or go into the path; an
// operation's own token; paging, forms and NDJSON answers; where an operation the newest OpenAPI
// lacks was kept from.

import { SOURCES } from './merge.js';
import type { Described } from './methods.js';
import { NAMED } from './named.js';

/** `Members`, `ChannelsEscalateRules`: a namespace's interface name. */
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

/** `src/generated/resources.ts`: the typed namespaces, and the table their methods are built from. */
export function resourcesFile(operations: Described[], header: string): string {
  const namespaces = new Map<string, { methods: Described[]; children: Set<string> }>();
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
  const roots = [...namespaces.keys()].filter((name) => !name.includes('.')).sort();
  const interfaces = [...namespaces.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, { methods, children }]) => {
      const members = [
        ...[...children].sort().map((child) => {
          const last = child.split('.').pop() as string;
          return `${doc(
            [
              `\`${child}\`: ${namespaces
                .get(child)
                ?.methods.map((m) => m.method.split('.').pop())
                .join(', ')}.`,
            ],
            '  ',
          )}\n  readonly ${last}: ${typeName(child)};`;
        }),
        ...methods.map((operation) => methodSignature(operation)),
      ];
      return `${doc([`\`client.${name}\`: the operations under \`/${operations.find((o) => o.method.startsWith(`${name}.`))?.path.split('/')[1]}/\`.`], '')}\nexport interface ${typeName(name)} {\n${members.join('\n')}\n}`;
    });
  const table = [...namespaces.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .filter(([, { methods }]) => methods.length > 0)
    .map(([name, { methods }]) => {
      const verbs = methods.map((m) => `${m.paging ? '*' : ''}${m.method.split('.').pop()}`);
      return `  ${JSON.stringify(name)}: ${JSON.stringify(verbs.join(' '))},`;
    });
  return `${header}
// Every operation as a method \`client.<resource>[.<sub>].<verb>\`: the namespaces' types with the
// OpenAPI's summary and description, and the table the client builds them from at construction
// (src/client/resources/build.ts). The table holds only names, so the methods cost the up-front bundle
// almost nothing; their paths, retry policies and paging load with the first call.

import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions, TokenRequestOptions } from '../client/client-options.js';
import type { Data, ListPagePromiseOf, Params, WebhookHistoryPagePromise } from '../client/resources/types.js';
import type { IncidentPagePromise } from '../client/pagination/incident-page.js';
import type { ListIncidentsParams } from '../schemas/list.js';
import type { GetWebhookHistoryDetailRequest, ListWebhookHistoryParams, WebhookHistoryDetail } from '../schemas/webhook-history.js';

${interfaces.join('\n\n')}

/** Every resource namespace of the client. */
export interface Resources {
${roots.map((root) => `${doc([`The operations under \`/${operations.find((o) => o.method.startsWith(`${root}.`))?.path.split('/')[1]}/\`.`], '  ')}\n  readonly ${root}: ${typeName(root)};`).join('\n')}
}

/**
 * @internal The verbs of each namespace, space-separated; \`*\` marks a list method (it returns a
 * PagePromise). The client builds \`client.<namespace>.<verb>\` from it.
 */
export const RESOURCE_METHODS: Record<string, string> = {
${table.join('\n')}
};
`;
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

function methodSignature(operation: Described): string {
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
  return `${doc(lines, '  ')}\n  ${verb}(params${required ? '' : '?'}: ${named?.params ?? paramsType(operation)}, ${options}): ${named?.result ?? result};`;
}
