/** The version of this package. */
export const VERSION = '0.1.0';
