// The worker of scripts/trace-delivery.ts: steps through the main thread with node:inspector, from
// its `debugger` statement until told to stop, and reports the source files it ran code in and
// every call back into a file already on the stack below another file. Plain JavaScript: a worker
// thread does not get the main thread's TypeScript loader.

import inspector from 'node:inspector';
import { parentPort, workerData } from 'node:worker_threads';

const keepAlive = setInterval(() => {}, 1_000); // a session's replies keep no loop alive
const session = new inspector.Session();
session.connectToMainThread();
const urls = new Map();
session.on('Debugger.scriptParsed', ({ params }) => urls.set(params.scriptId, params.url));
const prefix = `file://${workerData.root}/`;
const ours = (url) => url.startsWith(`${prefix}src/`);
const relative = (url) => url.slice(prefix.length);
const files = [];
const reentries = new Set();
let steps = 0;
let done = false;
session.on('Debugger.paused', ({ params }) => {
  if (done) return; // disconnecting resumes the main thread
  const stack = params.callFrames.map((frame) => urls.get(frame.location.scriptId) ?? '');
  const [top = ''] = stack;
  steps++;
  if (ours(top)) {
    const file = relative(top);
    if (!files.includes(file)) files.push(file);
    const own = stack.filter(ours).map(relative);
    const below = own.indexOf(file, 1);
    if (below > 1 && own.slice(1, below).some((other) => other !== file))
      reentries.add(
        own
          .slice(0, below + 1)
          .reverse()
          .join(' > '),
      );
  }
  session.post('Debugger.stepInto');
});
parentPort.once('message', () => {
  done = true;
  parentPort.postMessage({ files, reentries: [...reentries], steps });
  session.disconnect();
  clearInterval(keepAlive);
});
session.post('Debugger.enable', () => parentPort.postMessage('ready'));
