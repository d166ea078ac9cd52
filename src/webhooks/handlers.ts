// The receiver's listeners: handlers of accepted events (by type, and 'event' for all), and the
// informational events ('duplicate', 'stale', 'invalid', 'error'). Rules owned here:
// - Every handler of an event runs, even when one throws; the first failure is what counts.
// - Handlers that return no promise cost no promise: the call stays synchronous.
// - Informational listeners never break a delivery: what they throw, or their promise rejects with,
//   goes to 'error' (never an unhandled rejection).
// - Every failure told to 'error' also goes to the receiver's logger first, so none is silent.
// - Lists are replaced, never changed, on `on`/`off`: a delivery iterates them without a copy, and
//   a handler added or removed during a call takes effect from the next one.

import type { Logger } from '../internal/logger.js';
import { isThenable } from '../internal/maybe.js';

/** The informational events, which are never event types. */
export type Reserved = 'event' | 'duplicate' | 'stale' | 'invalid' | 'error';
const RESERVED = new Set<string>(['event', 'duplicate', 'stale', 'invalid', 'error']);

type Listener = (...args: unknown[]) => unknown;

const NONE: readonly Listener[] = [];

export class Handlers {
  readonly #lists = new Map<string, readonly Listener[]>();
  readonly #log: ((error: unknown, subject: unknown) => void) | undefined;

  /** Every failure told to 'error' is logged first: to `logger`, stderr by default, nowhere with `false`. */
  constructor(logger?: Logger | false) {
    this.#log = failureLog(logger);
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
   * Calls every handler of `eventType` and of 'event' with the event and its context, and fails with
   * the first failure: at once when every handler returned a plain value, else once their promises
   * settled (what they resolve to means nothing).
   */
  call(eventType: string, event: unknown, context: unknown): void | PromiseLike<unknown> {
    let pending: Array<PromiseLike<unknown>> | undefined;
    let thrown: { error: unknown } | undefined;
    const run = (handlers: readonly Listener[]) => {
      for (const handler of handlers) {
        try {
          const result: unknown = handler(event, context);
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
    // One async handler, the usual case: its own promise, with neither allSettled's records nor its turns.
    if (pending.length === 1 && !thrown) return pending[0];
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

/** A failure's own words, for the logger and the span (never for the sender). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** How failures are logged: to the logger given, stderr by default, nowhere with `false`. */
function failureLog(logger: Logger | false | undefined): ((error: unknown, subject: unknown) => void) | undefined {
  if (logger === false) return undefined;
  return (error, subject) => {
    const id = (subject as { event_id?: unknown } | undefined)?.event_id;
    const line = `[flashduty] webhook${typeof id === 'string' ? ` ${id}` : ''}: ${messageOf(error)}`;
    try {
      (logger || console).error(line);
    } catch {
      // A logger that fails cannot be told so; the failure still goes to 'error' and the span.
    }
  };
}
