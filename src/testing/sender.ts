// The mock's outbound webhooks: integrations of three kinds (incident webhooks, alert webhooks,
// custom actions), deliveries by the spec's delivery rules, and the call history. Bodies are
// rendered with the same renderCustomBody the receiver package exports.
//
// Delivery rules: POST JSON with the custom headers (delivery-post.ts makes one POST and judges it);
// success only on HTTP 200; a 2-second deadline (1 s for custom actions); at most one retry, and
// only for what the retry rule retries; a fresh event_id per callback, kept by its retry; the
// latest incident (or alert) in each; the deliveries of one integration one after another. A custom
// action goes only to the integration triggered, and a channel has at most 5 custom actions. A
// header no request can carry is refused when the integration is made, never dropped at delivery.
// The call history keeps 7 days, newest first, with its filters.
// For trying a receiver's dedup and staleness, deliveries to an integration can be held and then
// released newest first, or each sent several times with its one event_id (what the service's
// retries and reordering look like to a receiver).

import { isHeaderName } from '../internal/http-header.js';
import { renderCustomBody, type ValueMapping } from '../webhooks/template.js';
import type { MockClock } from './clock.js';
import { type Attempt, type PostDelivery, postDelivery } from './delivery-post.js';
import { type IncidentEvent, MockActionError } from './model/incident-actions.js';
import type { AlertEvent } from './model/alert-actions.js';
import { Random } from './model/random.js';
import { alertPayload, customActionPayload, incidentPayload, toWebhookIncident } from './payloads.js';
import { ConfigError } from '../internal/flashduty-error.js';

/** What an integration sends: incident events, alert events, or one custom action (`i_custom`). */
export type WebhookKind = 'incident' | 'alert' | 'custom_action';

/** The settings of a webhook integration. */
export interface WebhookIntegrationConfig {
  name?: string;
  description?: string;
  /** Default `incident`. A `custom_action` needs `channelIds` (at most 5 custom actions per channel). */
  kind?: WebhookKind;
  /** http:// or https:// address that receives the callbacks. */
  endpoint: string;
  /** Verify the target's TLS certificate (https); default true. */
  tlsVerify?: boolean;
  /** Custom request headers. */
  headers?: Record<string, string>;
  /** Subscribed event types; default all. */
  eventTypes?: string[];
  /** Only incidents (or alerts) of these channels (0: standalone); default all. */
  channelIds?: number[];
  /** A custom body template (a JSON value or JSON text); default the full payload. */
  customBody?: unknown;
  /** Value mapping for the custom body's variables. */
  valueMapping?: ValueMapping;
}

/** A webhook integration of the mock. */
export interface WebhookIntegration extends Required<
  Omit<WebhookIntegrationConfig, 'eventTypes' | 'channelIds' | 'customBody' | 'valueMapping'>
> {
  /** A whole number, like the service's int64 `integration_id`: it is the `integration_id` of `/webhook/history/*`. */
  id: number;
  eventTypes: string[] | 'all';
  channelIds: number[] | 'all';
  customBody?: unknown;
  valueMapping: ValueMapping;
}

/** One callback in the call history. */
export interface HistoryRecord {
  /** Unix ms when the event happened. */
  trigger_time: number;
  event_type: string;
  /** Empty for alert events. */
  incident_id: string;
  /** Alert events only. */
  alert_id?: string;
  /** Unique per callback; a retry carries the same one. */
  event_id: string;
  status: 'success' | 'failure';
  /** 0 when no HTTP answer came. */
  http_status: number;
  /** Round trip of every attempt together. */
  duration_ms: number;
  /** The first request plus retries. */
  request_count: number;
  request: { endpoint: string; headers: Record<string, string>; payload: unknown };
  response?: { headers: Record<string, string>; body: string };
  /** Why it failed, when no success came. */
  error?: string;
}

/** Filters of the call history. */
export interface HistoryFilter {
  eventType?: string;
  incidentId?: string;
  alertId?: string;
  status?: 'success' | 'failure';
  /** Unix ms, inclusive. */
  since?: number;
  /** Unix ms, inclusive. */
  until?: number;
}

/** One callback as the sender keeps it: the public record and what `/webhook/history/*` also shows. */
export interface StoredDelivery {
  record: HistoryRecord;
  /** Order of recording, to break ties of `trigger_time`. */
  seq: number;
  integrationId: number;
  channelId: number;
  /** `incident` (alert webhooks would say `alert`). */
  webhookType: string;
  /** The body exactly as sent. */
  body: string;
}

