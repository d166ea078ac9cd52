// Loads the built package through its `require` conditions, as a CommonJS user would.
require('./run-smoke.cjs')(
  'cjs',
  require('flashduty-sdk'),
  require('flashduty-sdk/webhooks'),
  require('flashduty-sdk/testing'),
  require('flashduty-sdk/operations'),
).catch((error) => {
  console.error(error);
  process.exit(1);
});
