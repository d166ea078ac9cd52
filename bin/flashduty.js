#!/usr/bin/env node
// The `flashduty` command line (src/cli/main.ts, built to dist/cli/main.js).
import '../dist/cli/main.js';
