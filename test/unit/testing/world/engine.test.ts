// The engine, for every family of the generated table, through the router as a client calls it:
// create (or upsert) answers the new id and the fields given; the list (with its scope) and the info
// show the record with them; an update changes its name; enable and disable take; a delete removes
// it, and a second delete, an info or an update of an id that names nothing is ResourceNotFound.
// Bodies are the OpenAPI's examples where they fit (else the smallest the schema allows), with the
// ids they name made the world's.
import { describe, expect, it } from 'vitest';
import { REQUEST_SCHEMAS, SCHEMA_DEFS } from '../../../../src/generated/request-schemas.js';
import { checkSchema } from '../../../../src/internal/schema.js';
import { RESPONSE_DEFS } from '../../../../src/testing/generated/responses.js';
import { sample } from '../../../../src/internal/schema-sample.js';
import { FAMILIES } from '../../../../src/testing/generated/families.js';
import type { MockState } from '../../../../src/testing/state.js';
import { propertiesOf } from '../../../../src/testing/world/records.js';
import { REFERENCE_FIELDS } from '../../../../src/testing/world/references.js';
import { requestExample } from '../../../openapi.js';
import { callMock, mockState } from '../support.js';

type Body = Record<string, unknown>;
const DEFS = { ...SCHEMA_DEFS, ...RESPONSE_DEFS };

const call = (state: MockState, path: string, body: Body) => callMock<Body | Body[]>(state, path, body);

/** `value` with every id it names made one the world has. */
function ofTheWorld(state: MockState, value: unknown): unknown {
  const schedule = state.world.resources.get('/schedule')?.[0]?.schedule_id as number;
  const ids = {
    member: state.world.members[0]!.person_id,
    team: state.world.teams[0]!.team_id,
    channel: state.world.channels[0]!.channel_id,
    schedule,
  };
  if (Array.isArray(value)) return value.map((item) => ofTheWorld(state, item));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => {
      const kind = REFERENCE_FIELDS[key];
      if (key === 'schedule_to_role_ids') return [key, { [String(schedule)]: [] }];
      if (kind && typeof child === 'number') return [key, ids[kind]];
      if (kind && Array.isArray(child)) return [key, child.map(() => ids[kind])];
      return [key, ofTheWorld(state, child)];
    }),
  );
}

/** A body `path` takes: `given`'s fields it has (or requires, with `required`), the smallest values for the rest it requires. */
function fit(path: string, given: Body, required = false): Body {
  const schema = REQUEST_SCHEMAS[path]!;
  const base = sample(schema, SCHEMA_DEFS) as Body;
  const fields = required ? base : propertiesOf(schema, SCHEMA_DEFS);
  return { ...base, ...Object.fromEntries(Object.entries(given).filter(([key]) => key in fields)) };
}

/** An id of the same shape that names nothing. */
function unknownLike(id: unknown): unknown {
  if (typeof id === 'number') return id + 1_000_000_007;
  const text = String(id);
  return text.slice(0, -4) + (text.endsWith('0000') ? '1111' : '0000');
}

/** The parents a family's scope names, made or found in the world. */
async function scopeOf(state: MockState, base: string): Promise<Body> {
  const scope: Body = {};
  for (const key of FAMILIES[base]!.scope ?? []) {
    if (key === 'channel_id') scope[key] = state.world.channels[0]!.channel_id;
    else if (key === 'incident_id') scope[key] = state.world.incidents[0]!.incident_id;
    else if (key === 'integration_id') scope[key] = 7;
    else {
      const [parent, rule] = Object.entries(FAMILIES).find(([, r]) => r.id === key)!;
      scope[key] = state.engine.insert(parent, { [rule.name ?? 'name']: 'parent' }, state.world.members[0]!.person_id)[
        key
      ];
    }
  }
  return scope;
}

const state = mockState({ incidents: 5 });

