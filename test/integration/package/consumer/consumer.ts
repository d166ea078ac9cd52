// A TypeScript consumer of the packed package: type-checked with moduleResolution node16 and bundler.
import {
  Flashduty,
  type IncidentInfo,
  InvalidParameterError,
  type ListIncidentsParams,
  RequestTooFrequentlyError,
} from 'flashduty-sdk';
import { buildWebhookEvent, createMockService } from 'flashduty-sdk/testing';
import { renderCustomBody, type WebhookEvent, type WebhookEventOf, WebhookReceiver } from 'flashduty-sdk/webhooks';

const params: ListIncidentsParams = { start_time: new Date(), end_time: 1_700_000_000, progress: ['Triggered'] };
export async function titles(client: Flashduty): Promise<string[]> {
  const out: string[] = [];
  for await (const incident of client.listIncidents(params)) out.push((incident satisfies IncidentInfo).title);
  const page = await client.listIncidents(params);
  const next = await page.nextPage();
  return next ? out.concat(next.items.map((i) => i.incident_id)) : out;
}
export function isRetryable(error: unknown): boolean {
  return error instanceof RequestTooFrequentlyError
    ? (error.retryAfterMs ?? 0) < 5000
    : error instanceof InvalidParameterError;
}
const receiver = new WebhookReceiver({ secret: { header: 'x-token', values: ['t'] } });
receiver.on('i_ack', (event: WebhookEventOf<'i_ack'>) => event.incident.ack_time);
receiver.on('event', (event: WebhookEvent) => event.event_id);
export const rendered: unknown = renderCustomBody('{"a":"{{incident.title}}"}', buildWebhookEvent('i_new'));
export const service = createMockService({ seed: 1 });
