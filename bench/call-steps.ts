// `npm run bench`: what a `listIncidents` call does besides its transport, step by step, each alone
// in process, beside the whole call against the local page server in the same run: the cost of
// each thing a call does that it did not at 08dfc00 (values checked, the paging classes, the metric,
// the body gathered into one array) and of the checks added after it (a param's name, the call's
// options, a path). Prints ns per call and the share of a whole call; bench/run.ts has the same
// things end to end. Nothing here is a pass/fail test; the figures go in docs/performance.md.

import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { Flashduty } from '../dist/index.js';
import { checkCallOptions } from '../src/client/client-options.js';
import { attemptTimer } from '../src/client/metrics.js';
import { IncidentPage } from '../src/client/pagination/incident-page.js';
import { ListCall } from '../src/client/pagination/list-call.js';
import type { ApiResponse } from '../src/client/request-loop.js';
import { checkWellFormed, hasDotSegment, toWire } from '../src/client/resources/params.js';
import { RULES } from '../src/generated/operation-rules.js';
import { REQUEST_SCHEMAS, SCHEMA_DEFS } from '../src/generated/request-schemas.js';
import { ByteSink } from '../src/internal/bytes.js';
import { checkSchema } from '../src/internal/schema.js';
import { startPageServer } from './page-server.js';

const ROUNDS = 15;
const server = await startPageServer();
const { baseUrl, params, payload, payloadBytes } = server;
const rule = RULES['/incident/list']!;
const schema = REQUEST_SCHEMAS['/incident/list']!;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** ns per run of `step`: the median of ROUNDS rounds of `times` runs. */
async function nsPer(step: () => unknown, times: number): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const started = performance.now();
    for (let i = 0; i < times; i++) await step();
    if (round > 0) rounds.push(((performance.now() - started) * 1e6) / times); // the first warms up
  }
  return median(rounds);
}

// The whole call, for scale.
const client = new Flashduty({ appKey: 'bench-key', baseUrl, rateLimit: false, logLevel: 'off' });
const callNs = await nsPer(() => client.listIncidents(params), 100);

// The params and the wire body a call with Dates and filters as arrays makes.
const given = {
  ...params,
  start_time: new Date(params.start_time * 1000),
  end_time: new Date(params.end_time * 1000),
  progress: ['Triggered', 'Processing'],
  incident_severity: ['Critical', 'Warning'],
};
const wire = toWire(given, rule);

// A list call over an answer already read and parsed: the paging classes alone.
const answer = {
  data: (JSON.parse(payload) as { data: unknown }).data,
  requestId: 'r1',
  status: 200,
  url: `${baseUrl}/incident/list?app_key=***`,
  headers: new Headers(),
} as ApiResponse;
const answering = { validate: 'envelope', _request: () => Promise.resolve(answer) } as never;
const list = { name: 'listIncidents', path: 'incident/list', http: 'POST' as const, paging: rule.paging! };

// The page's body as the local server's answer arrives: three chunks.
const chunks = [
  payloadBytes.subarray(0, 65_353),
  payloadBytes.subarray(65_353, 130_889),
  payloadBytes.subarray(130_889),
];
const gather = (declared: number) => {
  const sink = new ByteSink(32 << 20, declared);
  for (const chunk of chunks) sink.push(chunk);
  return sink.bytes();
};

const steps: Array<[string, () => unknown, number]> = [
  ['params → wire body (Dates, filters as arrays, values checked)', () => toWire(given, rule), 20_000],
  ['wire body against the request schema', () => checkSchema(wire, schema, SCHEMA_DEFS), 20_000],
  [
    "  … and its keys against the schema's names",
    () => checkSchema(wire, schema, SCHEMA_DEFS, { closed: true }),
    20_000,
  ],
  ['call options checked ({ timeout, maxRetries })', () => checkCallOptions({ timeout: 5_000, maxRetries: 1 }), 20_000],
  [
    "client.request's path checked (an unknown path)",
    () => checkWellFormed('/incident/brand-new', 'path') ?? hasDotSegment('/incident/brand-new'),
    20_000,
  ],
  [
    'the paging classes: a list call and its first page, from a parsed answer',
    () => new ListCall(answering, list, wire as never, {}, IncidentPage).first(),
    5_000,
  ],
  ['the body gathered: Buffer.concat of its chunks (08dfc00)', () => Buffer.concat(chunks), 2_000],
  ['the body gathered: growing by doubling (no declared length)', () => gather(0), 2_000],
  ['the body gathered: into its declared length', () => gather(payloadBytes.length), 2_000],
  ['the metric, no meter provider', () => attemptTimer('POST', 'incident/list', baseUrl)?.(200), 20_000],
];

console.log(
  `A listIncidents call (100 incidents, ${(payloadBytes.length / 1024).toFixed(1)} kB, limiter off): ${(callNs / 1000).toFixed(0)} µs\n`,
);
const show = (name: string, ns: number) =>
  console.log(
    `${name.padEnd(76)} ${ns.toFixed(0).padStart(8)} ns   ${((100 * ns) / callNs).toFixed(2).padStart(6)} % of a call`,
  );
for (const [name, step, times] of steps) show(name, await nsPer(step, times));

// The metric with an SDK meter provider registered (global: measured last).
const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
show(
  'the metric, an SDK MeterProvider registered',
  await nsPer(() => attemptTimer('POST', 'incident/list', baseUrl)?.(200), 20_000),
);
await reader.shutdown();
metrics.disable();
server.close();
