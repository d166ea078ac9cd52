// The queue mode's first side (src/webhooks/queue/enqueue.ts), checked at construction: a queue is anything with
// BullMQ's add(); on a Redis Cluster its keys need a hash tag (one slot for its Lua scripts), and a
// queue without one is refused with the fix; waitForReplicas is a whole number ≥ 0, and above 0
// needs a queue whose connection can send WAIT. The job id: injective (`%` and `:` escaped), never
// an integer, the same for the same event. A delivery handed over: its job id, WAIT for replicas on
// the queue's own connection within the deadline. Plain objects shaped like what the code reads of a
// BullMQ Queue: no Redis (the real BullMQ runs in test/integration/webhooks).
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ConfigError } from '../../../../src/internal/flashduty-error.js';
import { buildWebhookEvent } from '../../../../src/testing/index.js';
import { Deadline, DeadlineExceededError } from '../../../../src/webhooks/deadline.js';
import {
  checkQueue,
  checkWaitForReplicas,
  enqueue,
  jobIdFor,
  type PendingAdds,
  type WebhookQueue,
} from '../../../../src/webhooks/queue/enqueue.js';
import { leaveFakeClock } from '../../../helpers.js';

const add = () => Promise.resolve(undefined);
/** What the receiver reads of a BullMQ Queue named `name` with this prefix, on a Cluster or not. */
const queueOf = (prefix: string, cluster: boolean, name = 'webhooks'): WebhookQueue => ({
  add,
  toKey: (type) => `${prefix}:${name}:${type}`,
  opts: { connection: cluster ? { isCluster: true } : {} },
});
const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('checkQueue', () => {
  it('passes undefined (no queue) and anything with add(), as it is', () => {
    expect(checkQueue(undefined)).toBeUndefined();
    const bare = { add };
    expect(checkQueue(bare)).toBe(bare);
    const queue = queueOf('bull', false);
    expect(checkQueue(queue)).toBe(queue); // no hash tag needed off a Cluster
  });

  it('refuses something without add() as a ConfigError', () => {
    for (const notAQueue of [{}, { add: 'yes' }, { push: add }, null, 'queue']) {
      const error = thrown(() => checkQueue(notAQueue as unknown as WebhookQueue));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe('queue: expected a BullMQ Queue (anything with its add())');
    }
  });

  it("refuses a Cluster queue whose keys have no hash tag (BullMQ's default prefix), naming the fix", () => {
    const error = thrown(() => checkQueue(queueOf('bull', true)));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      "queue: on a Redis Cluster its keys need a hash tag (bull:webhooks:wait has none): give the Queue and its Workers a prefix such as '{flashduty}'",
    );
    // Braces that pick no slot: empty (Redis then hashes the whole key, even with a later pair), or never closed.
    for (const prefix of ['{}', '{}{x}', 'bull{', 'bull}{x']) {
      expect(thrown(() => checkQueue(queueOf(prefix, true)))).toBeInstanceOf(ConfigError);
    }
  });

  it('passes a Cluster queue whose keys carry a hash tag', () => {
    for (const prefix of ['{flashduty}', 'app{flashduty}', '{a}:{b}', 'x}{y}']) {
      const queue = queueOf(prefix, true);
      expect([prefix, checkQueue(queue)]).toEqual([prefix, queue]);
    }
    // The tag may also come from the queue's name.
    const named = queueOf('bull', true, '{webhooks}');
    expect(checkQueue(named)).toBe(named);
  });

  it('asks of the connection only an isCluster of true, and of the queue only its key', () => {
    const notCluster: WebhookQueue = { add, toKey: () => 'bull:q:wait', opts: { connection: { isCluster: 'yes' } } };
    expect(checkQueue(notCluster)).toBe(notCluster);
    const noKey: WebhookQueue = { add, opts: { connection: { isCluster: true } } };
    expect(checkQueue(noKey)).toBe(noKey); // nothing to check without toKey()
    let asked: string | undefined;
    checkQueue({ add, toKey: (type) => `{fd}:q:${(asked = type)}`, opts: { connection: { isCluster: true } } });
    expect(asked).toBe('wait');
  });
});

