// lintCustomBody: what a custom body template will do wrong before it is configured. It knows the
// fields of every default payload (incident events, custom actions, alert events) and reports:
// variables whose path the payload does not have (the service sends those as literal `{{...}}`
// text), objects and arrays that would be stringified into text, the keys the receiver needs
// (event_id, event_time, the incident or alert id) missing or unreadable, and value mapping that
// hides them.

import type { Problem } from '../core/problem.js';
import { findSlots, isValueMapping, placements, VALUE_MAPPING_SHAPE } from './custom-body.js';
import { where } from './custom-body-keys.js';
import { parseTemplate, type ValueMapping } from './template.js';

/** What {@link lintCustomBody} finds; no problems means the receiver can use the template fully. */
export interface CustomBodyLint {
  problems: Problem[];
}

// The shape of the payloads: 's' a scalar, 'open' anything below (custom fields, future objects),
// an object of fields, `[shape]` a list of it, `{ '*': shape }` a map with any key.
type Shape = 's' | 'open' | { [field: string]: Shape } | [Shape];

const S = 's' as const;
/** Scalar fields, named in one space-separated string. */
const scalars = (names: string): Record<string, Shape> => Object.fromEntries(names.split(' ').map((n) => [n, S]));
/**
 * Every default payload's top level: incident events and custom actions, alert events. Built in an
 * IIFE marked pure so that a bundle which never lints (a receiver alone) drops it.
 */
const PAYLOAD: Shape = /* @__PURE__ */ (() => {
  const person: Shape = scalars('person_id person_name email');
  const labels: Shape = { '*': S };
  const image: Shape = scalars('src href alt');
  const alertFields: Record<string, Shape> = {
    ...scalars(
      'alert_id account_id integration_id integration_name integration_type integration_ref_id data_source_id data_source_name data_source_type data_source_ref_id channel_id channel_name channel_status title title_rule description alert_key alert_severity alert_status progress created_at updated_at start_time last_time end_time close_time ever_muted responder_name responder_email event_cnt',
    ),
    labels: labels,
    images: [image],
    incident: scalars('incident_id title'),
  };
  const incident: Shape = {
    ...scalars(
      'incident_id event_id account_id account_name title description impact root_cause resolution incident_severity incident_status progress created_at updated_at start_time last_time end_time ack_time close_time snoozed_before creator_id closer_id owner_id dedup_key alert_cnt active_alert_cnt integration_id data_source_id num channel_id channel_name channel_status team_id detail_url silence_url group_method has_unfinished_work_item post_mortem_id equals_md5 ai_summary frequency ever_muted alert_event_cnt account_locale account_time_zone integration_type manual_overrides',
    ),
    labels: labels,
    fields: 'open',
    creator: person,
    closer: person,
    responders: [{ ...scalars('person_id person_name email assigned_at acknowledged_at') }],
    assigned_to: {
      ...scalars('escalate_rule_id escalate_rule_name layer_idx type id assigned_at'),
      person_ids: [S],
      effective_person_ids: [S],
    },
    responder_ids: [S],
    integration_ids: [S],
    integration_types: [S],
    data_source_ids: [S],
    alerts: [{ ...alertFields, incident: scalars('incident_id title') }],
    links: [scalars('name endpoint open_type')],
    images: [image],
  };
  return {
    ...scalars('event_id event_time event_type'),
    person: person,
    incident,
    alert: alertFields,
    event_detail: scalars('integration_id integration_name'),
  };
})();

/** The shape at a variable's path, or undefined when no payload has it. */
function shapeAt(path: string): Shape | undefined {
  if (path === '') return undefined;
  let shape: Shape = PAYLOAD;
  for (const segment of path.split('.')) {
    if (segment === '') return undefined;
    if (shape === 'open') return 'open';
    if (shape === S) return undefined;
    if (Array.isArray(shape)) {
      if (!/^\d+$/.test(segment)) return undefined;
      shape = shape[0];
    } else {
      const next: Shape | undefined = Object.hasOwn(shape, segment) ? shape[segment] : shape['*'];
      if (next === undefined) return undefined;
      shape = next;
    }
  }
  return shape;
}

/**
 * Checks a custom body template (a JSON value or JSON text) against the payloads the service fills
 * it from. `valueMapping`, when given, is checked for tables that hide the receiver's keys.
 */
export function lintCustomBody(template: unknown, valueMapping: ValueMapping = {}): CustomBodyLint {
  let parsed: unknown;
  try {
    parsed = parseTemplate(template);
  } catch (error) {
    return { problems: [{ path: '', message: (error as Error).message }] };
  }
  const problems: Problem[] = [];
  if (!isValueMapping(valueMapping)) {
    problems.push({ path: '', message: `valueMapping ${VALUE_MAPPING_SHAPE}` });
    valueMapping = {};
  }
  const all = placements(parsed);
  for (const placement of all) {
    const shape = shapeAt(placement.variable);
    const path = where(placement.location);
    if (shape === undefined) {
      problems.push({
        path,
        message: `${placement.token}: no payload has ${placement.variable || 'an empty path'}, so it is sent as written`,
      });
    } else if (shape !== S && shape !== 'open' && !placement.whole) {
      const what = Array.isArray(shape) ? 'a list' : 'an object';
      problems.push({ path, message: `${placement.token} is ${what}: mixed with text it is sent as JSON text` });
    }
  }
  problems.push(...findSlots(parsed, valueMapping).problems);
  const placed = new Set(all.map((p) => p.variable));
  if (!placed.has('event_id') && !placed.has('incident.event_id')) {
    problems.push({
      path: '',
      message: 'no {{event_id}}: retries cannot be deduplicated (the receiver needs dedup: false)',
    });
  }
  if (!placed.has('event_time')) {
    problems.push({ path: '', message: 'no {{event_time}}: no staleness check' });
  }
  if (!placed.has('incident.incident_id') && !placed.has('alert.alert_id')) {
    problems.push({ path: '', message: 'no {{incident.incident_id}} or {{alert.alert_id}}: no staleness check' });
  }
  return { problems: problems.map(({ path, message }) => ({ path, message })) };
}
