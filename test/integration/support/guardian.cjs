// The guardian of a test process's children (see lifetime.ts). It reads `+<pgid>` / `-<pgid>` lines on
// stdin; when stdin ends (the test process exited, crashed or was killed with -9: the kernel closes
// the pipe), it kills every process group still registered, then exits. Plain CommonJS with no
// imports beyond node: it must start in milliseconds and never depend on the code under test.
'use strict';
const groups = new Set();
let rest = '';
function killAll() {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGCONT'); // a stopped (SIGSTOP) group is killed too, but let it go at once
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
  groups.clear();
}
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  rest += chunk;
  const lines = rest.split('\n');
  rest = lines.pop();
  for (const line of lines) {
    const pgid = Number(line.slice(1));
    if (!Number.isInteger(pgid) || pgid <= 1) continue;
    if (line[0] === '+') groups.add(pgid);
    else if (line[0] === '-') groups.delete(pgid);
  }
});
const end = () => {
  killAll();
  process.exit(0);
};
process.stdin.on('end', end);
process.stdin.on('close', end);
process.stdin.on('error', end);
// Detached from the terminal's process group already; a stray SIGINT/SIGTERM/SIGHUP still cleans up first.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, end);
