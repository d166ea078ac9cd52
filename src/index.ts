// Entry `flashduty-sdk`: the client, its errors, and the API's types and schemas.
export { Flashduty, DEFAULT_BASE_URL } from './client/client.js';
export type {
  AfterResponseHook,
  BeforeRequestHook,
  ClientOptions,
  Hooks,
  RequestOptions,
  TokenRequestOptions,
} from './client/client.js';
export type { APIPromise, ResponseInfo, WithResponse } from './core/api-promise.js';
export type { MutationResult } from './client/ai-sre-mutations.js';
export { IncidentPage, IncidentPagePromise } from './client/pagination/incident-page.js';
export { ListPage } from './client/pagination/page.js';
export type { PageFactory } from './client/pagination/page.js';
export { ListPagePromise, PagePromise } from './client/pagination/page-promise.js';
export type { ItemsOptions, PagesOptions, PageSource, WalkOptions } from './client/pagination/page-promise.js';
export type { PagingMode } from './client/pagination/scheme.js';
export type { ListOperation, PagedRequest } from './client/pagination/operation.js';
export type { PagingRule } from './client/resources/rules.js';
export type { ListShape } from './client/pagination/page-shape.js';
export type * from './generated/resources/index.js';
export type {
  AlertEventListItem,
  AlertListItem,
  ChannelListItem,
  CommaJoined,
  CommaList,
  Data,
  IncidentFeedItem,
  ItemOf,
  ListPagePromiseOf,
  Params,
  WebhookHistoryPage,
  WebhookHistoryPagePromise,
} from './client/resources/types.js';
export type * from './schemas/webhook-history.js';
export type { RateLimitOptions } from './client/rate-limiter.js';
export type { IORedisLike, NodeRedisClusterLike, NodeRedisLike, RedisClientLike } from './internal/redis.js';
export type { RetryPolicy } from './client/retry.js';
export type {
  NdjsonLines,
  OperationBody,
  OperationData,
  OperationOf,
  OperationPath,
  PathParamsOf,
} from './client/operation-types.js';
export type { components, operations, paths, WithRequired } from './generated/openapi.js';
export type { Problem } from './core/problem.js';
export type { ValidateMode } from './core/envelope-reader.js';
export type { Logger, LogLevel } from './internal/logger.js';
export {
  AccessDeniedError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  BadRequestError,
  BalanceNotEnoughError,
  ConfigError,
  DangerousOperationError,
  EntityTooLargeError,
  ERROR_CLASSES,
  FlashdutyError,
  InternalError,
  InvalidContentTypeError,
  InvalidParameterError,
  isFlashdutyError,
  MethodNotAllowedError,
  NoLicenseError,
  ReferenceExistError,
  RequestLockedError,
  RequestTooFrequentlyError,
  RequestValidationError,
  RequestVerifyRequiredError,
  ResourceNotFoundError,
  ResponseTooLargeError,
  ResponseValidationError,
  RouteNotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
  UndonedOrderExistError,
} from './core/api-errors.js';
export type { APIErrorOptions, ErrorCode, FlashdutyErrorOptions, ResponseErrorOptions } from './core/api-errors.js';
export { VERSION } from './version.js';
export type { Progress, Severity } from './schemas/common.js';
export * from './schemas/incident.js';
export * from './schemas/alert.js';
export * from './schemas/list.js';
export * from './schemas/envelope.js';
