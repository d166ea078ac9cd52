// Everything the mock remembers, in one object the router reads and changes.

import { MockClock } from './clock.js';
import { FaultQueue } from './faults.js';
import { IncidentActions } from './model/incident-actions.js';
import { AlertActions } from './model/alert-actions.js';
import { type AgentSeed, AgentsAndSkills, type SkillSeed } from './model/agents-and-skills.js';
import { AutomationRegistry } from './model/automations.js';
import { Random } from './model/random.js';
import { createWorld, type World } from './model/world.js';
import { ArrivalCounter, type RateLimits } from './rate-limit.js';
import type { PostDelivery } from './delivery-post.js';
import { WebhookSender } from './sender.js';

/** A credential of the mock: an app key (`app_key=`) or an access token (`Authorization: Bearer`). */
export interface Credential {
  /** A label for logs and the audit log; never the key. */
  name: string;
  /** The member the key belongs to. */
  personId: number;
  permissions: string[];
  expired: boolean;
}

/** One call as the mock saw it. */
export interface CallRecord {
  /** Unix ms (fractional) of arrival, real time: the instant the rate limits counted. */
  time: number;
  path: string;
  /** Name of the key used; `undefined` for a missing or unknown key. */
  key_name: string | undefined;
  /** HTTP status answered; 0 when the connection was dropped. */
  status: number;
  request_id: string;
}

const CALL_LOG_LIMIT = 20_000;

export interface MockStateOptions {
  seed: number;
  incidents: number;
  now?: Date | number;
  agents: AgentSeed[];
  skills: SkillSeed[];
  rateLimits: RateLimits | false;
  maxBodyBytes: number;
  /** How the sender posts a delivery; default over node:http (unit tests pass their own). */
  post?: PostDelivery;
}

export class MockState {
  readonly clock: MockClock;
  readonly world: World;
  readonly agentsAndSkills: AgentsAndSkills;
  readonly automations: AutomationRegistry;
  readonly faults = new FaultQueue();
  /** The credentials the mock takes, by their secret (an app key or an access token). */
  readonly credentials = new Map<string, Credential>();
  readonly limiter: ArrivalCounter | undefined;
  readonly maxBodyBytes: number;
  readonly sender: WebhookSender;
  readonly actions: IncidentActions;
  readonly alertActions: AlertActions;
  /** The most recent calls, oldest first (bounded). */
  readonly callLog: CallRecord[] = [];
  readonly #ids: Random;
  #sequence = 0;

  constructor(options: MockStateOptions) {
    this.clock = new MockClock(options.now);
    this.world = createWorld({
      seed: options.seed,
      incidents: options.incidents,
      now: Math.floor(this.clock.now() / 1000),
    });
    this.agentsAndSkills = new AgentsAndSkills(options.agents, options.skills);
    this.automations = new AutomationRegistry(options.seed, () => this.clock.now());
    this.limiter = options.rateLimits ? new ArrivalCounter(options.rateLimits) : undefined;
    this.maxBodyBytes = options.maxBodyBytes;
    this.#ids = new Random(options.seed * 7919 + 17);
    this.sender = new WebhookSender(this.clock, options.seed, options.post);
    this.actions = new IncidentActions(this.world, this.clock, (event) => this.sender.dispatch(event), options.seed);
    this.alertActions = new AlertActions(
      this.world,
      this.clock,
      (event) => this.sender.dispatchAlert(event),
      options.seed,
    );
  }

  recordCall(record: CallRecord): void {
    this.callLog.push(record);
    if (this.callLog.length > CALL_LOG_LIMIT) this.callLog.splice(0, this.callLog.length - CALL_LOG_LIMIT);
  }

  /** Unique per call, in the 32-hex form real request ids take. */
  nextRequestId(): string {
    this.#sequence++;
    return this.#sequence.toString(16).padStart(8, '0') + this.#ids.hex(24);
  }
}
