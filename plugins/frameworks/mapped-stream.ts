/**
 * @module An async iterator that reads a source stream item by item into zero or more items, and
 * adds closing items when the source ends. Unlike an async generator, its `return()` reaches the
 * source at once, even while a read is pending: a client that goes away cancels a framework's
 * stream (a ReadableStream) without waiting for its next part.
 */
export interface StreamReader<T> {
  /** The items one source item becomes; undefined passes it on unchanged. */
  read(item: unknown): T[] | undefined;
  /** Items to add after the last one. */
  end(): T[];
}

export class MappedStream<T> implements AsyncIterableIterator<T | unknown> {
  private readonly iterator: AsyncIterator<unknown> | Iterator<unknown>;
  private readonly queue: unknown[] = [];
  private ended = false;

  constructor(
    source: AsyncIterable<unknown> | Iterable<unknown>,
    private readonly reader: StreamReader<T>,
  ) {
    this.iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : (source as Iterable<unknown>)[Symbol.iterator]();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<T | unknown>> {
    while (this.queue.length === 0) {
      if (this.ended) return { done: true, value: undefined };
      const result = await this.iterator.next();
      if (result.done) {
        this.ended = true;
        this.queue.push(...this.reader.end());
        continue;
      }
      const items = this.reader.read(result.value);
      if (items === undefined) return { done: false, value: result.value };
      this.queue.push(...items);
    }
    return { done: false, value: this.queue.shift() };
  }

  async return(): Promise<IteratorResult<T | unknown>> {
    this.ended = true;
    this.queue.length = 0;
    await this.iterator.return?.();
    return { done: true, value: undefined };
  }
}
