// What the snippets of the README and the guides use without defining: your app's own objects and
// functions, the names a guide's earlier snippet made (`client`, `service`), and the SDK's and
// libraries' exports a snippet uses without repeating the import the guide showed once.
// scripts/snippets.ts compiles every snippet, each a module of its own, with these declarations;
// nothing imports this file.
import type { Express } from 'express';
import type { FastifyInstance } from 'fastify';
import type { Hono } from 'hono';
import type { ListIncidentsParams } from 'flashduty-sdk';
import type {
  IncidentWebhookEventOf,
  WebhookAlert,
  WebhookEvent,
  WebhookIncident,
  WebhookReceiver as Receiver,
} from 'flashduty-sdk/webhooks';
import type { MockService, WebhookIntegration } from 'flashduty-sdk/testing';

declare global {
  // The SDK's and libraries' exports, as the guide imported them in an earlier snippet.
  const Flashduty: typeof import('flashduty-sdk').Flashduty;
  const InvalidParameterError: typeof import('flashduty-sdk').InvalidParameterError;
  const ResourceNotFoundError: typeof import('flashduty-sdk').ResourceNotFoundError;
  const WebhookReceiver: typeof import('flashduty-sdk/webhooks').WebhookReceiver;
  const MemoryStateStore: typeof import('flashduty-sdk/webhooks').MemoryStateStore;
  const RedisStateStore: typeof import('flashduty-sdk/webhooks').RedisStateStore;
  const CustomBodyEvent: typeof import('flashduty-sdk/webhooks').CustomBodyEvent;
  const renderCustomBody: typeof import('flashduty-sdk/webhooks').renderCustomBody;
  const isEventType: typeof import('flashduty-sdk/webhooks').isEventType;
  const isKnownEvent: typeof import('flashduty-sdk/webhooks').isKnownEvent;
  const Queue: typeof import('bullmq').Queue;
  const Redis: typeof import('ioredis').Redis;

  // What a guide's earlier snippet made.
  const client: InstanceType<typeof import('flashduty-sdk').Flashduty>;
  const service: MockService;
  const receiver: Receiver;
  const hook: WebhookIntegration;
  const params: ListIncidentsParams;

  // Values of your own.
  const app: Express;
  const fastify: FastifyInstance;
  const hono: Hono;
  const http: typeof import('node:http');
  const event: IncidentWebhookEventOf<'i_new'>;
  const incident: { incident_id: string };
  const channel: number;
  const id: string;
  const incidentId: string;
  const channel_id: number;
  const start_time: Date;
  const end_time: Date;
  const since: Date;
  const until: Date;
  const endpoint: string;
  const trigger_id: string;
  const token: string;
  const savedToken: string;
  const text: string;
  const session_id: string;
  const queries: Parameters<
    InstanceType<typeof import('flashduty-sdk').Flashduty>['rum']['data']['query']
  >[0]['queries'];
  const traceId: string;
  const zip: ArrayBuffer;
  const template: unknown;
  const valueMapping: Record<string, Record<string, unknown>>;
  const log: {
    info(message: string): void;
    warn(message: string): void;
    debug(message: string): void;
    error(fields: object): void;
  };

  // Functions of your own, as the snippets call them.
  function show(value: unknown): void;
  function save(items: unknown[]): Promise<void>;
  function saveToken(token: string | undefined): void;
  function loadSavedToken(): string | undefined;
  function openTicket(incident: WebhookIncident): Promise<void>;
  function closeTicket(incidentId: string): Promise<void>;
  function count(eventType: string): void;
  function mirror(incident: WebhookIncident): void;
  function ack(incidentId: string, email: string | undefined): void;
  function restartHost(resource: string | undefined): Promise<void>;
  function link(alertId: string, incidentId: string | undefined): void;
  function archive(alert: WebhookAlert): void;
  function forward(body: unknown, eventType: string, incidentId: string | undefined): void;
  function handle(event: WebhookEvent): void;
}
