// Loads the built package through its `import` conditions, as an ESM user would.
import * as sdk from 'flashduty-sdk';
import * as operations from 'flashduty-sdk/operations';
import * as testing from 'flashduty-sdk/testing';
import * as webhooks from 'flashduty-sdk/webhooks';
import runSmoke from './run-smoke.cjs';

await runSmoke('esm', sdk, webhooks, testing, operations);
