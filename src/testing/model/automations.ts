// AI SRE automations in the mock, as far as their HTTP POST triggers go: a rule created (or updated)
// with its HTTP POST trigger enabled gets a trigger id and a token, answered once (on creation or
// rotation) as the service does; firing the trigger takes that token as `Authorization: Bearer`, never
// the app key, and starts a run (an AI SRE session). A missing or wrong token is Unauthorized; an
// unknown trigger ResourceNotFound; a disabled one InvalidParameter. Deleting the rule ends its
// trigger. The rest of a rule's fields, and the other automation operations, are answered from the
// OpenAPI (openapi-answers.ts).

import { answerFor } from './openapi-answers.js';
import type { OperationResult } from './operation-result.js';
import { Random } from './random.js';

/** A rule's HTTP POST trigger as the mock keeps it. */
interface Trigger {
  trigger_id: string;
  token: string;
  enabled: boolean;
}

/** A rule as the mock keeps it: what it was given, and its trigger. */
interface Rule {
  item: Record<string, unknown>;
  trigger: Trigger | undefined;
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

const RULE_FIELDS = [
  'name',
  'team_id',
  'enabled',
  'cron_expr',
  'timezone',
  'prompt',
  'environment_kind',
  'environment_id',
];

export class AutomationRegistry {
  readonly #rules = new Map<string, Rule>();
  readonly #random: Random;
  readonly #now: () => number;
  /** Every run a trigger started, oldest first. */
  readonly fired: FiredRun[] = [];

  constructor(seed: number, now: () => number) {
    this.#random = new Random(seed * 613 + 5);
    this.#now = now;
  }

  /** `/safari/automation/rule/create`: a rule, with its trigger (and its token, this once) where asked. */
  create(body: Record<string, unknown>): OperationResult {
    const rule_id = `arule_${this.#random.hex(22)}`;
    // The OpenAPI's example rule, without its example trigger: this rule has its own, or none.
    const example = answerFor('/safari/automation/rule/create', body) as Record<string, unknown>;
    const { http_post_token: _token, http_post_trigger_id: _id, http_post_trigger_url: _url, ...base } = example;
    const item = { ...base, ...pick(body), rule_id, created_at: this.#now(), updated_at: this.#now() };
    const rule: Rule = { item, trigger: undefined };
    this.#rules.set(rule_id, rule);
    const token = body.http_post_trigger_enabled === true ? this.#newTrigger(rule) : undefined;
    return { data: this.#view(rule, token) };
  }

  /** `/safari/automation/rule/get`. */
  get(body: Record<string, unknown>): OperationResult {
    const rule = this.#rules.get(String(body.rule_id));
    return rule ? { data: this.#view(rule) } : notFound(String(body.rule_id));
  }

  /** `/safari/automation/rule/update`: fields, the trigger turned on or off, its token rotated where asked. */
  update(body: Record<string, unknown>): OperationResult {
    const rule = this.#rules.get(String(body.rule_id));
    if (!rule) return notFound(String(body.rule_id));
    Object.assign(rule.item, pick(body), { updated_at: this.#now() });
    let token: string | undefined;
    if (body.http_post_trigger_enabled === true && !rule.trigger) token = this.#newTrigger(rule);
    else if (typeof body.http_post_trigger_enabled === 'boolean' && rule.trigger)
      rule.trigger.enabled = body.http_post_trigger_enabled;
    if (body.rotate_http_post_trigger_token === true && rule.trigger) {
      token = rule.trigger.token = this.#token();
    }
    return { data: this.#view(rule, token) };
  }

  /** `/safari/automation/rule/delete`: the rule and its trigger, whose token stops working at once. */
  delete(body: Record<string, unknown>): OperationResult {
    return this.#rules.delete(String(body.rule_id)) ? { data: null } : notFound(String(body.rule_id));
  }

  /** A rule with an enabled HTTP POST trigger, for tests: its ids and its token. */
  createTrigger(): ReadyTrigger {
    const result = this.create({
      name: 'mock trigger',
      cron_expr: '0 9 * * *',
      prompt: 'summarize',
      http_post_trigger_enabled: true,
      enabled: true,
    });
    const data = (result as { data: Record<string, string> }).data;
    return {
      rule_id: data.rule_id as string,
      trigger_id: data.http_post_trigger_id as string,
      token: data.http_post_token as string,
    };
  }

  /** `POST /safari/automation/triggers/{trigger_id}/fire` with `bearer`, the token the request carried. */
  fire(triggerId: string, bearer: string | undefined, body: Record<string, unknown>): OperationResult {
    const rule = [...this.#rules.values()].find((candidate) => candidate.trigger?.trigger_id === triggerId);
    if (!rule?.trigger) return notFound(triggerId);
    if (bearer === undefined || bearer !== rule.trigger.token) return { code: 'Unauthorized', key: 'unauthorized' };
    if (!rule.trigger.enabled || rule.item.enabled === false)
      return { code: 'InvalidParameter', key: 'action', vars: { reason: `trigger ${triggerId} is disabled` } };
    const session_id = `sess_${this.#random.hex(22)}`;
    this.fired.push({
      rule_id: rule.item.rule_id as string,
      trigger_id: triggerId,
      text: typeof body.text === 'string' ? body.text : undefined,
      session_id,
      time: this.#now(),
    });
    return { data: { type: 'routine_fire', session_id, session_url: `/safari/session/${session_id}` } };
  }

  #newTrigger(rule: Rule): string {
    const trigger_id = `atrig_${this.#random.hex(22)}`;
    rule.trigger = { trigger_id, token: this.#token(), enabled: true };
    return rule.trigger.token;
  }

  #token(): string {
    return `sat_${this.#random.hex(40)}`;
  }

  /** The rule as the service answers it; its token only where given (on creation or rotation). */
  #view(rule: Rule, token?: string): Record<string, unknown> {
    const { http_post_token: _token, ...item } = rule.item;
    const trigger = rule.trigger;
    return {
      ...item,
      http_post_trigger_enabled: trigger?.enabled ?? false,
      ...(trigger
        ? {
            http_post_trigger_id: trigger.trigger_id,
            http_post_trigger_url: `/safari/automation/triggers/${trigger.trigger_id}/fire`,
          }
        : {}),
      ...(token !== undefined ? { http_post_token: token } : {}),
    };
  }
}

/** The rule fields a request sets, as given. */
function pick(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    RULE_FIELDS.filter((field) => body[field] !== undefined).map((field) => [field, body[field]]),
  );
}

function notFound(id: string): OperationResult {
  return { code: 'ResourceNotFound', key: 'notFound', vars: { id } };
}
