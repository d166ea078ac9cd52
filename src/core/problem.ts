// The one shape of "what is wrong, and where" across the SDK: a request param that breaks its
// schema, a page that breaks its contract, a webhook payload or a custom-body template. A leaf:
// imports nothing.

/** What is wrong, and where. */
export interface Problem {
  /** Where: a dotted path such as `incident.start_time` or `incident_ids[1]`; empty for the whole value. */
  path: string;
  /** What: `expected a string, got 5`. */
  message: string;
}
