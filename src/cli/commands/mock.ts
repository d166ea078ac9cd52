// `flashduty mock`: the mock service (createMockService) over HTTP on 127.0.0.1 until SIGINT or
// SIGTERM. It prints its base URL, app key and access token (the mock's own, not secrets) and its
// seed, or with --json one line `{"baseUrl":…,"appKey":…,"accessToken":…,"seed":…}` for scripts
// that start it in the background. `webhooks trigger --via <its URL>` makes deliveries inside it (its control route).

import { randomInt } from 'node:crypto';
import { once } from 'node:events';
import type { Command, Context } from '../command.js';
import { EXIT } from '../exit.js';

const PORTS = { min: 0, max: 65_535 };
const SEEDS = { min: 0, max: 2_147_483_647 };
/** The mock builds its incidents in memory when it starts: enough for any paging test, few enough to start at once. */
const INCIDENTS = { min: 0, max: 10_000 };

export const MOCK_COMMAND: Command = {
  words: ['mock'],
  summary: 'serve the mock service on 127.0.0.1 until Ctrl-C; prints its base URL and app key',
  flags: {
    port: { type: 'string', value: '<n>', description: 'the port (0: a free one)', range: PORTS, default: '0' },
    seed: { type: 'string', value: '<n>', description: 'the seed of its data', range: SEEDS, default: '1' },
    incidents: {
      type: 'string',
      value: '<n>',
      description: 'how many incidents it starts with',
      range: INCIDENTS,
      default: '200',
    },
  },
  example: 'flashduty mock --seed 7 --incidents 500',
  run: mock,
};

async function mock(context: Context): Promise<number> {
  const { values } = context;
  const port = (values.port as number | undefined) ?? 0;
  // A world of its own each run unless asked for one again: a fixed default would give every run the
  // same event ids, which a receiver that remembers them takes for duplicates.
  const seed = (values.seed as number | undefined) ?? randomInt(0, 2 ** 31 - 1);
  const incidents = (values.incidents as number | undefined) ?? 200;
  // Listened for before anything is printed: a Ctrl-C sent as soon as the URL shows (a script's,
  // a test's) would otherwise find no listener yet and kill the process with the signal's default.
  const stop = context.stopSignal();
  const { createMockService } = await import('../../testing/index.js');
  const service = createMockService({ seed, incidents });
  const server = await service.listen({ port });
  const { url: baseUrl } = server;
  const { appKey, accessToken } = service;
  if (context.json) context.io.out(`${JSON.stringify({ baseUrl, appKey, accessToken, seed })}\n`);
  else {
    context.io.out(`Mock service on ${baseUrl} (seed ${seed}: --seed ${seed} serves this world again)\n`);
    context.io.out(`  export FLASHDUTY_BASE_URL=${baseUrl}\n  export FLASHDUTY_APP_KEY=${appKey}\n`);
    context.io.out(`  # or, instead of the app key: export FLASHDUTY_ACCESS_TOKEN=${accessToken}\n`);
    context.io.out(
      `Webhook deliveries into its history: flashduty webhooks trigger <event_type> --to <url> --via ${baseUrl}\n`,
    );
    context.io.out('Ctrl-C to stop.\n');
  }
  if (!stop.aborted) await once(stop, 'abort');
  await server.close();
  return EXIT.ok;
}
