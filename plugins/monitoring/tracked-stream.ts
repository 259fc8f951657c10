/**
 * @module A streamed result that reports how its consumption ended: the last item read (`end`), a
 * failure of the source (`error`), or the consumer stopping early (`return`, also when it closes
 * the stream before reading anything, which a generator wrapper would not notice). Items pass
 * through untouched; a sync iterable stays sync, an async one async.
 */
export type StreamOutcome = { kind: "end" } | { kind: "error"; error: unknown } | { kind: "return" };

export function trackStream<T>(source: AsyncIterable<T> | Iterable<T>, done: (outcome: StreamOutcome) => void): AsyncIterable<T> | Iterable<T> {
  let reported = false;
  const report = (outcome: StreamOutcome) => {
    if (reported) return;
    reported = true;
    done(outcome);
  };
  if (Symbol.asyncIterator in source) {
    return { [Symbol.asyncIterator]: () => trackAsync(source[Symbol.asyncIterator](), report) };
  }
  return { [Symbol.iterator]: () => trackSync((source as Iterable<T>)[Symbol.iterator](), report) };
}

function trackAsync<T>(it: AsyncIterator<T>, report: (outcome: StreamOutcome) => void): AsyncIterableIterator<T> {
  const tracked: AsyncIterableIterator<T> = {
    async next(...args: [] | [unknown]) {
      try {
        const step = await it.next(...args);
        if (step.done) report({ kind: "end" });
        return step;
      } catch (error) {
        report({ kind: "error", error });
        throw error;
      }
    },
    async return(value?: unknown) {
      report({ kind: "return" });
      return it.return ? await it.return(value) : { done: true, value: value as T };
    },
    [Symbol.asyncIterator]: () => tracked,
  };
  if (it.throw) {
    tracked.throw = async (error?: unknown) => {
      report({ kind: "error", error });
      return it.throw!(error);
    };
  }
  return tracked;
}

function trackSync<T>(it: Iterator<T>, report: (outcome: StreamOutcome) => void): IterableIterator<T> {
  const tracked: IterableIterator<T> = {
    next(...args: [] | [unknown]) {
      try {
        const step = it.next(...args);
        if (step.done) report({ kind: "end" });
        return step;
      } catch (error) {
        report({ kind: "error", error });
        throw error;
      }
    },
    return(value?: unknown) {
      report({ kind: "return" });
      return it.return ? it.return(value) : { done: true, value: value as T };
    },
    [Symbol.iterator]: () => tracked,
  };
  if (it.throw) {
    tracked.throw = (error?: unknown) => {
      report({ kind: "error", error });
      return it.throw!(error);
    };
  }
  return tracked;
}
