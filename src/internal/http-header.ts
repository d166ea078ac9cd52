// What HTTP lets a header name be (RFC 9110's token), for the two places that take headers to send
// from people: the mock's webhook integrations (refused when made, never dropped at delivery) and
// the command line's `--header` (a usage error before anything is sent).

/** Whether `name` can be an HTTP header's name. */
export const isHeaderName = (name: string): boolean => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name);
