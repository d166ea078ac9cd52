// `npm run bench`: the ack deadline under a flood, with the receiver on a core of its own. 3 000
// deliveries sent at once (each on a connection of its own, as the sender makes them) at a receiver
// whose handlers take 3 s, so that every one is answered at its deadline; twice to each of five
// fresh processes (the first flood meets code the JIT has not compiled yet). The figure is how
// long after `ackTimeoutMs` the slowest answer left, at the server (target: 50 ms).
//
// Why a bench beside the stress test (test/integration/stress/flood.test.ts): there the sender, the
// receiver and other tests share the two cores, and the slowest answers measure how long the
// receiver waited for a core as much as what it does. Here the receiver has CPU 0 and this process
// (the sender) CPU 1, as a sender on another machine would leave it (taskset; without it the two
// float, and the figures are the stress test's).
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { flood, startFloodReceiver } from '../test/integration/support/flood.js';
import { stopChild } from '../test/integration/support/lifetime.js';

const DELIVERIES = 3_000;
const ACK_MS = 1_500;
const HOLD_MS = 3_000;
const RUNS = 5;
const FLOODS = 2;
const TARGET_MS = 50;

const pinning =
  cpus().length >= 2 && spawnSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' }).status === 0;

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[values.length >> 1] ?? NaN;
const late = (ms: number) => `${ms >= 0 ? '+' : ''}${Math.round(ms)} ms`;

console.log(
  `Under a flood: ${DELIVERIES} deliveries at once, handlers of ${HOLD_MS / 1000} s, ackTimeoutMs ${ACK_MS}, ` +
    `${FLOODS} floods to each of ${RUNS} fresh receivers; ${pinning ? 'receiver on CPU 0, sender on CPU 1' : 'unpinned (no taskset or one CPU)'}`,
);
const slowest: number[][] = Array.from({ length: FLOODS }, () => []);
const medians: number[][] = Array.from({ length: FLOODS }, () => []);
for (let run = 0; run < RUNS; run++) {
  const { child, port } = await startFloodReceiver(ACK_MS, HOLD_MS, pinning ? 0 : undefined);
  try {
    for (let round = 0; round < FLOODS; round++) {
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, HOLD_MS - ACK_MS + 500)); // its handlers end
      const { sent, stats } = await flood(port, DELIVERIES);
      const refused = sent.filter((status) => status !== 200).length;
      if (refused > 0 || stats.answeredMs.length !== DELIVERIES)
        throw new Error(`flood ${round + 1}: ${refused} not answered 200, ${stats.answeredMs.length} measured`);
      slowest[round]?.push(Math.max(...stats.answeredMs) - ACK_MS);
      medians[round]?.push(median(stats.answeredMs) - ACK_MS);
    }
  } finally {
    await stopChild(child);
  }
}
for (let round = 0; round < FLOODS; round++) {
  const worst = sorted(slowest[round] ?? []);
  const label = round === 0 ? 'first flood (cold)' : `flood ${round + 1} (warm)`;
  console.log(
    `  ${label.padEnd(20)} slowest answer ${late(worst[0] ?? NaN)} to ${late(worst.at(-1) ?? NaN)} after the deadline ` +
      `(runs: ${(slowest[round] ?? []).map(late).join(', ')}); medians ${late(Math.min(...(medians[round] ?? [])))} to ` +
      `${late(Math.max(...(medians[round] ?? [])))}   target ≤ +${TARGET_MS} ms ${(worst.at(-1) ?? Infinity) <= TARGET_MS ? 'met' : 'NOT met'}`,
  );
}
