// A CommonJS TypeScript consumer of the testing entry, for the project without msw: its .d.cts
// types must compile there (with msw installed, msw's own types cannot be read from CommonJS).
import { buildDelivery, buildWebhookEvent, createMockService, type MockService } from 'flashduty-sdk/testing';

export const service: MockService = createMockService({ seed: 1 });
export const delivery = buildDelivery(buildWebhookEvent('i_new'));
