// The one description made of the vendored OpenAPI files and the supplement (scripts/generate/merge.ts):
// the newest file whole, the operations it lacks kept unchanged from the first older file that has
// them, shared components judged by substance, an older file's dangling reference repaired and
// nothing else left dangling, no security scheme named that none defines; and the names the AI SRE
// paths get (scripts/generate/naming.ts).
import { describe, expect, it } from 'vitest';
import {
  BODY_REPAIRS,
  loadDescription,
  mergeDescriptions,
  NEWEST,
  type OpenAPIDocument,
  REPAIRS,
  SOURCES,
  substance,
} from '../../../../scripts/generate/merge.js';
import { methodName } from '../../../../scripts/generate/naming.js';

/** A small document: `paths` as given, components `Thing` and `ServerError`. */
function doc(paths: Record<string, unknown>, thing: unknown = { type: 'object' }): OpenAPIDocument {
  return {
    openapi: '3.1.0',
    paths: paths as OpenAPIDocument['paths'],
    components: { schemas: { Thing: thing }, responses: { ServerError: { description: 'server error' } } },
  };
}
const using = (ref: string) => ({
  post: { requestBody: { content: { 'application/json': { schema: { $ref: ref } } } } },
});

/** The files as mergeDescriptions takes them: `newer` first, named so that REPAIRS does not apply. */
const files = (...documents: OpenAPIDocument[]) =>
  documents.map((document, i) => ({ file: `file-${i}.json`, origin: `file ${i}`, document }));

