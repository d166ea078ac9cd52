// An enrichment mapping schema's rows: upserted by their source labels' values (every label
// required), listed by label values and pages, deleted by key (an unknown key not found), truncated,
// replaced by a CSV upload and answered as CSV; a schema that does not exist is not found, and a
// schema's rows go with it.
import { describe, expect, it } from 'vitest';
import type { MockState } from '../../../../src/testing/state.js';
import { callMock, mockState } from '../support.js';

const call = (state: MockState, path: string, body: object) => callMock(state, `/enrichment/mapping/${path}`, body);

const keys = (answer: { data?: unknown }) =>
  (answer.data as { items: Array<{ key: string }> }).items.map((row) => row.key);

describe('mapping data', () => {
  it('is kept by key, listed, deleted, truncated, uploaded and downloaded', async () => {
    const state = mockState();
    const made = await call(state, 'schema/create', {
      schema_name: 'CMDB',
      source_labels: ['host', 'dc'],
      result_labels: ['owner'],
    });
    const schema_id = (made.data as { schema_id: string }).schema_id;
    const docs = [
      { host: 'web-1', dc: 'fra', owner: 'alice' },
      { host: 'web-2', dc: 'fra', owner: 'bob' },
      { host: 'db-1', dc: 'sin', owner: 'carol' },
    ];
    expect(await call(state, 'data/upsert', { schema_id, docs })).toEqual({
      data: { keys: ['web-1,fra', 'web-2,fra', 'db-1,sin'] },
    });
    await call(state, 'data/upsert', { schema_id, docs: [{ host: 'web-1', dc: 'fra', owner: 'dave' }] });
    const all = await call(state, 'data/list', { schema_id });
    expect(all.data).toMatchObject({ total: 3, has_next_page: false });
    expect((all.data as { items: Array<{ fields: { owner: string } }> }).items[0]!.fields.owner).toBe('dave');
    expect(keys(await call(state, 'data/list', { schema_id, query: { host: 'db-1', dc: 'sin' } }))).toEqual([
      'db-1,sin',
    ]);
    const first = await call(state, 'data/list', { schema_id, limit: 2 });
    expect(first.data).toMatchObject({ has_next_page: true, search_after_ctx: 'c2' });
    expect(keys(await call(state, 'data/list', { schema_id, limit: 2, search_after_ctx: 'c2' }))).toEqual(['db-1,sin']);

    expect(await call(state, 'data/upsert', { schema_id, docs: [{ host: 'x', dc: 'y' }] })).toMatchObject({
      code: 'InvalidParameter',
      message: expect.stringContaining('docs[0] has no owner'),
    });
    expect((await call(state, 'data/delete', { schema_id, keys: ['nope'] })).code).toBe('ResourceNotFound');
    expect((await call(state, 'data/delete', { schema_id, keys: ['web-2,fra'] })).code).toBeUndefined();
    expect(keys(await call(state, 'data/list', { schema_id }))).toEqual(['web-1,fra', 'db-1,sin']);

    const csv = await call(state, 'data/download', { schema_id });
    expect(csv.data).toBe('host,dc,owner\nweb-1,fra,dave\ndb-1,sin,carol\n');
    await call(state, 'data/upload', { schema_id, file: 'host,dc,owner\n"edge, 1",ams,"eve ""e"""\n' });
    expect(await call(state, 'data/download', { schema_id })).toEqual({
      data: 'host,dc,owner\n"edge, 1",ams,"eve ""e"""\n',
    });
    expect((await call(state, 'data/truncate', { schema_id })).code).toBeUndefined();
    expect(keys(await call(state, 'data/list', { schema_id }))).toEqual([]);

    await call(state, 'data/upsert', { schema_id, docs });
    expect((await call(state, 'schema/delete', { schema_id })).code).toBeUndefined();
    expect(state.world.resources.get('/enrichment/mapping/data')).toEqual([]);
    expect((await call(state, 'data/list', { schema_id })).code).toBe('ResourceNotFound');
  });
});