const DEADLINE_MS = 2_000;
/** A custom action's sender waits 1 s. */
const CUSTOM_ACTION_DEADLINE_MS = 1_000;
const CUSTOM_ACTIONS_PER_CHANNEL = 5;
const KINDS: readonly WebhookKind[] = ['incident', 'alert', 'custom_action'];
/** How far back the call history reaches. */
const HISTORY_MS = 7 * 86_400_000;

/** How `service.webhooks.release` sends what `hold` kept. */
export interface ReleaseOptions {
  /** Newest first (by event time), instead of the order made. */
  newestFirst?: boolean;
  /** Each delivery this many times, with its one event_id; default 1. */
  times?: number;
  /**
   * Only the deliveries about these incidents or alerts, from then on until the integration is
   * removed: the rest, held or to come, is dropped.
   */
  only?: { incidentIds?: readonly string[]; alertIds?: readonly string[] };
}

/** Whether a delivery is about one of `only`'s incidents or alerts. */
function isAbout(only: NonNullable<ReleaseOptions['only']>, about: About): boolean {
  return (
    only.incidentIds?.includes(about.incidentId) === true ||
    (about.alertId !== undefined && only.alertIds?.includes(about.alertId) === true)
  );
}

/** What a delivery is about, for its history record. */
interface About {
  /** Empty for alert events. */
  incidentId: string;
  alertId?: string;
  channelId: number;
}

export class WebhookSender {
  readonly #clock: MockClock;
  readonly #random: Random;
  readonly #integrations = new Map<number, WebhookIntegration>();
  readonly #history = new Map<number, StoredDelivery[]>();
  /** Per integration, the tail of its delivery queue: events of one integration go out in order. */
  readonly #queues = new Map<number, Promise<void>>();
  /** Ids are 13-digit numbers like the service's, seeded so that a seed gives the same ids. */
  readonly #idBase: number;
  /** Deliveries held per integration (hold/release), in the order made. */
  readonly #held = new Map<number, Array<{ payload: Record<string, unknown>; about: About }>>();
  /** What an integration released with `only` delivers from then on, until it is removed. */
  readonly #only = new Map<number, NonNullable<ReleaseOptions['only']>>();
  #inFlight = 0;
  #idleWaiters: Array<() => void> = [];
  #sequence = 0;
  #recorded = 0;
  readonly #post: PostDelivery;

  /** `post` makes one POST of a delivery (over node:http by default; unit tests pass their own). */
  constructor(clock: MockClock, seed: number, post: PostDelivery = postDelivery) {
    this.#clock = clock;
    this.#post = post;
    this.#random = new Random(seed * 13 + 5);
    const ids = new Random(seed * 101 + 3);
    this.#idBase = ids.int(1, 8) * 1e12 + ids.int(0, 999_999) * 1e6;
  }

