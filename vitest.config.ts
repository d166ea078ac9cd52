import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (seconds in `npm test` on a two-core machine). vitest starts the
 * longest files first when it has their times from an earlier run; a clean clone has none, and then
 * it starts the largest files first, which left the 65 s failover test to start near the end and
 * run alone. These go first; the rest follow in vitest's own order. A file missing here costs time,
 * never a result.
 */
const LONGEST_FIRST = [
  'test/integration/package/package.test.ts', // 67: npm pack, two installs, three tsc runs
  'test/integration/chaos/failover.test.ts', // 52: two Sentinel failovers under load
  'test/integration/chaos/queue-mode.test.ts', // 42
  'test/integration/package/examples.test.ts', // 32
  'test/integration/client/shared-limiter.test.ts', // 26
  'test/integration/testing/prism.test.ts', // 25
  'test/integration/stress/load.test.ts', // 24
  'test/integration/redis-cluster.test.ts', // 24
  'test/integration/cli/calls.test.ts', // 23
  'test/integration/chaos/stress.test.ts', // 17
  'test/integration/chaos/adapters.test.ts', // 15
  'test/integration/stress/faults.test.ts', // 13
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((name) => file.moduleId.endsWith(name));
      return index < 0 ? LONGEST_FIRST.length : index;
    };
    const ordered = await super.sort(files);
    return ordered
      .map((file, index) => ({ file, index, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: files in parallel, but not more than the machine can run without skewing timers.
    maxWorkers: 2,
    // Files share their worker process instead of each loading msw, BullMQ, Fastify and the SDK
    // anew (a fifth of the suite's CPU time). test/worker-guard.ts fails a file that leaves the
    // process changed, and undoes spies, stubbed globals and env vars after each test.
    isolate: false,
    setupFiles: ['test/worker-guard.ts'],
    sequence: { sequencer: LongestFirst },
  },
});
