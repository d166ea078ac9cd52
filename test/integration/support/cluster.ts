// A receiver deployment for the chaos tests, every part real and tied to the test's lifetime:
// redis-server (AOF, fsync always) for state and queue, a second one as the ledger, receiver
// replicas and BullMQ workers as child processes (test/integration/processes/chaos-*.ts), a front door that
// spreads connections over the replicas, and a sender that delivers by the spec's rules.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConnectionOptions, Queue } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { closedPort } from '../../helpers.js';
import { startFrontDoor, type FrontDoor } from './front-door.js';
import { type HandlerPlan, ledgerConnectionName, type Outcomes, readOutcomes } from './ledger.js';
import { killHard, spawnTied, stopChild } from './lifetime.js';
import { type RedisServer, startRedis } from './redis.js';
import { Sender } from './sender.js';

/** What a replica or worker process is told (as JSON in CHAOS_CONFIG). */
export interface ProcessConfig {
  redisPort: number;
  ledgerPort: number;
  /** The BullMQ queue's name; none: handlers run in the replicas. */
  queue?: string;
  keyPrefix: string;
  ackTimeoutMs: number;
  handlers: HandlerPlan;
  jobOptions?: {
    attempts: number;
    backoff: { type: 'exponential' | 'fixed'; delay: number };
    removeOnComplete?: { age: number };
  };
  concurrency?: number;
  /** How replicas serve: node:http + nodeMiddleware (default), Fastify + fastifyWebhooks, @hono/node-server + fetchHandler. */
  adapter?: 'node' | 'fastify' | 'fetch';
  /** Reach Redis through this Sentinel (the primary it names), not at `redisPort`. */
  sentinel?: { port: number; name: string };
  /** The receivers' `waitForReplicas`. */
  waitForReplicas?: number;
}

/** How a process connects to the cluster's Redis: at its port, or through its Sentinel. */
export function redisOptions(config: ProcessConfig): RedisOptions {
  return config.sentinel
    ? { sentinels: [{ host: '127.0.0.1', port: config.sentinel.port }], name: config.sentinel.name }
    : { host: '127.0.0.1', port: config.redisPort };
}

/** A replica or worker process. */
export interface Member {
  child: ChildProcess;
  pid: number;
  /** The replica's URL (workers have none). */
  url?: string;
  output(): string;
}

export interface ClusterOptions {
  /** With a BullMQ queue (handlers in workers) or without (handlers in the replicas). */
  mode: 'queue' | 'direct';
  replicas?: number;
  workers?: number;
  ackTimeoutMs?: number;
  handlers?: HandlerPlan;
  adapter?: ProcessConfig['adapter'];
  /** BullMQ job options; default 8 attempts, exponential backoff from 100 ms. */
  jobOptions?: ProcessConfig['jobOptions'];
  /**
   * A primary with one replica and a Sentinel that promotes the replica when the primary dies
   * (`redis` is the primary); the processes reach Redis through the Sentinel.
   */
  failover?: { waitForReplicas: number };
}

let clusters = 0;
const SENTINEL_NAME = 'chaos';

