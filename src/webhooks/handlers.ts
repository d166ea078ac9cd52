// The receiver's listeners: handlers of accepted events (by type, and 'event' for all), and the
// informational events ('duplicate', 'stale', 'invalid', 'error'). Rules owned here:
// - Every handler of an event runs, even when one throws; the first failure is what counts.
// - Handlers that return no promise cost no promise: the call stays synchronous.
// - Informational listeners never break a delivery: what they throw, or their promise rejects with,
//   goes to 'error' (never an unhandled rejection).

import EventEmitter from 'eventemitter3';
import { isThenable } from './deadline.js';

/** The informational events, which are never event types. */
export type Reserved = 'event' | 'duplicate' | 'stale' | 'invalid' | 'error';
const RESERVED = new Set<string>(['event', 'duplicate', 'stale', 'invalid', 'error']);

type Listener = (...args: unknown[]) => unknown;

export class Handlers {
  readonly #emitter = new EventEmitter();

  on(name: string, handler: Listener): void {
    this.#emitter.on(name, handler);
  }

  off(name: string, handler: Listener): void {
    this.#emitter.off(name, handler);
  }

  /**
   * Calls every handler of `eventType` and of 'event', and fails with the first failure: at once
   * when every handler returned a plain value, else once their promises settled.
   */
  call(eventType: string, event: unknown): void | Promise<void> {
    const typed = RESERVED.has(eventType) ? [] : this.#emitter.listeners(eventType);
    let pending: Array<PromiseLike<unknown>> | undefined;
    let thrown: { error: unknown } | undefined;
    for (const handlers of [typed, this.#emitter.listeners('event')]) {
      for (const handler of handlers) {
        try {
          const result: unknown = handler(event);
          if (isThenable(result)) (pending ??= []).push(result);
        } catch (error) {
          thrown ??= { error };
        }
      }
    }
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
    const failed = (error: unknown) => {
      if (name !== 'error') this.emit('error', error, args[0]);
    };
    for (const listener of this.#emitter.listeners(name)) {
      try {
        const result: unknown = listener(...args);
        if (isThenable(result)) void result.then(undefined, failed);
      } catch (error) {
        failed(error);
      }
    }
  }
}