describe('checkWaitForReplicas', () => {
  const withClient: WebhookQueue = { add, client: Promise.resolve({}) };
  const withBackend: WebhookQueue = { add, getBackend: () => ({ client: Promise.resolve({}) }) };

  it('is 0 when undefined or 0, with or without a queue', () => {
    expect(checkWaitForReplicas(undefined, undefined)).toBe(0);
    expect(checkWaitForReplicas(0, undefined)).toBe(0);
    expect(checkWaitForReplicas(0, { add })).toBe(0);
  });

  it('refuses anything but a whole number ≥ 0, saying what it got', () => {
    for (const [value, shown] of [
      [-1, '-1'],
      [1.5, '1.5'],
      [Number.NaN, 'null'],
      [Number.POSITIVE_INFINITY, 'null'],
      ['2', '"2"'],
      [null, 'null'],
    ] as const) {
      const error = thrown(() => checkWaitForReplicas(value, withClient));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe(`waitForReplicas: expected a whole number ≥ 0, got ${shown}`);
    }
  });

  it('above 0, needs a queue with a connection (BullMQ before 6: client; 6: getBackend().client)', () => {
    for (const queue of [undefined, { add }, { add, getBackend: () => ({}) }, { add, getBackend: () => undefined }]) {
      const error = thrown(() => checkWaitForReplicas(1, queue));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe('waitForReplicas: needs a BullMQ Queue, whose connection sends WAIT');
    }
    expect(checkWaitForReplicas(1, withClient)).toBe(1);
    expect(checkWaitForReplicas(2, withBackend)).toBe(2);
  });
});