/** A replica of `primary` and a Sentinel watching it, quick to fail over (1 s down, one vote). */
async function startFailover(primary: RedisServer): Promise<{ sentinel: { port: number }; stop(): Promise<void> }> {
  const replica = await startRedis({ replicaOf: primary.port });
  const dir = await mkdtemp(join(tmpdir(), 'flashduty-sentinel-'));
  const port = await closedPort();
  const conf = join(dir, 'sentinel.conf');
  // prettier-ignore
  await writeFile(conf, [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`,
    `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${primary.port} 1`,
    `sentinel down-after-milliseconds ${SENTINEL_NAME} 1000`,
    `sentinel failover-timeout ${SENTINEL_NAME} 5000`, ''].join('\n'));
  const sentinel = spawnTied('redis-server', [conf, '--sentinel'], { stdio: 'ignore' });
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
  for (let tries = 0; ; tries++) {
    const known = await probe.call('SENTINEL', 'get-master-addr-by-name', SENTINEL_NAME).catch(() => null);
    if (Array.isArray(known)) break;
    if (tries > 200) throw new Error('the Sentinel did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  probe.disconnect();
  return {
    sentinel: { port },
    async stop() {
      await stopChild(sentinel);
      await replica.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export class Cluster {
  readonly replicas: Member[] = [];
  readonly workers: Member[] = [];
  /** Pids of the processes killed with kill -9. */
  readonly killed = new Set<number>();
  /** A Queue handle of the test's own, to read job counts. */
  queue?: Queue;
  /** Stops the replica and the Sentinel of a failover cluster. */
  stopFailover?: () => Promise<void>;
  private constructor(
    readonly redis: RedisServer,
    readonly ledgerRedis: RedisServer,
    readonly ledger: Redis,
    readonly config: ProcessConfig,
    readonly frontDoor: FrontDoor,
    public sender: Sender,
  ) {}

  static async start(options: ClusterOptions): Promise<Cluster> {
    const [redis, ledgerRedis] = await Promise.all([startRedis({ persistent: true }), startRedis()]);
    const name = `chaos-${process.pid}-${++clusters}`;
    const failover = options.failover ? await startFailover(redis) : undefined;
    const config: ProcessConfig = {
      redisPort: redis.port,
      ledgerPort: ledgerRedis.port,
      ...(options.mode === 'queue' ? { queue: name } : {}),
      keyPrefix: `${name}:`,
      ackTimeoutMs: options.ackTimeoutMs ?? 1_500,
      handlers: options.handlers ?? {},
      adapter: options.adapter ?? 'node',
      jobOptions: options.jobOptions ?? {
        attempts: 8,
        backoff: { type: 'exponential', delay: 100 },
        removeOnComplete: { age: 3600 },
      },
      ...(failover
        ? {
            sentinel: { port: failover.sentinel.port, name: SENTINEL_NAME },
            waitForReplicas: options.failover?.waitForReplicas ?? 0,
          }
        : {}),
    };
    const frontDoor = await startFrontDoor([]);
    const cluster = new Cluster(
      redis,
      ledgerRedis,
      new Redis(ledgerRedis.port, '127.0.0.1'),
      config,
      frontDoor,
      new Sender(frontDoor.url),
    );
    if (failover) cluster.stopFailover = () => failover.stop();
    if (config.queue)
      cluster.queue = new Queue(config.queue, { connection: redisOptions(config) as ConnectionOptions });
    await Promise.all([
      ...Array.from({ length: options.replicas ?? 2 }, () => cluster.startReplica()),
      ...Array.from({ length: options.mode === 'queue' ? (options.workers ?? 2) : 0 }, () => cluster.startWorker()),
    ]);
    return cluster;
  }

  /** Starts one more replica (by default with the cluster's adapter) and puts it behind the front door. */
  async startReplica(adapter = this.config.adapter): Promise<Member> {
    const member = await this.#spawn('chaos-replica.ts', /LISTENING (\S+)/, { ...this.config, adapter });
    this.replicas.push(member);
    this.#route();
    return member;
  }

  async startWorker(): Promise<Member> {
    const member = await this.#spawn('chaos-worker.ts', /READY/);
    this.workers.push(member);
    return member;
  }

  /** kill -9 of a replica or worker; a replica leaves the front door's rotation (as its health check would). */
  async kill(member: Member): Promise<void> {
    this.killed.add(member.pid);
    await killHard(member.child);
    this.#route();
  }

  /** Resolves once `inside:<pid>` shows a handler running in that process (to kill it mid-handler). */
  async waitForHandlerIn(member: Member, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Number(await this.ledger.get(`inside:${member.pid}`)) <= 0) {
      if (Date.now() > deadline) throw new Error(`no handler ran in process ${member.pid} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * The first replica found holding a delivery (a connection through the front door with no byte of
   * an answer yet) among those opened after the front door's mark `since`; polls for up to `timeoutMs`.
   */
  async replicaHolding(since: number, timeoutMs = 20_000): Promise<Member> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const alive = this.replicas.filter((r) => r.child.exitCode === null && r.child.signalCode === null);
      const holder = alive.find((r) => this.frontDoor.holding(r.url as string, since) > 0);
      if (holder) return holder;
      if (Date.now() > deadline) throw new Error(`no replica held a delivery within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Resolves once the Sentinel names another primary than `redis` (the failover done); polls up to `timeoutMs`. */
  async failedOver(timeoutMs = 30_000): Promise<void> {
    const sentinel = this.config.sentinel;
    if (!sentinel) throw new Error('failedOver(): the cluster has no Sentinel');
    const probe = new Redis({ port: sentinel.port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 1 });
    probe.on('error', () => undefined); // a failed ask is asked again
    try {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const primary = await probe.call('SENTINEL', 'get-master-addr-by-name', sentinel.name).catch(() => null);
        if (Array.isArray(primary) && Number(primary[1]) !== this.redis.port) return;
        if (Date.now() > deadline)
          throw new Error(`the Sentinel still names ${JSON.stringify(primary)} after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      probe.disconnect();
    }
  }

  /** Whether the ledger lists the process's connection (named by connectLedger). */
  async ledgerConnected(member: Member): Promise<boolean> {
    return String(await this.ledger.client('LIST')).includes(`name=${ledgerConnectionName(member.pid)} `);
  }

  /**
   * Resolves once the ledger has dropped the connection of a process that died: Redis applies what a
   * connection sent before it notices the close, so nothing the process recorded is still on the way.
   */
  async ledgerDropped(member: Member, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (await this.ledgerConnected(member)) {
      if (Date.now() > deadline) throw new Error(`the ledger still lists process ${member.pid} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Waits until nothing is left to run: no job waiting, active or delayed (queue mode) and no
   * handler inside any process, twice in a row. Resolves with the number of jobs in the failed set.
   */
  async settle(timeoutMs = 60_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    // A queue.add that is still under way may land after the sender gave up on its delivery.
    await new Promise((resolve) => setTimeout(resolve, this.config.ackTimeoutMs));
    let quiet = 0;
    for (;;) {
      const counts = this.queue
        ? await this.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed')
        : {};
      const pending = (counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0);
      const inside = await this.#inside();
      quiet = pending === 0 && inside === 0 ? quiet + 1 : 0;
      if (quiet >= 2) return counts.failed ?? 0;
      if (Date.now() > deadline)
        throw new Error(`not settled after ${timeoutMs} ms: ${JSON.stringify(counts)}, ${inside} handlers inside`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** Jobs in BullMQ's failed set (0 without a queue). */
  async failedJobs(): Promise<number> {
    return this.queue ? ((await this.queue.getJobCounts('failed')).failed ?? 0) : 0;
  }

  outcomes(ids: string[]): Promise<Outcomes> {
    return readOutcomes(this.ledger, ids);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.replicas, ...this.workers].map((m) => stopChild(m.child, 2_000)));
    await Promise.allSettled([this.queue?.close(), this.ledger.quit(), this.frontDoor.close()]);
    await Promise.allSettled([this.redis.stop(), this.ledgerRedis.stop(), this.stopFailover?.()]);
  }

  async #inside(): Promise<number> {
    // Only living processes: one killed mid-handler never counts its handler out.
    const alive = [...this.replicas, ...this.workers].filter(
      (m) => m.child.exitCode === null && m.child.signalCode === null,
    );
    const values = alive.length ? await this.ledger.mget(...alive.map((m) => `inside:${m.pid}`)) : [];
    return values.reduce((sum, v) => sum + Math.max(0, Number(v)), 0);
  }

  #route(): void {
    const alive = this.replicas.filter((r) => r.child.exitCode === null && r.child.signalCode === null);
    this.frontDoor.setBackends(alive.map((r) => r.url as string));
  }

  #spawn(file: string, ready: RegExp, config: ProcessConfig = this.config): Promise<Member> {
    const child = spawnTied(process.execPath, ['--import', 'tsx', `test/integration/processes/${file}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CHAOS_CONFIG: JSON.stringify(config) },
    });
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${file} did not start: ${out}`)), 30_000);
      const check = () => {
        const match = ready.exec(out);
        if (!match) return;
        clearTimeout(timer);
        child.stdout?.off('data', check);
        resolve({ child, pid: child.pid as number, ...(match[1] ? { url: match[1] } : {}), output: () => out });
      };
      child.stdout?.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${file} exited with ${code}: ${out}`));
      });
    });
  }
}
