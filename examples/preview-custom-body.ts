// Preview a custom body template with value mapping before configuring it on the integration.
// Run: npx tsx examples/preview-custom-body.ts [template.json]
import { readFileSync } from 'node:fs';
import { buildWebhookEvent } from 'flashduty-sdk/testing';
import { renderCustomBody } from 'flashduty-sdk/webhooks';

const template = process.argv[2]
  ? readFileSync(process.argv[2], 'utf8')
  : {
      msg_type: 'text',
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

for (const type of ['i_new', 'i_ack', 'i_rslv'] as const) {
  const event = buildWebhookEvent(type, { incident: { title: 'Checkout latency over 2 s', labels: { service: 'checkout' } } });
  console.log(`--- ${type}`);
  console.log(JSON.stringify(renderCustomBody(template, event, valueMapping), null, 2));
}
