// Runs a generator whose `yield`s are values or promises: synchronously for as long as they are
// plain values, asynchronously from the first promise on. One piece of code then serves a
// synchronous store and handlers (no microtask, no timer per call) and an asynchronous one alike.
// A rejected promise is thrown back in at its `yield`, so try/catch inside the generator works.

/** A value now, or later. */
export type Awaitable<T> = T | PromiseLike<T>;

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

/** The generator's return value, or a promise of it once a yielded value was a promise. */
export function runSteps<R>(steps: Generator<unknown, R, unknown>): R | Promise<R> {
  let step = steps.next();
  while (!step.done) {
    if (isThenable(step.value)) return resume(steps, step.value);
    step = steps.next(step.value);
  }
  return step.value;
}

async function resume<R>(steps: Generator<unknown, R, unknown>, pending: PromiseLike<unknown>): Promise<R> {
  for (;;) {
    let step: IteratorResult<unknown, R>;
    let settled: { value: unknown } | { error: unknown };
    try {
      settled = { value: await pending };
    } catch (error) {
      settled = { error };
    }
    step = 'value' in settled ? steps.next(settled.value) : steps.throw(settled.error);
    while (!step.done && !isThenable(step.value)) step = steps.next(step.value);
    if (step.done) return step.value;
    pending = step.value as PromiseLike<unknown>; // the loop stopped at a thenable
  }
}
