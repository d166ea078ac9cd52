#!/usr/bin/env node
// The `flashduty` command line (src/cli/main.ts, built to dist/cli/main.js).
import { run } from '../dist/cli/main.js';

await run();
