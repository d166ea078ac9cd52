// Automations as far as their HTTP POST triggers go: a rule with its trigger enabled gets an id and
// a token, answered once (on creation or rotation); firing takes that token alone and records a run;
// a wrong or missing token is Unauthorized, an unknown trigger not found, a disabled one refused;
// deleting the rule ends its trigger; the rules are the engine's records, listed with the rest.
import { describe, expect, it } from 'vitest';
import { AutomationRegistry } from '../../../../src/testing/model/automations.js';
import { mockState, NOW_MS } from '../support.js';

const state = mockState();
const owner = state.world.members[0]!.person_id;
const registry = () => new AutomationRegistry(1, () => NOW_MS, state.engine);
const data = (result: ReturnType<AutomationRegistry['get']>) => (result as { data: Record<string, unknown> }).data;

describe('AutomationRegistry', () => {
  it('answers a new rule’s trigger token once, never on a read', () => {
    const rules = registry();
    const created = data(rules.create({ name: 'nightly', http_post_trigger_enabled: true }, owner));
    expect(created).toMatchObject({
      name: 'nightly',
      http_post_trigger_enabled: true,
      http_post_trigger_id: expect.stringMatching(/^atrig_/),
      http_post_token: expect.stringMatching(/^sat_/),
      created_at: NOW_MS,
      owner_id: owner,
    });
    expect(created.http_post_trigger_url).toBe(
      `/safari/automation/triggers/${String(created.http_post_trigger_id)}/fire`,
    );
    const read = data(rules.get({ rule_id: created.rule_id }));
    expect(read).not.toHaveProperty('http_post_token');
    expect(data(rules.create({ name: 'plain' }, owner))).toMatchObject({ http_post_trigger_enabled: false });
    const listed = state.engine.run('/safari/automation/rule/list', { keyword: 'nightly' }, owner);
    expect(listed).toMatchObject({
      data: { total: 1, rules: [{ rule_id: created.rule_id, http_post_trigger_enabled: true }] },
    });
    expect(JSON.stringify(listed)).not.toContain(String(created.http_post_token));
  });

  it('fires with the trigger’s token alone, and records the run', () => {
    const rules = registry();
    const trigger = rules.createTrigger(owner);
    expect(rules.fire(trigger.trigger_id, undefined, {})).toEqual({ code: 'Unauthorized', key: 'unauthorized' });
    expect(rules.fire(trigger.trigger_id, 'sat_wrong', {})).toEqual({ code: 'Unauthorized', key: 'unauthorized' });
    expect(rules.fire('atrig_none', trigger.token, {})).toEqual({
      code: 'ResourceNotFound',
      key: 'notFound',
      vars: { id: 'atrig_none' },
    });
    const fired = data(rules.fire(trigger.trigger_id, trigger.token, { text: 'deploy done' }));
    expect(fired).toMatchObject({ type: 'routine_fire', session_id: expect.stringMatching(/^sess_/) });
    expect(rules.fired).toEqual([
      {
        rule_id: trigger.rule_id,
        trigger_id: trigger.trigger_id,
        text: 'deploy done',
        session_id: fired.session_id,
        time: NOW_MS,
      },
    ]);
  });

  it('rotates the token (the old one stops working), turns the trigger off, ends it with the rule', () => {
    const rules = registry();
    const trigger = rules.createTrigger(owner);
    const rotated = data(rules.update({ rule_id: trigger.rule_id, rotate_http_post_trigger_token: true }, owner));
    expect(rotated.http_post_token).not.toBe(trigger.token);
    expect(rules.fire(trigger.trigger_id, trigger.token, {})).toMatchObject({ code: 'Unauthorized' });
    rules.update({ rule_id: trigger.rule_id, http_post_trigger_enabled: false }, owner);
    expect(rules.fire(trigger.trigger_id, rotated.http_post_token as string, {})).toEqual({
      code: 'InvalidParameter',
      key: 'action',
      vars: { reason: `trigger ${trigger.trigger_id} is disabled` },
    });
    expect(rules.delete({ rule_id: trigger.rule_id })).toEqual({ data: null });
    expect(rules.fire(trigger.trigger_id, rotated.http_post_token as string, {})).toMatchObject({
      code: 'ResourceNotFound',
    });
    expect(rules.delete({ rule_id: trigger.rule_id })).toMatchObject({ code: 'ResourceNotFound' });
    expect(rules.get({ rule_id: 'nope' })).toMatchObject({ code: 'ResourceNotFound' });
  });

  it('refuses to fire the trigger of a disabled rule', () => {
    const rules = registry();
    const trigger = rules.createTrigger(owner);
    rules.update({ rule_id: trigger.rule_id, enabled: false }, owner);
    expect(rules.fire(trigger.trigger_id, trigger.token, {})).toMatchObject({ code: 'InvalidParameter' });
  });
});
