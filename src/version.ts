// The package's version, sent in the client's User-Agent.

/** The version of this package. */
export const VERSION = '0.1.0';
