// What each kind of delivery costs the receiver, in process (receive() with the raw body: JSON,
// payload check or custom-body read, dedup, staleness, a no-op handler), against the default
// incident payload measured in the same rounds:
//   alert event (a_update)                         target ≈ 1.0× the incident event's cost
//   custom-body delivery (keys read from 4 places) target ≤ 1.2× the incident event's cost
// Rounds alternate the kinds, so a shared machine's drift falls on all of them alike; read the
// ratios with their spread.
import { readFileSync } from 'node:fs';
import { buildWebhookEvent } from '../dist/testing/index.js';
import { renderCustomBody, WebhookReceiver } from '../dist/webhooks/index.js';

const ROUNDS = 7;
const ROUND_MS = 400;
const headers = { 'content-type': 'application/json' };
const template = {
  event_id: '{{event_id}}',
  event_time: '{{event_time}}',
  event_type: '{{event_type}}',
  incident_id: '{{incident.incident_id}}',
  title: '{{incident.title}}',
  labels: '{{incident.labels}}',
};

/** Bodies with a fresh event id each: the JSON text split around the id. */
function bodies(payload: unknown): (n: number) => string {
  const [head, tail] = JSON.stringify(payload).split('EVENTID') as [string, string];
  return (n) => `${head}${n.toString(16).padStart(16, '0')}${tail}`;
}
const incident = buildWebhookEvent('i_update', { event_id: 'EVENTID' });
const alert = {
  ...(JSON.parse(readFileSync('test/fixtures/alert-webhook.example.json', 'utf8')) as object),
  event_type: 'a_update',
  event_id: 'EVENTID',
};
const kinds = {
  'incident event (default payload)': { receiver: new WebhookReceiver(), body: bodies(incident) },
  'alert event': { receiver: new WebhookReceiver(), body: bodies(alert) },
  'custom body': {
    receiver: new WebhookReceiver({ customBody: { template } }),
    body: bodies(renderCustomBody(template, incident)),
  },
};
for (const { receiver } of Object.values(kinds)) receiver.on('event', () => {});

let sequence = 0;
async function rate(
  { receiver, body }: { receiver: WebhookReceiver; body: (n: number) => string },
  ms: number,
): Promise<number> {
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < ms) {
    for (let i = 0; i < 200; i++) {
      const result = await receiver.receive({ body: body(++sequence), headers });
      if (result.status !== 200) throw new Error(`not accepted: ${result.reason}`);
    }
    n += 200;
  }
  return n / ((performance.now() - started) / 1000);
}

const names = Object.keys(kinds) as Array<keyof typeof kinds>;
for (const name of names) await rate(kinds[name], 300); // warm-up
const perRound = new Map(names.map((name) => [name, [] as number[]]));
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? [...names].reverse() : names)
    perRound.get(name)?.push(await rate(kinds[name], ROUND_MS));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const base = perRound.get(names[0] as keyof typeof kinds) as number[];
console.log(`\nreceive() per kind, in process (${ROUNDS} alternating rounds × ${ROUND_MS} ms; cost = 1 / rate):`);
for (const name of names) {
  const own = perRound.get(name) as number[];
  const costRatios = own.map((r, i) => (base[i] as number) / r);
  console.log(
    `  ${name.padEnd(34)} ${median(own).toFixed(0).padStart(7)} /s   cost ${median(costRatios).toFixed(2)}× the incident event's (rounds ${costRatios.map((c) => c.toFixed(2)).join(' ')})`,
  );
}
