// createMockService: a stateful, seeded model of the Flashduty service, served as MSW handlers and
// over real HTTP on loopback from the same state.

import type { RequestHandler } from 'msw';
import type { MockClock } from './clock.js';
import type { PostDelivery } from './delivery-post.js';
import type { Fault } from './faults.js';
import type { IncidentActions } from './model/incident-actions.js';
import type { AlertActions } from './model/alert-actions.js';
import type { FiredRun, ReadyTrigger } from './model/automations.js';
import { Random } from './model/random.js';
import type { World } from './model/world.js';
import { checkMockOptions, type MockServiceOptions } from './options.js';
import type { AuditEntry } from './world/audit.js';
import { createHandlers } from './msw.js';
import { answerControlRoute, isControlRoute } from './control.js';
import { DROP, Truncated } from './replies.js';
import { route } from './router.js';
import type {
  HistoryFilter,
  HistoryRecord,
  ReleaseOptions,
  WebhookIntegration,
  WebhookIntegrationConfig,
} from './sender.js';
import { type ListenOptions, type RunningServer, serve } from './server.js';
import { type CallRecord, MockState } from './state.js';
import { FlashdutyError } from '../internal/flashduty-error.js';

export type { MockServiceOptions } from './options.js';

/** A running model of the Flashduty service. */
export interface MockService {
  /** A valid key with every permission. */
  readonly appKey: string;
  /**
   * A valid access token of the same member, with every permission: the client's `accessToken`,
   * sent as `Authorization: Bearer` in place of the app key. The mock takes either credential.
   */
  readonly accessToken: string;
  /** Other keys: without the `on-call` permission, and expired. */
  readonly keys: { readonly full: string; readonly noPermission: string; readonly expired: string };
  /** The member behind `appKey` (and every key): the account's owner, the first of `world.members`. */
  readonly personId: number;
  /** MSW request handlers for `setupServer` / `setupWorker` (needs the msw package). */
  readonly handlers: RequestHandler[];
  /** The generated data, live: changes show in later answers. */
  readonly world: World;
  readonly clock: MockClock;
  /**
   * Every write, oldest first: each call of an operation that writes (refused ones included) once past
   * its credential, limits and permission, and each thing done through `actions` (as the console).
   */
  readonly auditLog: readonly AuditEntry[];
  /** The most recent calls of every route as the mock saw them (bounded), oldest first. */
  readonly callLog: readonly CallRecord[];
  /** Whether an agent is enabled; `undefined` for an unknown agent. */
  agentEnabled(agentId: string): boolean | undefined;
  /** Whether a skill still exists. */
  hasSkill(skillId: string): boolean;
  /** AI SRE automations: their HTTP POST triggers, fired with each trigger's own token. */
  readonly automations: {
    /** Creates a rule with an enabled HTTP POST trigger; resolves its ids and its token (answered once, as the service does). */
    createTrigger(): ReadyTrigger;
    /** Every run a trigger started, oldest first. */
    readonly fired: readonly FiredRun[];
  };
  /** Faults for the next calls. */
  readonly faults: {
    /** Queues a fault for the next matching calls. */
    add(fault: Fault): void;
    /** Drops every queued fault. */
    clear(): void;
    /** Calls still to be faulted. */
    readonly pending: number;
  };
  /** Actions on incidents, as people and the platform take them; each adds its timeline row and emits its webhook event type. */
  readonly actions: IncidentActions;
  /** Alerts as integrations and people change them (push, merge, close); each emits its alert event type. */
  readonly alertActions: AlertActions;
  /** Outbound webhooks (incident, alert, custom action): integrations, deliveries and their call history. */
  readonly webhooks: {
    /** Adds an integration; deliveries start with the next event. */
    create(config: WebhookIntegrationConfig): WebhookIntegration;
    /** Every integration. */
    list(): WebhookIntegration[];
    /** Removes an integration and its history (unless `keepHistory`: its past deliveries stay readable). */
    remove(id: number, options?: { keepHistory?: boolean }): boolean;
    /**
     * Holds the deliveries to an integration until `release`: to send them in another order, or again,
     * as the service's retries and reordering do (a receiver's dedup and staleness, tried for real).
     */
    hold(id: number): void;
    /**
     * Sends what `hold` kept: in the order made, or `newestFirst`; each delivery `times` times with its
     * one event_id; with `only`, just the deliveries about those incidents or alerts, from then on
     * until the integration is removed (the rest, held or to come, is dropped: events another caller
     * made). Resolves when all are done.
     */
    release(id: number, options?: ReleaseOptions): Promise<void>;
    /** Call history of an integration, newest first, within the last 7 days. */
    history(id: number, filter?: HistoryFilter): HistoryRecord[];
    /** Resolves when no delivery is queued or in flight. */
    idle(): Promise<void>;
  };
  /** Answers one call, as a server would; a dropped connection rejects with a TypeError like fetch's. */
  fetch(request: Request): Promise<Response>;
  /** Serves the mock over HTTP on loopback. */
  listen(options?: ListenOptions): Promise<RunningServer>;
}

