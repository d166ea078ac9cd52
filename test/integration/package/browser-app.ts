// Runs in headless Chromium: the ESM build of the SDK, the mock service through MSW's service worker.
import { APIError, Flashduty, FlashdutyError, InvalidParameterError } from 'flashduty-sdk';
import { createMockService } from 'flashduty-sdk/testing';
import { setupWorker } from 'msw/browser';

declare global {
  interface Window {
    __result?: Record<string, unknown>;
  }
}

async function main(): Promise<Record<string, unknown>> {
  const service = createMockService({ seed: 5, incidents: 120 });
  const worker = setupWorker(...service.handlers);
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
  const result: Record<string, unknown> = {};

  try {
    new Flashduty({ appKey: service.appKey });
    result.guard = 'constructed without dangerouslyAllowBrowser';
  } catch (error) {
    result.guard = error instanceof FlashdutyError ? error.message : `wrong error: ${String(error)}`;
  }

  const end = Math.floor(Date.now() / 1000);
  const window = { start_time: end - 30 * 86_400, end_time: end, limit: 25 };
  for (const baseUrl of [location.origin, 'https://api.flashcat.cloud']) {
    const client = new Flashduty({ appKey: service.appKey, baseUrl, dangerouslyAllowBrowser: true, validate: 'deep' });
    const page = await client.listIncidents(window);
    let iterated = 0;
    for await (const _incident of client.listIncidents(window)) iterated++;
    result[baseUrl] = { firstPage: page.items.length, total: page.total, iterated, requestId: page.requestId };
  }
  result.expected = service.world.incidents.length;

  const client = new Flashduty({ appKey: service.appKey, baseUrl: location.origin, dangerouslyAllowBrowser: true });
  await client.enableA2AAgent('a2a_demo');
  try {
    await client.enableA2AAgent('a2a_demo');
  } catch (error) {
    result.error = {
      isInvalidParameter: error instanceof InvalidParameterError,
      isAPIError: error instanceof APIError,
      name: (error as Error).name,
      status: (error as APIError).status,
    };
  }
  worker.stop();
  return result;
}

main().then(
  (result) => (window.__result = result),
  (error: unknown) => (window.__result = { failed: String((error as Error)?.stack ?? error) }),
);