describe('enqueue', () => {
  const event = buildWebhookEvent('i_new');
  const pending = (): PendingAdds => ({ count: 0, max: 100 });

  it("takes an add that answers without a promise (anything with BullMQ's add may)", async () => {
    const added: unknown[] = [];
    const queue = { add: (...args: unknown[]) => void added.push(args) } as unknown as WebhookQueue;
    const deadline = new Deadline(1_000);
    await expect(
      enqueue(queue, { name: 'i_new', data: event, eventId: 'e1' }, 0, deadline, pending()),
    ).resolves.toBeUndefined();
    expect(added).toHaveLength(1);
    deadline.dispose();
  });

  it('adds the job with the id derived from the event, or none without dedup', async () => {
    const added: unknown[] = [];
    const queue = { add: async (...args: unknown[]) => void added.push(args) };
    const deadline = new Deadline(1_000);
    await enqueue(queue, { name: 'i_new', data: event, eventId: 'e:1%' }, 0, deadline, pending());
    await enqueue(queue, { name: 'i_new', data: event, eventId: undefined }, 0, deadline, pending());
    expect(added).toEqual([
      ['i_new', event, { jobId: 'fd-e%3A1%25' }],
      ['i_new', event, {}],
    ]);
    deadline.dispose();
  });

  it("waits for replicas on the queue's own connection (BullMQ before 6: client; 6: getBackend().client), refuses too few, and a queue past the deadline", async () => {
    vi.useFakeTimers();
    onTestFinished(leaveFakeClock);
    const waits: unknown[] = [];
    let acked = 2;
    const client = { call: async (...args: unknown[]) => (waits.push(args), acked) };
    const deadline = new Deadline(1_000);
    await enqueue(
      { add, client: Promise.resolve(client) },
      { name: 'i_new', data: event, eventId: 'e1' },
      1,
      deadline,
      pending(),
    );
    await enqueue(
      { add, getBackend: () => ({ client: Promise.resolve(client) }) },
      { name: 'i_new', data: event, eventId: 'e1' },
      2,
      deadline,
      pending(),
    );
    expect(waits).toEqual([
      ['WAIT', 1, 995],
      ['WAIT', 2, 995],
    ]);
    acked = 0;
    await expect(
      enqueue(
        { add, client: Promise.resolve(client) },
        { name: 'i_new', data: event, eventId: 'e1' },
        1,
        deadline,
        pending(),
      ),
    ).rejects.toThrow(/waitForReplicas: 0 of 1 replicas held the job/);
    await expect(
      enqueue(
        { add, client: Promise.resolve({}) },
        { name: 'i_new', data: event, eventId: 'e1' },
        1,
        deadline,
        pending(),
      ),
    ).rejects.toThrow(new ConfigError('waitForReplicas: queue.client is not an ioredis client'));
    const stuck = { add: () => new Promise<never>(() => {}) };
    const adding = enqueue(stuck, { name: 'i_new', data: event, eventId: 'e2' }, 0, deadline, pending()).catch(
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await adding).toBeInstanceOf(DeadlineExceededError);
    deadline.dispose();
  });

  it('refuses an add at once beyond maxInFlight adds the queue has not answered, however late, and takes one again once it answers', async () => {
    vi.useFakeTimers();
    onTestFinished(leaveFakeClock);
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const added: string[] = [];
    // A queue whose Redis is down: its adds wait (BullMQ's connection keeps them) until it is back.
    const down = { add: async (name: string) => (added.push(name), answered) };
    const adds: PendingAdds = { count: 0, max: 2 };
    const deadlines = [new Deadline(100), new Deadline(100)]; // a delivery's own each
    const first = deadlines.map((deadline, n) =>
      enqueue(down, { name: `e${n + 1}`, data: event, eventId: `e${n + 1}` }, 0, deadline, adds).catch(
        (e: unknown) => e,
      ),
    );
    await vi.advanceTimersByTimeAsync(100);
    for (const given of first) expect(await given).toBeInstanceOf(DeadlineExceededError); // given up on, still held
    expect(adds.count).toBe(2);
    const refused = await enqueue(down, { name: 'e3', data: event, eventId: 'e3' }, 0, new Deadline(100), adds).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ message: 'maxInFlight (2) deliveries wait for the queue already' });
    expect(added).toEqual(['e1', 'e2']); // never handed to the queue
    answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(adds.count).toBe(0);
    const later = new Deadline(100);
    await expect(enqueue(down, { name: 'e4', data: event, eventId: 'e4' }, 0, later, adds)).resolves.toBeUndefined();
    later.dispose();
    for (const deadline of deadlines) deadline.dispose();
  });
});

describe('jobIdFor', () => {
  it("is 'fd-' and the id, with % and : percent-encoded", () => {
    expect(jobIdFor('01HZX3')).toBe('fd-01HZX3');
    expect(jobIdFor('a:b')).toBe('fd-a%3Ab');
    expect(jobIdFor('50%')).toBe('fd-50%25');
    expect(jobIdFor('%3A:')).toBe('fd-%253A%3A');
    expect(jobIdFor('')).toBe('fd-');
  });

  it('never holds a colon and is never an integer (BullMQ refuses both)', () => {
    for (const id of ['12345', '0', 'x:y:z', '::', '%', '-1']) {
      const jobId = jobIdFor(id);
      expect(jobId).not.toContain(':');
      expect(Number.isInteger(Number(jobId))).toBe(false);
    }
  });

  it('is the same for the same event, and different for different events (injective)', () => {
    expect(jobIdFor('evt:1')).toBe(jobIdFor('evt:1'));
    // Ids that a lossy escaping would merge.
    const ids = ['a:b', 'a%3Ab', 'a%3ab', 'a%b', 'a%25b', 'a%253Ab', 'a:', 'a%3A', 'a', '%', '%25', ':'];
    expect(new Set(ids.map(jobIdFor)).size).toBe(ids.length);
    // Decoding gives the id back.
    for (const id of ids) expect(decodeURIComponent(jobIdFor(id).slice(3))).toBe(id);
  });
});