  create(config: WebhookIntegrationConfig): WebhookIntegration {
    let url: URL;
    try {
      url = new URL(config?.endpoint);
    } catch {
      throw new ConfigError(`webhooks.create: endpoint is not a URL: ${JSON.stringify(config?.endpoint)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new ConfigError('webhooks.create: endpoint must start with http:// or https://');
    if (config.customBody !== undefined) renderCustomBody(config.customBody, {}); // refuse a broken template now
    checkHeaders(config.headers);
    const kind = config.kind ?? 'incident';
    if (!KINDS.includes(kind)) throw new ConfigError(`webhooks.create: kind must be one of ${KINDS.join(', ')}`);
    if (kind === 'custom_action') this.#checkCustomActionChannels(config.channelIds);
    const id = this.#idBase + ++this.#sequence;
    const integration: WebhookIntegration = {
      id,
      kind,
      name: config.name ?? `webhook ${this.#sequence}`,
      description: config.description ?? '',
      endpoint: url.href,
      tlsVerify: config.tlsVerify ?? true,
      headers: { ...config.headers },
      eventTypes: config.eventTypes ? [...config.eventTypes] : 'all',
      channelIds: config.channelIds ? [...config.channelIds] : 'all',
      ...(config.customBody !== undefined ? { customBody: config.customBody } : {}),
      valueMapping: config.valueMapping ?? {},
    };
    this.#integrations.set(id, integration);
    this.#history.set(id, []);
    return structuredClone(integration);
  }

  list(): WebhookIntegration[] {
    return [...this.#integrations.values()].map((i) => structuredClone(i));
  }

  /** Removes an integration; its call history goes with it unless `keepHistory`. */
  remove(id: number, { keepHistory = false }: { keepHistory?: boolean } = {}): boolean {
    if (!keepHistory) this.#history.delete(id);
    this.#held.delete(id);
    this.#only.delete(id);
    return this.#integrations.delete(id);
  }

  /** Holds the deliveries to an integration until {@link release}. */
  hold(id: number): void {
    if (!this.#integrations.has(id)) throw new ConfigError(`webhooks.hold: no integration ${String(id)}`);
    if (!this.#held.has(id)) this.#held.set(id, []);
  }

  /**
   * Sends what {@link hold} kept, in the order made or newest first (by event time, later-made first
   * where equal), each delivery `times` times with its one event_id; resolves when all are done.
   */
  release(id: number, { newestFirst = false, times = 1, only }: ReleaseOptions = {}): Promise<void> {
    const held = this.#held.get(id);
    const integration = this.#integrations.get(id);
    if (!held || !integration) throw new ConfigError(`webhooks.release: no held integration ${String(id)}`);
    this.#held.delete(id);
    // From now on (held ones included, sent below) #enqueue delivers only what `only` names.
    if (only) this.#only.set(id, only);
    const time = (entry: (typeof held)[number]) => entry.payload.event_time as number;
    const order = newestFirst ? [...held].reverse().sort((a, b) => time(b) - time(a)) : held;
    for (const { payload, about } of order) for (let i = 0; i < times; i++) this.#enqueue(integration, payload, about);
    return this.idle();
  }

  /** Call history, newest first, within the last 7 days. */
  history(id: number, filter: HistoryFilter = {}): HistoryRecord[] {
    const calls = this.#history.get(id);
    if (!calls) throw new ConfigError(`webhooks.history: no integration ${String(id)}`);
    const oldest = Math.max(this.#clock.now() - HISTORY_MS, filter.since ?? -Infinity);
    return calls
      .map((call) => call.record)
      .filter(
        (r) =>
          r.trigger_time >= oldest &&
          r.trigger_time <= (filter.until ?? Infinity) &&
          (filter.eventType === undefined || r.event_type === filter.eventType) &&
          (filter.incidentId === undefined || r.incident_id === filter.incidentId) &&
          (filter.alertId === undefined || r.alert_id === filter.alertId) &&
          (filter.status === undefined || r.status === filter.status),
      )
      .reverse()
      .map((r) => structuredClone(r));
  }

  /** Every callback of every integration still within the last 7 days, oldest recorded first (live, not copies). */
  deliveries(): StoredDelivery[] {
    const oldest = this.#clock.now() - HISTORY_MS;
    const out: StoredDelivery[] = [];
    for (const stored of this.#history.values())
      for (const delivery of stored) if (delivery.record.trigger_time >= oldest) out.push(delivery);
    return out;
  }

  /** Resolves when no delivery is queued or in flight. */
  idle(): Promise<void> {
    return this.#inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Called for every incident event: queues a delivery to each subscribed incident webhook, and a
   * custom action to the one custom-action integration triggered.
   */
  dispatch(event: IncidentEvent): void {
    const incident = toWebhookIncident(event.incident);
    const channel = event.incident.channel_id;
    if (event.integration_id !== undefined) {
      const action = this.#integrations.get(event.integration_id as WebhookIntegration['id']);
      if (action?.kind !== 'custom_action')
        throw new MockActionError(`customAction: no custom-action integration ${String(event.integration_id)}`);
      if (action.channelIds !== 'all' && !action.channelIds.includes(channel)) {
        throw new MockActionError(
          `customAction: integration ${String(action.id)} is not offered in channel ${channel}`,
        );
      }
      this.#enqueue(action, customActionPayload(event, this.#random.hex(32), incident, action), {
        incidentId: incident.incident_id,
        channelId: channel,
      });
    }
    for (const integration of this.#subscribed('incident', event.event_type, channel)) {
      this.#enqueue(integration, incidentPayload(event, this.#random.hex(32), incident), {
        incidentId: incident.incident_id,
        channelId: channel,
      });
    }
  }

  /** Called for every alert event: queues a delivery to each subscribed alert webhook. */
  dispatchAlert(event: AlertEvent): void {
    for (const integration of this.#subscribed('alert', event.event_type, event.alert.channel_id)) {
      this.#enqueue(integration, alertPayload(event, this.#random.hex(32)), {
        incidentId: '',
        alertId: event.alert.alert_id,
        channelId: event.alert.channel_id,
      });
    }
  }

  #subscribed(kind: WebhookKind, eventType: string, channelId: number): WebhookIntegration[] {
    return [...this.#integrations.values()].filter(
      (i) =>
        i.kind === kind &&
        (i.eventTypes === 'all' || i.eventTypes.includes(eventType)) &&
        (i.channelIds === 'all' || i.channelIds.includes(channelId)),
    );
  }

  #enqueue(integration: WebhookIntegration, payload: Record<string, unknown>, about: About): void {
    const only = this.#only.get(integration.id);
    if (only && !isAbout(only, about)) return;
    const held = this.#held.get(integration.id);
    if (held) return void held.push({ payload, about });
    this.#inFlight++;
    const previous = this.#queues.get(integration.id) ?? Promise.resolve();
    const next = previous.then(() => this.#deliver(integration, payload, about)).finally(() => this.#settled());
    this.#queues.set(integration.id, next);
  }

  #checkCustomActionChannels(channelIds: number[] | undefined): void {
    if (!Array.isArray(channelIds) || channelIds.length === 0)
      throw new ConfigError('webhooks.create: a custom action needs channelIds');
    for (const channel of channelIds) {
      const count = [...this.#integrations.values()].filter(
        (i) => i.kind === 'custom_action' && i.channelIds !== 'all' && i.channelIds.includes(channel),
      ).length;
      if (count >= CUSTOM_ACTIONS_PER_CHANNEL)
        throw new ConfigError(
          `webhooks.create: channel ${channel} already has ${CUSTOM_ACTIONS_PER_CHANNEL} custom actions`,
        );
    }
  }

