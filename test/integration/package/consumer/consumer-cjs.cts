// A CommonJS TypeScript consumer (moduleResolution node16). It leaves out flashduty-sdk/testing:
// msw's own type declarations cannot be read from CommonJS (they import the ESM-only rettime).
import { Flashduty, type IncidentInfo, InvalidParameterError, type ListIncidentsParams } from 'flashduty-sdk';
import { renderCustomBody, type WebhookEvent, WebhookReceiver } from 'flashduty-sdk/webhooks';

const params: ListIncidentsParams = { start_time: new Date(), end_time: 1_700_000_000 };
export async function first(client: Flashduty): Promise<IncidentInfo | undefined> {
  return (await client.listIncidents(params)).items[0];
}
export const isInvalid = (error: unknown): boolean => error instanceof InvalidParameterError;
const receiver = new WebhookReceiver();
receiver.on('i_rslv', (event) => event.incident.close_time);
receiver.on('event', (event: WebhookEvent) => event.event_type);
export const rendered: unknown = renderCustomBody({ a: '{{event_id}}' }, {});