describe('the merged description', () => {
  const { document, files: read, kept, previous } = loadDescription();
  const [newest, older, docs, supplement] = read as [
    OpenAPIDocument,
    OpenAPIDocument,
    OpenAPIDocument,
    OpenAPIDocument,
  ];

  it('is the newest file, the operations it lacks kept from the first older file that has them, and the supplement’s', () => {
    expect(kept).toEqual({
      '/channel/escalate/webhook/robot/list': 'openapi/go-flashduty-02193386/openapi.en.json',
      '/channel/notify/rule/list': 'openapi/openapi.en.json',
      '/channel/notify/rule/create': 'openapi/openapi.en.json',
      '/channel/notify/rule/update': 'openapi/openapi.en.json',
      '/channel/notify/rule/delete': 'openapi/openapi.en.json',
      '/channel/notify/rule/enable': 'openapi/openapi.en.json',
      '/channel/notify/rule/disable': 'openapi/openapi.en.json',
      '/safari/automation/triggers/{trigger_id}/fire': 'openapi/supplement.json',
    });
    expect(Object.keys(newest.paths)).toHaveLength(290);
    expect(Object.keys(document.paths)).toEqual([...Object.keys(newest.paths), ...Object.keys(kept)]);
    const byFile = new Map(SOURCES.map((source, i) => [source.file, read[i] as OpenAPIDocument]));
    for (const [path, file] of Object.entries(kept))
      expect(document.paths[path], path).toEqual(byFile.get(file)?.paths[path]);
    const repaired = new Set(Object.keys(BODY_REPAIRS[NEWEST] ?? {}));
    for (const path of Object.keys(newest.paths))
      if (!repaired.has(path)) expect(document.paths[path], path).toEqual(newest.paths[path]);
    for (const path of [...Object.keys(older.paths), ...Object.keys(docs.paths), ...Object.keys(supplement.paths)])
      expect(document.paths[path], path).toBeDefined();
    expect(document.components).toMatchObject(newest.components);
  });

  it('the previous description is the older vendored files alone, the older one’s dangling reference repaired', () => {
    expect(SOURCES[0]?.file).toBe(NEWEST);
    expect(Object.keys(previous.paths)).toHaveLength(258);
    expect(previous.paths['/safari/automation/triggers/{trigger_id}/fire']).toBeUndefined();
    const text = JSON.stringify(older.paths['/account/info']);
    expect(text).toContain('#/components/responses/InternalError');
    expect(JSON.stringify(previous.paths['/account/info'])).toBe(
      text.replace('#/components/responses/InternalError', '#/components/responses/ServerError'),
    );
  });

  it('replaces the request schemas BODY_REPAIRS names, and nothing else of those operations', () => {
    for (const [path, { was, body }] of Object.entries(BODY_REPAIRS[NEWEST] ?? {})) {
      const content = (op: unknown) =>
        (op as { post: { requestBody: { content: { 'application/json': { schema: unknown } } } } }).post.requestBody
          .content['application/json'];
      expect(content(newest.paths[path]).schema, path).toEqual(was);
      // A body made from the file's components is made from the newest file, as the merge does.
      expect(content(document.paths[path]).schema, path).toEqual(typeof body === 'function' ? body(newest) : body);
      const restored = structuredClone(document.paths[path]);
      content(restored).schema = was;
      expect(restored, path).toEqual(newest.paths[path]);
    }
  });

  it('names the automation trigger’s own bearer scheme, which the newest file defines', () => {
    const fire = document.paths['/safari/automation/triggers/{trigger_id}/fire']?.post as { security?: unknown };
    expect(fire.security).toEqual([{ AutomationTriggerBearerAuth: [] }]);
    expect(newest.components.securitySchemes?.AutomationTriggerBearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });
});

describe('mergeDescriptions', () => {
  it('keeps an operation only an older file has, with a component the newer lacks copied over', () => {
    const older = doc({ '/a/list': using('#/components/schemas/Old') });
    older.components.schemas!.Old = { type: 'string' };
    const { document, from } = mergeDescriptions(files(doc({ '/b/list': {} }), older), {});
    expect(from).toEqual({ '/b/list': 'file-0.json', '/a/list': 'file-1.json' });
    expect(Object.keys(document.paths)).toEqual(['/b/list', '/a/list']);
    expect(document.components.schemas?.Old).toEqual({ type: 'string' });
  });

  it('takes a path from the first file that has it, of three', () => {
    const { from } = mergeDescriptions(
      files(doc({ '/a/x': {} }), doc({ '/b/x': {} }), doc({ '/b/x': {}, '/c/x': {} })),
      {},
    );
    expect(from).toEqual({ '/a/x': 'file-0.json', '/b/x': 'file-1.json', '/c/x': 'file-2.json' });
  });

  it('takes the newer component where it differs in documentation only, and refuses one changed in substance', () => {
    const older = doc({ '/a/list': using('#/components/schemas/Thing') }, { type: 'object', description: 'old' });
    const reworded = doc({}, { type: 'object', description: 'new', example: {} });
    expect(mergeDescriptions(files(reworded, older), {}).document.components.schemas?.Thing).toMatchObject({
      description: 'new',
    });
    const changed = doc({}, { type: 'object', required: ['id'] });
    expect(() => mergeDescriptions(files(changed, older), {})).toThrow(
      /Thing, which a newer file changed in substance/,
    );
  });

  it('a file that names a component it does not define gets the description’s (the supplement is written against it)', () => {
    const supplement: OpenAPIDocument = { paths: { '/s/fire': using('#/components/schemas/Thing') }, components: {} };
    const { document } = mergeDescriptions(files(doc({}, { type: 'object', title: 'newest' }), supplement), {});
    expect(document.components.schemas?.Thing).toEqual({ type: 'object', title: 'newest' });
  });

  it('refuses a reference to a component the description does not define', () => {
    expect(() =>
      mergeDescriptions(files(doc({ '/b/list': using('#/components/schemas/Nowhere') }), doc({})), {}),
    ).toThrow(/undefined components: #\/components\/schemas\/Nowhere/);
  });

  it('refuses a security requirement naming a scheme the description does not define', () => {
    const supplement: OpenAPIDocument = {
      paths: { '/s/fire': { post: { security: [{ Nowhere: [] }] } } },
      components: {},
    };
    expect(() => mergeDescriptions(files(doc({}), supplement), {})).toThrow(/undefined security schemes: Nowhere/);
  });

  it('says when a repair is no longer needed', () => {
    const repairs = { 'file-0.json': Object.values(REPAIRS)[0] ?? {} };
    const fixed = doc({ '/b/info': {} });
    expect(() => mergeDescriptions(files(fixed, doc({})), repairs)).toThrow(
      /file-0.json no longer names #\/components\/responses\/InternalError/,
    );
    fixed.components.responses!.InternalError = { description: 'defined now' };
    expect(() => mergeDescriptions(files(fixed, doc({})), repairs)).toThrow(
      /file-0.json now defines #\/components\/responses\/InternalError/,
    );
  });

  it('says when a request schema it replaces has changed', () => {
    const body = (schema: unknown) => ({ post: { requestBody: { content: { 'application/json': { schema } } } } });
    const repair = {
      '/p/update': { was: { $ref: '#/components/schemas/Thing' }, body: { type: 'object' }, why: 'test' },
    };
    const ok = mergeDescriptions(
      files(doc({ '/p/update': body({ $ref: '#/components/schemas/Thing' }) })),
      {},
      { 'file-0.json': repair },
    );
    expect(ok.document.paths['/p/update']).toEqual(body({ type: 'object' }));
    expect(() =>
      mergeDescriptions(files(doc({ '/p/update': body({ type: 'string' }) })), {}, { 'file-0.json': repair }),
    ).toThrow(/file-0.json changed the request of \/p\/update: drop or redo its repair/);
  });

  it('judges substance without documentation, but keeps a field called description', () => {
    expect(
      substance({ type: 'object', description: 'x', 'x-mint': {}, properties: { description: { type: 'string' } } }),
    ).toEqual({
      type: 'object',
      properties: { description: { type: 'string' } },
    });
  });
});

describe('the AI SRE paths’ names', () => {
  it('name the resource after /safari/, camelCase and plural', () => {
    expect(methodName('/safari/skill/upload')).toBe('skills.upload');
    expect(methodName('/safari/mcp/server/list')).toBe('mcpServers.list');
    expect(methodName('/safari/a2a-agent/enable')).toBe('a2aAgents.enable');
    expect(methodName('/safari/session/export')).toBe('sessions.export');
    expect(() => methodName('/safari/list')).toThrow(/names no resource/);
  });

  it('make the automations one namespace, its resources members, a path parameter no part of the name', () => {
    expect(methodName('/safari/automation/rule/create')).toBe('automations.rules.create');
    expect(methodName('/safari/automation/run/list')).toBe('automations.runs.list');
    expect(methodName('/safari/automation/triggers/{trigger_id}/fire')).toBe('automations.triggers.fire');
    expect(() => methodName('/safari/automation/fire')).toThrow(/names no resource in its area/);
    expect(methodName('/oncall/license/list')).toBe('licenses.list');
  });
});
