// Deliveries of one event type, on demand: the mock's own actions make the event happen to a fresh
// incident (or alert), and the mock's own sender delivers it to one integration subscribed to that
// type only, so every delivery is built, rendered (custom body, value mapping) and sent exactly as
// the mock service sends webhooks: its 2 s deadline (1 s for a custom action), its retry rule, its
// call history. `flashduty webhooks trigger` is this, from a shell. For trying a receiver's dedup
// and staleness: each delivery sent several times with its one event_id (`duplicate`), and several
// event types made to one incident, one after another, then delivered newest first (`reorder`).

import type { HistoryRecord, WebhookIntegrationConfig } from './sender.js';
import type { MockService } from './service.js';
import { ALERT_EVENT_TYPES, INCIDENT_EVENT_TYPES } from '../webhooks/types.js';
import { ConfigError } from '../internal/flashduty-error.js';

/** Every event type a trigger can make: the incident webhook's, the alert webhook's and `i_custom`. */
export const TRIGGER_EVENT_TYPES: readonly string[] = [...INCIDENT_EVENT_TYPES, ...ALERT_EVENT_TYPES];

/** What {@link triggerDeliveries} sends. */
export interface TriggerOptions {
  /** The event type, one of {@link TRIGGER_EVENT_TYPES}. */
  eventType: string;
  /** Where to: an http:// or https:// URL. */
  endpoint: string;
  /** Headers sent with every delivery (a shared secret, say). */
  headers?: Record<string, string>;
  /** A custom body template, and value mapping for it. */
  customBody?: unknown;
  valueMapping?: WebhookIntegrationConfig['valueMapping'];
  /** How many deliveries (each a fresh event); default 1. */
  count?: number;
  /** Each delivery sent this many times, with one event_id; default 1. */
  duplicate?: number;
  /**
   * With several incident event types (`eventTypes`): they happen to one incident (per `count`), in
   * the order given, each a moment after the last, and are delivered newest first.
   */
  reorder?: boolean;
  /** Several event types at once, with `reorder`; `eventType` is then the first. */
  eventTypes?: readonly string[];
}

/** Makes `count` events of `eventType` happen in `service` and resolves with their call-history records, oldest first. */
export async function triggerDeliveries(service: MockService, options: TriggerOptions): Promise<HistoryRecord[]> {
  const { integration, records } = await trigger(service, options);
  // The integration was made for these deliveries only: later events of the service do not go there.
  service.webhooks.remove(integration);
  return records;
}

/**
 * @internal {@link triggerDeliveries}, the integration kept: its id (for `webhooks replay`), and its
 * records. The caller removes the integration (keeping its history or not).
 */
export async function trigger(
  service: MockService,
  options: TriggerOptions,
): Promise<{ integration: number; records: HistoryRecord[] }> {
  const types = options.reorder ? [...(options.eventTypes ?? [options.eventType])] : [options.eventType];
  for (const eventType of types) {
    if (!TRIGGER_EVENT_TYPES.includes(eventType)) {
      throw new ConfigError(
        `trigger: unknown event type ${JSON.stringify(eventType)}; one of ${TRIGGER_EVENT_TYPES.join(', ')}`,
      );
    }
    if (options.reorder && !INCIDENT_EVENT_TYPES.includes(eventType as never))
      throw new ConfigError(`trigger: reorder makes one incident's events; ${eventType} is not an incident event`);
  }
  const [first] = types as [string];
  const kind = first === 'i_custom' ? 'custom_action' : first.startsWith('a_') ? 'alert' : 'incident';
  const channel = service.world.channels[0]?.channel_id;
  if (channel === undefined) throw new ConfigError('trigger: the mock has no channel');
  const hook = service.webhooks.create({
    kind,
    endpoint: options.endpoint,
    headers: options.headers ?? {},
    eventTypes: types,
    channelIds: [channel],
    ...(options.customBody !== undefined ? { customBody: options.customBody } : {}),
    ...(options.valueMapping !== undefined ? { valueMapping: options.valueMapping } : {}),
  });
  service.webhooks.hold(hook.id);
  // What this run made: the integration is held for its events only (another run's, or any caller's
  // on the same channel meanwhile, are not this run's deliveries).
  const made = { incidentIds: [] as string[], alertIds: [] as string[] };
  for (let i = 0; i < (options.count ?? 1); i++) {
    if (options.reorder) made.incidentIds.push(await sequence(service, types, channel, hook.id, i));
    else if (kind === 'alert') made.alertIds.push(await alertEvent(service, first, channel, hook.id, i));
    else made.incidentIds.push(await incidentEvent(service, first, channel, hook.id, i));
  }
  await service.webhooks.release(hook.id, {
    newestFirst: options.reorder === true,
    times: options.duplicate ?? 1,
    only: made,
  });
  return { integration: hook.id, records: service.webhooks.history(hook.id).reverse() };
}

