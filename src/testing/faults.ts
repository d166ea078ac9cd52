// Faults the mock can play for users' tests: fail the next N calls with a code or a raw body, add
// latency, or drop the connection without an answer.

/** A fault the mock plays on the next matching calls. */
export interface Fault {
  /** Only calls to this path (e.g. `/incident/list`); default any. */
  path?: string;
  /** How many calls it applies to; default 1. */
  times?: number;
  /** Answer with this error code in a failure envelope (status from the spec unless `status` is given). */
  code?: string;
  /** Message of that envelope. */
  message?: string;
  /** HTTP status; alone it answers a failure envelope with the spec's code for that status. */
  status?: number;
  /** A raw body to answer with instead of an envelope (say an HTML 502 page). */
  body?: string;
  /** Extra response headers, e.g. `{ 'Retry-After': '1' }`. */
  headers?: Record<string, string>;
  /** Wait this long (ms) before answering; with nothing else set, the call then proceeds normally. */
  delayMs?: number;
  /** Close the connection without any answer, before the call takes effect. */
  drop?: boolean;
  /** Let the call take effect, then close the connection instead of answering (the answer is lost). */
  dropAfter?: boolean;
  /** Send the status and headers, then only half of the body before closing the connection. */
  truncate?: boolean;
}

export class FaultQueue {
  readonly #queue: Array<Fault & { left: number }> = [];

  /** Queues a fault; faults apply in the order they were added. */
  add(fault: Fault): void {
    this.#queue.push({ ...fault, left: fault.times ?? 1 });
  }

  clear(): void {
    this.#queue.length = 0;
  }

  get pending(): number {
    return this.#queue.reduce((sum, f) => sum + f.left, 0);
  }

  /** The fault for this call, if one is due. */
  take(path: string): Fault | undefined {
    const index = this.#queue.findIndex((f) => f.path === undefined || f.path === path);
    if (index < 0) return undefined;
    const fault = this.#queue[index] as Fault & { left: number };
    if (--fault.left <= 0) this.#queue.splice(index, 1);
    return fault;
  }
}