  #settled(): void {
    if (--this.#inFlight > 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  async #deliver(integration: WebhookIntegration, payload: Record<string, unknown>, about: About): Promise<void> {
    const body =
      integration.customBody === undefined
        ? payload
        : renderCustomBody(integration.customBody, payload, integration.valueMapping);
    const text = JSON.stringify(body);
    const headers = { ...integration.headers, 'Content-Type': 'application/json' };
    const started = Date.now();
    const deadline = integration.kind === 'custom_action' ? CUSTOM_ACTION_DEADLINE_MS : DEADLINE_MS;
    const request = {
      endpoint: integration.endpoint,
      headers,
      body: text,
      deadlineMs: deadline,
      tlsVerify: integration.tlsVerify,
    };
    let attempt: Attempt = await this.#post(request);
    let count = 1;
    if (attempt.retryable) {
      attempt = await this.#post(request);
      count = 2;
    }
    const ok = attempt.status === 200 && attempt.error === undefined;
    const record: HistoryRecord = {
      trigger_time: payload.event_time as number,
      event_type: payload.event_type as string,
      incident_id: about.incidentId,
      ...(about.alertId === undefined ? {} : { alert_id: about.alertId }),
      event_id: (payload.event_id ?? (payload.incident as { event_id: string }).event_id) as string,
      status: ok ? 'success' : 'failure',
      http_status: attempt.status,
      duration_ms: Date.now() - started,
      request_count: count,
      request: { endpoint: integration.endpoint, headers, payload: body },
      ...(ok
        ? { response: { headers: attempt.headers, body: attempt.body } }
        : {
            error: attempt.error ?? `HTTP ${attempt.status}`,
            ...(attempt.status ? { response: { headers: attempt.headers, body: attempt.body } } : {}),
          }),
    };
    this.#history.get(integration.id)?.push({
      record,
      seq: ++this.#recorded,
      integrationId: integration.id,
      channelId: about.channelId,
      webhookType: integration.kind === 'alert' ? 'alert' : 'incident',
      body: text,
    });
  }
}

/** Headers no HTTP request can carry (a name that is not a token, a line break or NUL in a value): refused at once. */
function checkHeaders(headers: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!isHeaderName(name))
      throw new ConfigError(`webhooks.create: header name ${JSON.stringify(name)} is not an HTTP token`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value))
      throw new ConfigError(`webhooks.create: header ${name} must be a string without line breaks or NUL`);
  }
}
