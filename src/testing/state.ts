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
import { type AuditEntry, consoleEntry } from './world/audit.js';
import { ResourceEngine } from './world/engine.js';

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
  /** The records of every resource family no model of its own keeps, and the operations on them. */
  readonly engine: ResourceEngine;
  readonly agentsAndSkills: AgentsAndSkills;
  readonly automations: AutomationRegistry;
  readonly faults = new FaultQueue();
  /** The credentials the mock takes, by their secret (an app key or an access token). */
  readonly credentials = new Map<string, Credential>();
  readonly limiter: ArrivalCounter | undefined;
  readonly maxBodyBytes: number;
  readonly sender: WebhookSender;
  /** Actions on incidents as the API's calls take them. */
  readonly actions: IncidentActions;
  /** The same actions as a test takes them (`service.actions`): as in the console, each in the audit log. */
  readonly consoleActions: IncidentActions;
  readonly alertActions: AlertActions;
  /** The most recent calls, oldest first (bounded). */
  readonly callLog: CallRecord[] = [];
  /** Every write, oldest first (world/audit.ts). */
  readonly auditLog: AuditEntry[] = [];
  /** The generator of what the API's writes make beside the engine's records (invited members' ids). */
  readonly random: Random;
  readonly #ids: Random;
  #sequence = 0;

  constructor(options: MockStateOptions) {
    this.clock = new MockClock(options.now);
    this.world = createWorld({
      seed: options.seed,
      incidents: options.incidents,
      now: Math.floor(this.clock.now() / 1000),
    });
    this.engine = new ResourceEngine(this.world, this.clock, options.seed);
    const owner = this.world.members[0]?.person_id ?? 0;
    this.agentsAndSkills = new AgentsAndSkills(options.agents, options.skills, this.engine, owner);
    this.automations = new AutomationRegistry(options.seed, () => this.clock.now(), this.engine);
    this.random = new Random(options.seed * 4099 + 3);
    this.limiter = options.rateLimits ? new ArrivalCounter(options.rateLimits) : undefined;
    this.maxBodyBytes = options.maxBodyBytes;
    this.#ids = new Random(options.seed * 7919 + 17);
    this.sender = new WebhookSender(this.clock, options.seed, options.post);
    this.actions = new IncidentActions(this.world, this.clock, (event) => this.sender.dispatch(event), options.seed);
    this.consoleActions = new IncidentActions(
      this.world,
      this.clock,
      (event) => {
        this.sender.dispatch(event);
        const entry = consoleEntry(event, this.nextRequestId(), this.world.account.account_id);
        if (entry) this.auditLog.push(entry);
      },
      options.seed * 3 + 1,
    );
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
