// Deliveries of one event type, on demand: the mock's own actions make the event happen to a fresh
// incident (or alert), and the mock's own sender delivers it to one integration subscribed to that
// type only, so every delivery is built, rendered (custom body, value mapping) and sent exactly as
// the mock service sends webhooks: its 2 s deadline (1 s for a custom action), its retry rule, its
// call history. `flashduty webhooks trigger` is this, from a shell.

import type { HistoryRecord, WebhookIntegrationConfig } from './sender.js';
import type { MockService } from './service.js';
import { ALERT_EVENT_TYPES, INCIDENT_EVENT_TYPES } from '../webhooks/types.js';

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
}

/** Makes `count` events of `eventType` happen in `service` and resolves with their call-history records, oldest first. */
export async function triggerDeliveries(service: MockService, options: TriggerOptions): Promise<HistoryRecord[]> {
  const { eventType } = options;
  if (!TRIGGER_EVENT_TYPES.includes(eventType)) {
    throw new TypeError(
      `trigger: unknown event type ${JSON.stringify(eventType)}; one of ${TRIGGER_EVENT_TYPES.join(', ')}`,
    );
  }
  const kind = eventType === 'i_custom' ? 'custom_action' : eventType.startsWith('a_') ? 'alert' : 'incident';
  const channel = service.world.channels[0]?.channel_id;
  if (channel === undefined) throw new Error('trigger: the mock has no channel');
  const hook = service.webhooks.create({
    kind,
    endpoint: options.endpoint,
    headers: options.headers ?? {},
    eventTypes: [eventType],
    channelIds: [channel],
    ...(options.customBody !== undefined ? { customBody: options.customBody } : {}),
    ...(options.valueMapping !== undefined ? { valueMapping: options.valueMapping } : {}),
  });
  for (let i = 0; i < (options.count ?? 1); i++) {
    await (kind === 'alert'
      ? alertEvent(service, eventType, channel, i)
      : incidentEvent(service, eventType, channel, hook.id, i));
  }
  await service.webhooks.idle();
  const records = service.webhooks.history(hook.id).reverse();
  // The integration was made for these deliveries only: later events of the service do not go there.
  service.webhooks.remove(hook.id);
  return records;
}

/** One incident event of `eventType`, on a fresh incident of `channel`. */
async function incidentEvent(
  service: MockService,
  eventType: string,
  channel: number,
  hookId: number,
  n: number,
): Promise<void> {
  const { actions, personId } = service;
  const other = service.world.members[1]?.person_id ?? personId;
  const fresh = () =>
    actions.create({ title: `Disk full on db-${n + 1}`, incident_severity: 'Critical', channel_id: channel });
  const { incident_id: id } = await fresh();
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

/** One alert event of `eventType`, on a fresh alert of `channel`. */
async function alertEvent(service: MockService, eventType: string, channel: number, n: number): Promise<void> {
  const { alertActions, personId } = service;
  const key = `cli-trigger-${Date.now()}-${n}`;
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
}
