// Every process a test starts dies with the test process, however that ends.
//
// `spawnTied` starts each child in a process group of its own (so a kill reaches anything it
// started too, and a terminal's Ctrl-C does not race our cleanup) and registers the group:
// - on a normal exit of the test process (a failed test included), an `exit` hook kills the groups;
// - when the test process dies without running hooks (kill -9, an OOM, a crashed vitest worker), a
//   guardian process (guardian.cjs) notices that its stdin pipe closed and kills them.
// A group is forgotten when its leader exits (and killed then, in case it left descendants).
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const GUARDIAN = fileURLToPath(new URL('./guardian.cjs', import.meta.url));
const groups = new Set<number>();
let guardian: ChildProcess | undefined;

function tell(line: string): void {
  if (!guardian) {
    guardian = spawn(process.execPath, [GUARDIAN], { detached: true, stdio: ['pipe', 'ignore', 'inherit'] });
    // Neither the guardian nor its pipe keeps the test process alive.
    guardian.unref();
    (guardian.stdin as { unref?: () => void } | null)?.unref?.();
    guardian.stdin?.on('error', () => undefined);
  }
  guardian.stdin?.write(`${line}\n`);
}

function killGroup(pgid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone already
  }
}

process.on('exit', () => {
  for (const pgid of groups) {
    killGroup(pgid, 'SIGCONT');
    killGroup(pgid);
  }
});

/** `spawn`, with the child (and its descendants) tied to this process's lifetime. */
export function spawnTied(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  const pgid = child.pid;
  if (pgid === undefined) return child; // did not start: 'error' follows
  groups.add(pgid);
  tell(`+${pgid}`);
  child.once('exit', () => {
    killGroup(pgid);
    groups.delete(pgid);
    tell(`-${pgid}`);
  });
  return child;
}

/** Kills a tied child (and its group) with SIGKILL, as a crash would, and resolves once it exited. */
export function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.pid !== undefined) {
    killGroup(child.pid, 'SIGCONT');
    killGroup(child.pid);
  }
  return exited;
}

/** Asks a child to stop (SIGTERM) and resolves once it exited; SIGKILL after `graceMs`. */
export function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => void killHard(child), graceMs);
  return exited.finally(() => clearTimeout(timer));
}

/** Whether a process is still running (a zombie waiting for its reaper counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; Z is a zombie, X dead.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