/**
 * One incident's events of `types`, in that order, each at least a millisecond after the last (so
 * that delivered newest first, each is older than the one before it): the first type that makes an
 * incident (`i_new`, or the incident its own steps make) starts it, the others act on it.
 */
async function sequence(
  service: MockService,
  types: string[],
  channel: number,
  hookId: number,
  n: number,
): Promise<string> {
  const { incident_id: id } = await service.actions.create({
    title: `Disk full on db-${n + 1}`,
    incident_severity: 'Critical',
    channel_id: channel,
  });
  for (const eventType of types) {
    if (eventType === 'i_new') continue; // made with the incident above
    await tick(service);
    await incidentEvent(service, eventType, channel, hookId, n, id);
  }
  return id;
}

/** A moment later by the mock's clock: pinned, it is moved on; following real time, it is waited for. */
async function tick(service: MockService): Promise<void> {
  if (service.clock.pinned) return service.clock.advance(1);
  const now = service.clock.now();
  while (service.clock.now() === now) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** One incident event of `eventType`, on the incident `existing`, else on a fresh incident of `channel`; its id. */
async function incidentEvent(
  service: MockService,
  eventType: string,
  channel: number,
  hookId: number,
  n: number,
  existing?: string,
): Promise<string> {
  const { actions } = service;
  const fresh = () =>
    actions.create({ title: `Disk full on db-${n + 1}`, incident_severity: 'Critical', channel_id: channel });
  const id = existing ?? (await fresh()).incident_id;
  await incidentAction(service, eventType, id, hookId, fresh);
  return id;
}

/** The action that makes `eventType` happen to incident `id`. */
async function incidentAction(
  service: MockService,
  eventType: string,
  id: string,
  hookId: number,
  fresh: () => Promise<{ incident_id: string }>,
): Promise<void> {
  const { actions, personId } = service;
  const other = service.world.members[1]?.person_id ?? personId;
  switch (eventType) {
    case 'i_new':
      return;
    case 'i_assign':
      return void (await actions.assign(id, [other], personId));
    case 'i_a_rspd':
      return void (await actions.addResponder(id, other, personId));
    case 'i_snooze':
      return void (await actions.snooze(id, 30, personId));
    case 'i_wake':
      await actions.snooze(id, 30, personId);
      return void (await actions.wake(id, personId));
    case 'i_ack':
      return void (await actions.ack(id, personId));
    case 'i_unack':
      await actions.ack(id, personId);
      return void (await actions.unack(id, personId));
    case 'i_storm':
      return void (await actions.storm(id));
    case 'i_custom':
      return void (await actions.customAction(id, personId, hookId));
    case 'i_rslv':
      return void (await actions.close(id, personId));
    case 'i_reopen':
      await actions.close(id, personId);
      return void (await actions.reopen(id, personId));
    case 'i_merge':
      return void (await actions.merge(id, [(await fresh()).incident_id], personId));
    case 'i_comm':
      return void (await actions.comment(id, 'Rolling back the last deploy.', personId));
    case 'i_r_field':
      return void (await actions.setField(id, 'service', 'checkout', personId));
    default: {
      const field = UPDATED[eventType] ?? 'title';
      return void (await actions.update(
        id,
        field,
        field === 'incident_severity' ? 'Warning' : 'Disk full on db-1 (primary)',
        personId,
      ));
    }
  }
}

/** The field `actions.update` changes for each `i_r_*` event type. */
const UPDATED: Record<string, Parameters<MockService['actions']['update']>[1]> = {
  i_r_title: 'title',
  i_r_desc: 'description',
  i_r_impact: 'impact',
  i_r_rc: 'root_cause',
  i_r_rsltn: 'resolution',
  i_r_severity: 'incident_severity',
};

/**
 * One alert event of `eventType`, on a fresh alert of `channel`: its key is the run's (the
 * integration made for it) and the event's number, so that no alert of another run is taken for it.
 * Its id.
 */
async function alertEvent(
  service: MockService,
  eventType: string,
  channel: number,
  hookId: number,
  n: number,
): Promise<string> {
  const { alertActions, personId } = service;
  const key = `trigger-${hookId}-${n}`;
  const push = (event_status: 'Critical' | 'Ok') =>
    alertActions.push({ title: `CPU above 90% on web-${n + 1}`, event_status, alert_key: key, channel_id: channel });
  const alert = await push('Critical');
  if (eventType === 'a_update') await push('Critical');
  if (eventType === 'a_close') await alertActions.close(alert.alert_id, personId);
  if (eventType === 'a_merge') {
    const { incident_id } = await service.actions.create({
      title: 'CPU incident',
      incident_severity: 'Warning',
      channel_id: channel,
    });
    await alertActions.merge(alert.alert_id, incident_id, personId);
  }
  return alert.alert_id;
}
