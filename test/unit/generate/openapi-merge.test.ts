// The one description made of the two vendored OpenAPI files (scripts/generate/merge.ts): the newer
// file whole, the operations only the older has kept from it unchanged, shared components judged by
// substance, the newer file's dangling reference repaired and nothing else left dangling; and the
// names the AI SRE paths get (scripts/generate/naming.ts).
import { describe, expect, it } from 'vitest';
import {
  loadDescription,
  mergeDescriptions,
  type OpenAPIDocument,
  REPAIRS,
  substance,
} from '../../../scripts/generate/merge.js';
import { methodName } from '../../../scripts/generate/naming.js';

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

describe('the merged description', () => {
  const { document, newer, older, kept } = loadDescription();

  it('is the newer file with the six notification-rule operations kept from the older one', () => {
    expect(kept).toEqual([
      '/channel/notify/rule/list',
      '/channel/notify/rule/create',
      '/channel/notify/rule/update',
      '/channel/notify/rule/delete',
      '/channel/notify/rule/enable',
      '/channel/notify/rule/disable',
    ]);
    expect(Object.keys(newer.paths)).toHaveLength(252);
    expect(Object.keys(document.paths)).toEqual([...Object.keys(newer.paths), ...kept]);
    for (const path of kept) expect(document.paths[path], path).toEqual(older.paths[path]);
    for (const path of Object.keys(older.paths)) expect(document.paths[path], path).toBeDefined();
  });

  it('repairs the newer file’s one dangling reference and changes nothing else of it', () => {
    const text = JSON.stringify(newer.paths['/account/info']);
    expect(text).toContain('#/components/responses/InternalError');
    expect(newer.components.responses?.InternalError).toBeUndefined();
    expect(JSON.stringify(document.paths['/account/info'])).toBe(
      text.replace('#/components/responses/InternalError', '#/components/responses/ServerError'),
    );
    const others = Object.keys(newer.paths).filter((path) => path !== '/account/info');
    for (const path of others) expect(document.paths[path], path).toEqual(newer.paths[path]);
    expect(document.components).toEqual(newer.components);
  });
});

describe('mergeDescriptions', () => {
  it('keeps an operation only the older has, with a component the newer lacks copied over', () => {
    const older = doc({ '/a/list': using('#/components/schemas/Old') });
    older.components.schemas!.Old = { type: 'string' };
    const { document, kept } = mergeDescriptions(doc({ '/b/list': {} }), older, {});
    expect(kept).toEqual(['/a/list']);
    expect(Object.keys(document.paths)).toEqual(['/b/list', '/a/list']);
    expect(document.components.schemas?.Old).toEqual({ type: 'string' });
  });

  it('takes the newer component where it differs in documentation only, and refuses one changed in substance', () => {
    const older = doc({ '/a/list': using('#/components/schemas/Thing') }, { type: 'object', description: 'old' });
    const reworded = doc({}, { type: 'object', description: 'new', example: {} });
    expect(mergeDescriptions(reworded, older, {}).document.components.schemas?.Thing).toMatchObject({
      description: 'new',
    });
    const changed = doc({}, { type: 'object', required: ['id'] });
    expect(() => mergeDescriptions(changed, older, {})).toThrow(/Thing, which .* changed in substance/);
  });

  it('refuses a reference to a component the description does not define', () => {
    expect(() => mergeDescriptions(doc({ '/b/list': using('#/components/schemas/Nowhere') }), doc({}), {})).toThrow(
      /undefined components: #\/components\/schemas\/Nowhere/,
    );
  });

  it('says when a repair is no longer needed', () => {
    const fixed = doc({ '/b/info': {} });
    expect(() => mergeDescriptions(fixed, doc({}), REPAIRS)).toThrow(
      /no longer names #\/components\/responses\/InternalError/,
    );
    fixed.components.responses!.InternalError = { description: 'defined now' };
    expect(() => mergeDescriptions(fixed, doc({}), REPAIRS)).toThrow(
      /now defines #\/components\/responses\/InternalError/,
    );
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
});
