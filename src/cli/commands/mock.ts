// `flashduty mock`: the mock service (createMockService) over HTTP on 127.0.0.1 until SIGINT or
// SIGTERM. It prints its base URL, app key and access token (the mock's own, not secrets), or with
// --json one line `{"baseUrl":…,"appKey":…,"accessToken":…}` for scripts that start it in the
// background. `webhooks trigger --via <its URL>` makes deliveries inside it (its control route).

import type { Command, Context } from '../command.js';
import { EXIT, UsageError } from '../exit.js';
import { readWhole } from '../values.js';

export const MOCK_COMMAND: Command = {
  words: ['mock'],
  summary: 'serve the mock service on 127.0.0.1 until Ctrl-C; prints its base URL and app key',
  flags: {
    port: { type: 'string', value: '<n>', description: 'the port (default 0: a free one)' },
    seed: { type: 'string', value: '<n>', description: 'the seed of its data (default 1)' },
    incidents: { type: 'string', value: '<n>', description: 'how many incidents it starts with (default 200)' },
  },
  example: 'flashduty mock --seed 7 --incidents 500',
  run: mock,
};

async function mock(context: Context): Promise<number> {
  const port = readWhole(context.values.port as string | undefined, '--port', context.name, 0) ?? 0;
  if (port > 65_535) throw new UsageError(`--port: expected 0 to 65535, got ${port}`, context.name);
  const seed = readWhole(context.values.seed as string | undefined, '--seed', context.name, 0) ?? 1;
  const incidents = readWhole(context.values.incidents as string | undefined, '--incidents', context.name, 0) ?? 200;
  // Listened for before anything is printed: a Ctrl-C sent as soon as the URL shows (a script's,
  // a test's) would otherwise find no listener yet and kill the process with the signal's default.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const { createMockService } = await import('../../testing/index.js');
  const service = createMockService({ seed, incidents });
  const server = await service.listen({ port });
  const { url: baseUrl } = server;
  const { appKey, accessToken } = service;
  if (context.json) context.io.out(`${JSON.stringify({ baseUrl, appKey, accessToken })}\n`);
  else {
    context.io.out(`Mock service on ${baseUrl}\n`);
    context.io.out(`  export FLASHDUTY_BASE_URL=${baseUrl}\n  export FLASHDUTY_APP_KEY=${appKey}\n`);
    context.io.out(`  # or, instead of the app key: export FLASHDUTY_ACCESS_TOKEN=${accessToken}\n`);
    context.io.out(
      `Webhook deliveries into its history: flashduty webhooks trigger <event_type> --to <url> --via ${baseUrl}\n`,
    );
    context.io.out('Ctrl-C to stop.\n');
  }
  await stopped;
  await server.close();
  return EXIT.ok;
}
