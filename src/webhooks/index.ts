// Entry `flashduty-sdk/webhooks`: the receiver, its adapters, queue handoff and state stores, the custom-body renderer.
export { WebhookReceiver } from './receiver.js';
export type { ReceiverCore } from './receiver.js';
export { UNRECORDED } from './adapters/respond.js';
export { fetchHandler } from './adapters/fetch.js';
export { nodeMiddleware } from './adapters/node.js';
export { DeadlineExceededError } from './deadline.js';
export { jobIdFor } from './queue.js';
export { replayFromHistory } from './replay.js';
export type { ReplayClient, ReplayOptions, ReplayRejection, ReplayReport } from './replay.js';
export type { WebhookJob, WebhookQueue } from './queue.js';
export type { BodyReader, BodySource } from './body.js';
export { readDefaultPayload } from './kinds.js';
export type { DeliveryKeys, PayloadReader, ReadResult } from './kinds.js';
export type {
  Delivery,
  EventHandler,
  InvalidDelivery,
  ReceiveOutcome,
  ReceiveResult,
  WebhookReceiverOptions,
} from './receiver.js';
export type { SecretOptions } from './secret.js';
export type { HeadersLike, NodeReadable } from './body.js';
export { MemoryStateStore } from './stores/memory.js';
export type { MemoryStateStoreOptions } from './stores/memory.js';
export { RedisStateStore } from './stores/redis.js';
export type {
  IORedisLike,
  NodeRedisClusterLike,
  NodeRedisLike,
  RedisClientLike,
  RedisStateStoreOptions,
} from './stores/redis.js';
export type { Claim, ClaimRequest, StateStore } from './stores/store.js';
export type { HandlerContext } from './pipeline.js';
export type { JobResult } from './jobs.js';
export { fastifyWebhooks } from './adapters/fastify.js';
export type { FastifyLike, FastifyWebhooksOptions } from './adapters/fastify.js';
export type { FetchHandler } from './adapters/fetch.js';
export type { NodeMiddleware, NodeRequestLike, NodeResponseLike } from './adapters/node.js';
export { renderCustomBody, TemplateSyntaxError } from './template.js';
export type { ValueMapping } from './template.js';
export { CustomBodyError, customBodyReader } from './custom-body.js';
export type { CustomBodyOptions } from './custom-body.js';
export { lintCustomBody } from './custom-body-lint.js';
export type { CustomBodyLint, TemplateProblem } from './custom-body-lint.js';
export { isWebhookEvent } from './payload.js';
export { checkPayload } from './payload-problems.js';
export type { PayloadProblem } from './payload-problems.js';
export type { Problem } from '../core/problem.js';
export {
  ALERT_EVENT_TYPES,
  CustomBodyEvent,
  isEventType,
  isKnownEvent,
  isKnownEventType,
  INCIDENT_EVENT_TYPES,
  WEBHOOK_EVENT_TYPES,
} from './types.js';
export type {
  AlertEventType,
  AlertWebhookEvent,
  AlertWebhookEventOf,
  CustomActionEvent,
  IncidentEventType,
  IncidentWebhookEvent,
  IncidentWebhookEventOf,
  UnknownWebhookEvent,
  WebhookAlert,
  WebhookEventBase,
  KnownWebhookEvent,
  KnownWebhookEventType,
  Person,
  WebhookEvent,
  WebhookEventOf,
  WebhookEventType,
  WebhookIncident,
  WebhookResponder,
} from './types.js';
