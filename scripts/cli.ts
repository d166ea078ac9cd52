// `npm run cli -- …`: the command line from the sources (tsx), as bin/flashduty.js runs it from dist/.
import { run } from '../src/cli/main.js';

await run();