describe('the engine, family by family', () => {
  it('knows the families of the OpenAPI with a create (or upsert) and a list (or info)', () => {
    expect(Object.keys(FAMILIES)).toEqual(
      expect.arrayContaining(['/channel', '/channel/escalate/rule', '/team', '/schedule', '/calendar/event', '/route']),
    );
    expect(Object.keys(FAMILIES).length).toBeGreaterThanOrEqual(29);
    expect(FAMILIES['/incident']).toBeUndefined(); // a model of its own keeps incidents
  });

  for (const [base, rule] of Object.entries(FAMILIES)) {
    it(`${base}: what is made is read back, changed, and removed`, async () => {
      const ops = rule.operations;
      const making = (ops.create ?? ops.upsert)!;
      const scope = await scopeOf(state, base);
      const example = requestExample(making);
      const raw = example !== undefined && !checkSchema(example, REQUEST_SCHEMAS[making]!, SCHEMA_DEFS) ? example : {};
      const keyed =
        ops.create === undefined && (REQUEST_SCHEMAS[making] ? fit(making, {})[rule.id] !== undefined : false);
      const given = fit(making, { ...(ofTheWorld(state, raw) as Body), ...scope });
      if (keyed) given[rule.id] = 4242;
      else delete given[rule.id];
      const name = rule.name && typeof given[rule.name] === 'string' ? rule.name : undefined;
      if (name) given[name] = `made_${base.replace(/\W/g, '_')}`;
      expect(checkSchema(given, REQUEST_SCHEMAS[making]!, SCHEMA_DEFS), making).toBeUndefined();
      const made = await call(state, making, given);
      expect(made.code, `${making}: ${made.message}`).toBeUndefined();
      const id = keyed ? given[rule.id] : (made.data as Body)[rule.id];
      expect(id, making).toBeDefined();
      const key = { [rule.id]: id, ...scope };
      const shown = Object.entries(given).filter(
        ([field, value]) =>
          field !== rule.id &&
          ['string', 'number', 'boolean'].includes(typeof value) &&
          field in propertiesOf(rule.item, SCHEMA_DEFS),
      );
      const shows = (record: Body | undefined) => {
        expect(record, base).toBeDefined();
        for (const [field, value] of shown) expect(record![field], `${base}.${field}`).toEqual(value);
      };

      const listed = async (): Promise<Body[]> => {
        const body = fit(ops.list!, { ...given, ...scope, [`${rule.id}s`]: [id] }, true);
        const answer = await call(state, ops.list!, body);
        expect(answer.code, `${ops.list}: ${answer.message}`).toBeUndefined();
        const data = answer.data;
        return (Array.isArray(data) ? data : (data[rule.items ?? 'items'] as Body[])) ?? [];
      };
      const find = async () => (await listed()).find((record) => String(record[rule.id]) === String(id));
      if (ops.list) shows(await find());
      if (ops.info) {
        const info = await call(state, ops.info, fit(ops.info, { ...given, ...key }));
        expect(info.code, `${ops.info}: ${info.message}`).toBeUndefined();
        shows(info.data as Body);
      }
      if (ops.infos) {
        const infos = await call(state, ops.infos, { [`${rule.id}s`]: [id, unknownLike(id)] });
        expect((infos.data as { items: Body[] }).items.map((record) => record[rule.id])).toEqual([id]);
      }
      if (ops.update) {
        const renamed = name ? { [name]: `changed_${base.replace(/\W/g, '_')}` } : {};
        const changed = await call(state, ops.update, { ...fit(ops.update, { ...given, ...key }), ...renamed });
        expect(changed.code, `${ops.update}: ${changed.message}`).toBeUndefined();
        if (name && ops.list) expect((await find())?.[name]).toBe(renamed[name]);
        const unknown = await call(
          state,
          ops.update,
          fit(ops.update, { ...given, ...scope, [rule.id]: unknownLike(id) }),
        );
        expect(unknown.code, ops.update).toBe('ResourceNotFound');
      }
      const status = 'status' in propertiesOf(rule.item, DEFS);
      for (const [toggle, value] of [
        [ops.disable, 'disabled'],
        [ops.enable, 'enabled'],
      ] as const) {
        if (!toggle) continue;
        expect((await call(state, toggle, fit(toggle, key))).code, toggle).toBeUndefined();
        if (status && ops.list) expect((await find())?.status, toggle).toBe(value);
      }
      if (ops.info) {
        const unknown = await call(state, ops.info, fit(ops.info, { ...given, ...scope, [rule.id]: unknownLike(id) }));
        expect(unknown.code, ops.info).toBe('ResourceNotFound');
      }
      if (ops.delete) {
        const gone = fit(ops.delete, { ...given, ...key, [`${rule.id}s`]: [id] });
        expect((await call(state, ops.delete, gone)).code, ops.delete).toBeUndefined();
        if (ops.list) expect(await find()).toBeUndefined();
        expect((await call(state, ops.delete, gone)).code, ops.delete).toBe('ResourceNotFound');
      }
    });
  }
});

describe('what a family’s own rules add', () => {
  it('a team’s name is its own: an upsert of a name taken is refused, unless it resets that team', async () => {
    const team = state.world.teams[0]!;
    const [a, b] = state.world.members.map((m) => m.person_id);
    const taken = await call(state, '/team/upsert', { team_name: team.team_name, person_ids: [a] });
    expect(taken).toMatchObject({
      code: 'InvalidParameter',
      message: expect.stringContaining(`a team is named ${team.team_name}`),
    });
    const reset = await call(state, '/team/upsert', {
      team_name: team.team_name,
      person_ids: [a, b],
      reset_if_name_exist: true,
    });
    expect(reset.data).toEqual({ team_id: team.team_id, team_name: team.team_name });
    expect(team.person_ids).toEqual([a, b]);
    const unknownEmail = await call(state, '/team/upsert', { team_name: 'Mail', emails: ['nobody@example.com'] });
    expect(unknownEmail).toMatchObject({
      code: 'ResourceNotFound',
      message: 'Member nobody@example.com named in emails was not found.',
    });
  });

  it('a channel counts its open incidents by progress; a schedule’s group is its team', async () => {
    const channel = state.world.channels[0]!;
    const info = (await call(state, '/channel/info', { channel_id: channel.channel_id })).data as Body;
    const open = state.world.incidents.filter(
      (i) => i.channel_id === channel.channel_id && !i.deleted_at && i.progress !== 'Closed',
    );
    expect(info.progress_to_incident_cnts).toEqual({
      Triggered: open.filter((i) => i.progress === 'Triggered').length,
      Processing: open.filter((i) => i.progress === 'Processing').length,
    });
    const team = state.world.teams[1]!.team_id;
    const made = (await call(state, '/schedule/create', { name: 'Nights', team_id: team })).data as {
      schedule_id: number;
    };
    const schedule = state.world.resources.get('/schedule')!.find((s) => s.schedule_id === made.schedule_id)!;
    expect(schedule).toMatchObject({
      group_id: team,
      team_id: team,
      schedule_name: 'Nights',
      name: 'Nights',
      id: made.schedule_id,
    });
  });
});
