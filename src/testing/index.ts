// Entry `flashduty-sdk/testing`: the mock of the whole service, for your tests and ours.
export { createMockService } from './service.js';
export type { MockService, MockServiceOptions } from './service.js';
export type { Fault } from './faults.js';
export type { ListenOptions, RunningServer } from './server.js';
export type { AgentSeed, SkillSeed } from './model/agents-and-skills.js';
export type { AuditEntry } from './world/audit.js';
export type { TimelineRow } from './world/timeline.js';
export type { ResourceRecord } from './world/records.js';
export type { FiredRun, ReadyTrigger } from './model/automations.js';
export type { Account, Channel, Member, Team, World } from './model/world.js';
export type { RateLimits } from './rate-limit.js';
export { MockClock } from './clock.js';
export { buildDelivery, buildWebhookEvent } from './webhook-fixtures.js';
export type { BuiltDelivery, DeliveryOptions, WebhookEventOverrides } from './webhook-fixtures.js';
export type { CreateIncidentParams, IncidentActions, IncidentEvent, UpdatableField } from './model/incident-actions.js';
export { MockActionError } from './model/incident-actions.js';
export type { AlertActions, AlertEvent, PushAlertParams } from './model/alert-actions.js';
export type {
  HistoryFilter,
  HistoryRecord,
  ReleaseOptions,
  WebhookIntegration,
  WebhookIntegrationConfig,
  WebhookKind,
} from './sender.js';
export type { CallRecord } from './state.js';
export { TRIGGER_EVENT_TYPES, triggerDeliveries } from './webhook-trigger.js';
export type { TriggerOptions } from './webhook-trigger.js';
