// The deep validators, imported once on first use: a bundler splits them (and zod) into their own
// chunk (the ESM build makes it one self-contained file: see tsup.config.ts).

import { lazy } from '../internal/lazy.js';

/** The module of `validate: 'deep'`, imported on its first use. */
export const loadDeep = lazy(() => import('./deep.js'));
