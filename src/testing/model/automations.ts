// AI SRE automations in the mock, as far as their HTTP POST triggers go: a rule created (or updated)
// with its HTTP POST trigger enabled gets a trigger id and a token, answered once (on creation or
// rotation) as the service does; firing the trigger takes that token as `Authorization: Bearer`, never
// the app key, and starts a run (an AI SRE session). A missing or wrong token is Unauthorized; an
// unknown trigger ResourceNotFound; a disabled one InvalidParameter. Deleting the rule ends its
// trigger. The rules are records of the engine's `/safari/automation/rule` family (world/engine.ts),
// which lists them; a trigger's token is kept here alone, never in its rule.

import type { ResourceEngine } from '../world/engine.js';
import type { ResourceRecord } from '../world/records.js';
import type { OperationResult } from './operation-result.js';
import { Random } from './random.js';

/** A rule's HTTP POST trigger as the mock keeps it. */
interface Trigger {
  trigger_id: string;
  token: string;
}

/** A run a trigger started. */
export interface FiredRun {
  rule_id: string;
  trigger_id: string;
  /** The context text the fire carried. */
  text: string | undefined;
  session_id: string;
  /** Unix ms, by the mock's clock. */
  time: number;
}

/** A rule with an HTTP POST trigger, ready to fire: its ids and the token the service answered once. */
export interface ReadyTrigger {
  rule_id: string;
  trigger_id: string;
  token: string;
}

const RULES = '/safari/automation/rule';

export class AutomationRegistry {
  /** Each rule's trigger, by rule id. */
  readonly #triggers = new Map<string, Trigger>();
  readonly #engine: ResourceEngine;
  readonly #random: Random;
  readonly #now: () => number;
  /** Every run a trigger started, oldest first. */
  readonly fired: FiredRun[] = [];

  constructor(seed: number, now: () => number, engine: ResourceEngine) {
    this.#random = new Random(seed * 613 + 5);
    this.#now = now;
    this.#engine = engine;
  }

  /** `/safari/automation/rule/create`: a rule its creator owns, with its trigger (and its token, this once) where asked. */
  create(body: Record<string, unknown>, personId: number): OperationResult {
    const { http_post_trigger_enabled: asked, ...fields } = body;
    const rule = this.#engine.insert(RULES, { ...fields, owner_id: personId }, personId);
    rule.http_post_trigger_enabled = false;
    const token = asked === true ? this.#newTrigger(rule) : undefined;
    return { data: this.#view(rule, token) };
  }

  /** `/safari/automation/rule/get`. */
  get(body: Record<string, unknown>): OperationResult {
    const rule = this.#engine.find(RULES, body.rule_id);
    return rule ? { data: this.#view(rule) } : notFound(String(body.rule_id));
  }

  /** `/safari/automation/rule/update`: fields, the trigger turned on or off, its token rotated where asked. */
  update(body: Record<string, unknown>, personId: number): OperationResult {
    const rule = this.#engine.find(RULES, body.rule_id);
    if (!rule) return notFound(String(body.rule_id));
    const { http_post_trigger_enabled: asked, rotate_http_post_trigger_token: rotate, ...fields } = body;
    this.#engine.change(RULES, rule, fields, personId);
    const trigger = this.#triggers.get(String(rule.rule_id));
    let token: string | undefined;
    if (asked === true && !trigger) token = this.#newTrigger(rule);
    else if (typeof asked === 'boolean' && trigger) rule.http_post_trigger_enabled = asked;
    if (rotate === true && trigger) token = trigger.token = this.#token();
    return { data: this.#view(rule, token) };
  }

  /** `/safari/automation/rule/delete`: the rule and its trigger, whose token stops working at once. */
  delete(body: Record<string, unknown>): OperationResult {
    const rule = this.#engine.find(RULES, body.rule_id);
    if (!rule) return notFound(String(body.rule_id));
    this.#engine.remove(RULES, rule);
    this.#triggers.delete(String(rule.rule_id));
    return { data: null };
  }

  /** A rule with an enabled HTTP POST trigger, for tests: its ids and its token. */
  createTrigger(personId: number): ReadyTrigger {
    const result = this.create(
      {
        name: 'mock trigger',
        cron_expr: '0 9 * * *',
        prompt: 'summarize',
        http_post_trigger_enabled: true,
        enabled: true,
      },
      personId,
    );
    const data = (result as { data: Record<string, string> }).data;
    return {
      rule_id: data.rule_id as string,
      trigger_id: data.http_post_trigger_id as string,
      token: data.http_post_token as string,
    };
  }

  /** `POST /safari/automation/triggers/{trigger_id}/fire` with `bearer`, the token the request carried. */
  fire(triggerId: string, bearer: string | undefined, body: Record<string, unknown>): OperationResult {
    const ruleId = [...this.#triggers].find(([, trigger]) => trigger.trigger_id === triggerId)?.[0];
    const rule = ruleId === undefined ? undefined : this.#engine.find(RULES, ruleId);
    const trigger = ruleId === undefined ? undefined : this.#triggers.get(ruleId);
    if (!rule || !trigger) return notFound(triggerId);
    if (bearer === undefined || bearer !== trigger.token) return { code: 'Unauthorized', key: 'unauthorized' };
    if (rule.http_post_trigger_enabled !== true || rule.enabled === false)
      return { code: 'InvalidParameter', key: 'action', vars: { reason: `trigger ${triggerId} is disabled` } };
    const session_id = `sess_${this.#random.hex(22)}`;
    this.fired.push({
      rule_id: String(rule.rule_id),
      trigger_id: triggerId,
      text: typeof body.text === 'string' ? body.text : undefined,
      session_id,
      time: this.#now(),
    });
    return { data: { type: 'routine_fire', session_id, session_url: `/safari/session/${session_id}` } };
  }

  /** A new trigger for the rule, enabled; its token. */
  #newTrigger(rule: ResourceRecord): string {
    const trigger_id = `atrig_${this.#random.hex(22)}`;
    const token = this.#token();
    this.#triggers.set(String(rule.rule_id), { trigger_id, token });
    Object.assign(rule, {
      http_post_trigger_enabled: true,
      http_post_trigger_id: trigger_id,
      http_post_trigger_url: `/safari/automation/triggers/${trigger_id}/fire`,
    });
    return token;
  }

  #token(): string {
    return `sat_${this.#random.hex(40)}`;
  }

  /** The rule as the service answers it; its token only where given (on creation or rotation). */
  #view(rule: ResourceRecord, token?: string): Record<string, unknown> {
    return { ...this.#engine.view(RULES, rule), ...(token !== undefined ? { http_post_token: token } : {}) };
  }
}

function notFound(id: string): OperationResult {
  return { code: 'ResourceNotFound', key: 'notFound', vars: { id } };
}
