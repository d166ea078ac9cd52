// Preview a custom body template with value mapping before configuring it on the integration: what
// the lint finds (paths the payload lacks, objects stringified into text, keys the receiver needs),
// and the body each event would deliver.
// Run: npx tsx examples/preview-custom-body.ts [template.json]
import { readFileSync } from 'node:fs';
import { buildWebhookEvent } from 'flashduty-sdk/testing';
import { lintCustomBody, renderCustomBody } from 'flashduty-sdk/webhooks';

const template = process.argv[2]
  ? readFileSync(process.argv[2], 'utf8')
  : {
      msg_type: 'text',
      event_id: '{{event_id}}',
      event_time: '{{event_time}}',
      incident_id: '{{incident.incident_id}}',
      content: {
        text: '[{{incident.incident_severity}}] {{incident.title}} ({{incident.progress}}) {{incident.detail_url}}',
      },
      priority: '{{incident.incident_severity}}',
      labels: '{{incident.labels}}',
      acked_by: '{{person.person_name}}',
    };
const valueMapping = {
  'incident.incident_severity': { Critical: 'P1', Warning: 'P2', Info: 'P3' },
  'incident.progress': { Triggered: 'open', Processing: 'in progress', Closed: 'resolved' },
};

const { problems } = lintCustomBody(template, valueMapping);
console.log(
  problems.length
    ? problems.map((p) => `problem at ${p.path || '(top)'}: ${p.message}`).join('\n')
    : 'lint: no problems',
);
for (const type of ['i_new', 'i_ack', 'i_rslv'] as const) {
  const event = buildWebhookEvent(type, {
    incident: { title: 'Checkout latency over 2 s', labels: { service: 'checkout' } },
  });
  console.log(`--- ${type}`);
  console.log(JSON.stringify(renderCustomBody(template, event, valueMapping), null, 2));
}
