// The receiver's listeners: handlers of accepted events (by type, and 'event' for all), and the
// informational events ('duplicate', 'stale', 'invalid', 'error'). Rules owned here:
// - Every handler of an event runs, even when one throws; the first failure is what counts.
// - Informational listeners never break a delivery: what they throw, or their promise rejects with,
//   goes to 'error' (never an unhandled rejection).
// - Every failure told to 'error' also goes to the receiver's logger first, so none is silent.
// - Lists are replaced, never changed, on `on`/`off`: a handler added or removed during a call
//   takes effect from the next one.

import { native } from '../internal/guards.js';
import type { Logger } from '../internal/logger.js';
import { isKnownEventType } from './types.js';

/** The informational events, which are never event types. */
export type Reserved = 'event' | 'duplicate' | 'stale' | 'invalid' | 'error';
const RESERVED = new Set<string>(['event', 'duplicate', 'stale', 'invalid', 'error']);

type Listener = (...args: unknown[]) => unknown;

const NONE: readonly Listener[] = [];

export class Handlers {
  readonly #lists = new Map<string, readonly Listener[]>();
  /** The handlers an event type runs (its own, then 'event''s), made once per type until the next `on`/`off`. */
  readonly #runs = new Map<string, readonly Listener[]>();
  readonly #log: ((error: unknown, subject: unknown) => void) | undefined;

  /** Every failure told to 'error' is logged first: to `logger`, stderr by default, nowhere with `false`. */
  constructor(logger?: Logger | false) {
    this.#log = failureLog(logger);
  }

  on(name: string, handler: Listener): void {
    this.#lists.set(name, [...this.#listeners(name), handler]);
    this.#runs.clear();
  }

  /** Removes `handler` (every registration of it). */
  off(name: string, handler: Listener): void {
    const rest = this.#listeners(name).filter((listener) => listener !== handler);
    if (rest.length === 0) this.#lists.delete(name);
    else this.#lists.set(name, rest);
    this.#runs.clear();
  }

  #listeners(name: string): readonly Listener[] {
    return this.#lists.get(name) ?? NONE;
  }

  /**
   * Runs every handler of `eventType` and of 'event' with the event and its context. Handlers still
   * running give a Promise (a thenable of another library is made one, so that `instanceof Promise`
   * tells them): the one handler's, or one of them all that rejects with the first failure once all
   * have settled. Anything else means they are done (what they return means nothing); what the one
   * handler throws at once is thrown.
   */
  call(eventType: string, event: unknown, context: unknown): unknown {
    const handlers = this.#runsOf(eventType);
    if (handlers.length === 1) {
      return native((handlers[0] as Listener)(event, context));
    }
    const runs = handlers.map(async (handler) => handler(event, context));
    return Promise.allSettled(runs).then((outcomes) => {
      const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (failure) throw failure.reason;
    });
  }

  #runsOf(eventType: string): readonly Listener[] {
    let handlers = this.#runs.get(eventType);
    if (!handlers) {
      const typed = RESERVED.has(eventType) ? NONE : this.#listeners(eventType);
      handlers = [...typed, ...this.#listeners('event')];
      // Kept for the types this receiver knows (a type added later is made anew on each delivery, as
      // the map's size would otherwise be the sender's choice).
      if (isKnownEventType(eventType) || RESERVED.has(eventType)) this.#runs.set(eventType, handlers);
    }
    return handlers;
  }

  /** Tells informational listeners (not awaited); what they throw or reject with goes to 'error' (and is dropped there). */
  emit(name: Reserved, ...args: unknown[]): void {
    if (name === 'error') this.#log?.(args[0], args[1]);
    const failed = (error: unknown) => {
      if (name !== 'error') this.emit('error', error, args[0]);
    };
    for (const listener of this.#listeners(name)) {
      try {
        Promise.resolve(listener(...args)).catch(failed);
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