/**
 * Creates a seeded, stateful model of the service, to serve with MSW (`handlers`) or over HTTP
 * (`listen()`). An option it does not know, or a value out of its range, is a ConfigError.
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  return createMockServiceWith(checkMockOptions(options), {});
}

/**
 * @internal {@link createMockService} with its sender's way to post a delivery replaced: how unit
 * tests try deliveries (the trigger, the call history) without sockets.
 */
export function createMockServiceWith(options: MockServiceOptions, { post }: { post?: PostDelivery }): MockService {
  const seed = options.seed ?? 1;
  const state = new MockState({
    seed,
    incidents: options.incidents ?? 200,
    ...(options.now !== undefined ? { now: options.now } : {}),
    agents: options.agents ?? [{ agent_id: 'a2a_demo' }, { agent_id: 'a2a_enabled', enabled: true }],
    skills: options.skills ?? [{ skill_id: 'skill_demo' }],
    rateLimits: options.rateLimits === false ? false : { perSecond: 50, perMinute: 1000, ...options.rateLimits },
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    ...(post ? { post } : {}),
  });
  const keyRandom = new Random(seed * 31 + 7);
  const owner = state.world.members[0];
  if (!owner) throw new FlashdutyError('mock service: the world has no members');
  const keys = {
    full: `fdk_${keyRandom.hex(32)}`,
    noPermission: `fdk_${keyRandom.hex(32)}`,
    expired: `fdk_${keyRandom.hex(32)}`,
  };
  const accessToken = `fdt_${keyRandom.hex(40)}`;
  state.credentials.set(accessToken, {
    name: 'access-token',
    personId: owner.person_id,
    permissions: ['on-call', 'ai-sre'],
    expired: false,
  });
  state.credentials.set(keys.full, {
    name: 'full',
    personId: owner.person_id,
    permissions: ['on-call', 'ai-sre'],
    expired: false,
  });
  state.credentials.set(keys.noPermission, {
    name: 'no-permission',
    personId: owner.person_id,
    permissions: ['ai-sre'],
    expired: false,
  });
  state.credentials.set(keys.expired, {
    name: 'expired',
    personId: owner.person_id,
    permissions: ['on-call', 'ai-sre'],
    expired: true,
  });

  // The service's routes, and over HTTP the mock's own control route (control.ts) beside them.
  const handle = (request: Request) => route(state, request);
  const handleHttp = (request: Request) =>
    isControlRoute(request) ? answerControlRoute(service, request) : handle(request);
  let handlers: RequestHandler[] | undefined;

  const service: MockService = {
    appKey: keys.full,
    accessToken,
    keys,
    personId: owner.person_id,
    get handlers() {
      handlers ??= createHandlers(handle);
      return handlers;
    },
    world: state.world,
    clock: state.clock,
    auditLog: state.auditLog,
    callLog: state.callLog,
    agentEnabled: (agentId) => state.agentsAndSkills.enabled(agentId),
    hasSkill: (skillId) => state.agentsAndSkills.skills.has(skillId),
    automations: {
      createTrigger: () => state.automations.createTrigger(owner.person_id),
      fired: state.automations.fired,
    },
    faults: {
      add: (fault) => state.faults.add(fault),
      clear: () => state.faults.clear(),
      get pending() {
        return state.faults.pending;
      },
    },
    actions: state.consoleActions,
    alertActions: state.alertActions,
    webhooks: {
      create: (config) => state.sender.create(config),
      list: () => state.sender.list(),
      remove: (id, removeOptions) => state.sender.remove(id, removeOptions),
      hold: (id) => state.sender.hold(id),
      release: (id, releaseOptions) => state.sender.release(id, releaseOptions),
      history: (id, filter) => state.sender.history(id, filter),
      idle: () => state.sender.idle(),
    },
    async fetch(request) {
      const result = await handle(request);
      if (result === DROP || result instanceof Truncated)
        throw new TypeError('fetch failed: the mock service dropped the connection');
      return result;
    },
    listen: (listenOptions) => serve(handleHttp, listenOptions),
  };
  return service;
}
