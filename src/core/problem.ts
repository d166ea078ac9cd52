// The one shape of "what is wrong, and where" across the SDK: a request param that breaks its
// schema, a page that breaks its contract, a webhook payload or a custom-body template; and the one
// way the hand-written checks of answers (envelopes, pages) word a value of the wrong type. A leaf:
// imports nothing.

/** What is wrong, and where. */
export interface Problem {
  /** Where: a dotted path such as `incident.start_time` or `incident_ids[1]`; empty for the whole value. */
  path: string;
  /** What: `expected a string, got 5`. */
  message: string;
}

/** A value of the wrong type at `path`: `expected an integer, got string`. */
export function expected(path: string, type: string, value: unknown): Problem {
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  return { path, message: `expected ${type}, got ${got}` };
}
