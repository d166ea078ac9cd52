// The receiver's listeners: handlers of accepted events (by type, and 'event' for all), and the
// informational events ('duplicate', 'stale', 'invalid', 'error'). Rules owned here:
// - Every handler of an event runs, even when one throws; the first failure is what counts.
// - Handlers that return no promise cost no promise: the call stays synchronous.
// - Informational listeners never break a delivery: what they throw, or their promise rejects with,
//   goes to 'error' (never an unhandled rejection).
// - Every failure told to 'error' also goes to the receiver's logger first, so none is silent.
// - Lists are replaced, never changed, on `on`/`off`: a delivery iterates them without a copy, and
//   a handler added or removed during a call takes effect from the next one.

import { isThenable } from './deadline.js';

/** The informational events, which are never event types. */
export type Reserved = 'event' | 'duplicate' | 'stale' | 'invalid' | 'error';
const RESERVED = new Set<string>(['event', 'duplicate', 'stale', 'invalid', 'error']);

type Listener = (...args: unknown[]) => unknown;

const NONE: readonly Listener[] = Object.freeze([]);

export class Handlers {
  readonly #lists = new Map<string, readonly Listener[]>();
  readonly #log: ((error: unknown, subject: unknown) => void) | undefined;

  /** `log` gets every failure told to 'error', before the listeners. */
  constructor(log?: (error: unknown, subject: unknown) => void) {
    this.#log = log;
  }

  on(name: string, handler: Listener): void {
    this.#lists.set(name, [...this.#listeners(name), handler]);
  }

  /** Removes `handler` (every registration of it). */
  off(name: string, handler: Listener): void {
    const rest = this.#listeners(name).filter((listener) => listener !== handler);
    if (rest.length === 0) this.#lists.delete(name);
    else this.#lists.set(name, rest);
  }

  #listeners(name: string): readonly Listener[] {
    return this.#lists.get(name) ?? NONE;
  }

  /**
   * Calls every handler of `eventType` and of 'event', and fails with the first failure: at once
   * when every handler returned a plain value, else once their promises settled.
   */
  call(eventType: string, event: unknown): void | Promise<void> {
    let pending: Array<PromiseLike<unknown>> | undefined;
    let thrown: { error: unknown } | undefined;
    const run = (handlers: readonly Listener[]) => {
      for (const handler of handlers) {
        try {
          const result: unknown = handler(event);
          if (isThenable(result)) (pending ??= []).push(result);
        } catch (error) {
          thrown ??= { error };
        }
      }
    };
    if (!RESERVED.has(eventType)) run(this.#listeners(eventType));
    run(this.#listeners('event'));
    if (!pending) {
      if (thrown) throw thrown.error;
      return;
    }
    return Promise.allSettled(pending).then((outcomes) => {
      if (thrown) throw thrown.error;
      const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (rejected) throw rejected.reason;
    });
  }

  /** Tells informational listeners (not awaited); what they throw or reject with goes to 'error' (and is dropped there). */
  emit(name: Reserved, ...args: unknown[]): void {
    if (name === 'error') this.#log?.(args[0], args[1]);
    const failed = (error: unknown) => {
      if (name !== 'error') this.emit('error', error, args[0]);
    };
    for (const listener of this.#listeners(name)) {
      try {
        const result: unknown = listener(...args);
        if (isThenable(result)) void result.then(undefined, failed);
      } catch (error) {
        failed(error);
      }
    }
  }
}
