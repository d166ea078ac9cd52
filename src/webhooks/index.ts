// Entry `flashduty-sdk/webhooks`: the receiver and its Fastify plugin, queue handoff and state stores, replay, the custom-body renderer.
export { WebhookReceiver, UNRECORDED } from './receiver.js';
export type {
  Delivery,
  EventHandler,
  InvalidDelivery,
  ReceiveOutcome,
  ReceiveResult,
  WebhookReceiverOptions,
} from './receiver.js';
export { fastifyWebhooks } from './adapters/fastify.js';
export type { FastifyLike, FastifyWebhooksOptions } from './adapters/fastify.js';
export type { FetchHandler } from './adapters/fetch.js';
export type { NodeMiddleware, NodeRequestLike, NodeResponseLike } from './adapters/node.js';
export type { NodeReadable } from './adapters/node-stream.js';
export type { HeadersLike } from './ingress.js';
export { DeadlineExceededError } from './deadline.js';
export { OutageError } from './outage.js';
export { jobIdFor } from './queue/enqueue.js';
export type { WebhookQueue } from './queue/enqueue.js';
export type { JobResult, WebhookJob } from './queue/worker.js';
export { replayFromHistory } from './replay.js';
export type { ReplayClient, ReplayOptions, ReplayRejection, ReplayReport, UnreadRecord } from './replay.js';
export { checkPayload, isWebhookEvent, readDefaultPayload } from './payload.js';
export type { DeliveryKeys, PayloadReader, ReadResult } from './payload.js';
export type { SecretOptions } from './secret.js';
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
export { renderCustomBody, TemplateSyntaxError } from './template.js';
export type { ValueMapping } from './template.js';
export { CustomBodyError, customBodyReader } from './custom-body.js';
export type { CustomBodyOptions } from './custom-body.js';
export { lintCustomBody } from './custom-body-lint.js';
export type { CustomBodyLint } from './custom-body-lint.js';
export type { Problem } from '../core/problem.js';
export {
  ALERT_EVENT_TYPES,
  CustomBodyEvent,
  isEventType,
  isKnownEvent,
  isKnownEventType,
  INCIDENT_EVENT_TYPES,
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
