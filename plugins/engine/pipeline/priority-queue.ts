/**
 * @module Haystack's `FIFOPriorityQueue`: a binary heap where a lower number comes out first and
 * equal priorities come out in the order they were pushed. The run loop fills one per step with
 * the components in name order, so among equal priorities the first name wins, as in Haystack.
 */

type Entry<T> = readonly [priority: number, order: number, item: T];

const before = <T>(a: Entry<T>, b: Entry<T>) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

export class FIFOPriorityQueue<T> {
  private readonly heap: Entry<T>[] = [];
  private counter = 0;

  /** How many items are queued (Python's `len`; the queue is "truthy" when this is above 0). */
  get length(): number {
    return this.heap.length;
  }

  push(item: T, priority: number): void {
    const heap = this.heap;
    heap.push([priority, this.counter++, item]);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  /** Removes and returns `[priority, item]` of the first item; throws a RangeError (Python's IndexError) when empty. */
  pop(): [number, T] {
    if (this.heap.length === 0) throw new RangeError("pop from empty queue");
    return this.take();
  }

  /** `[priority, item]` of the first item, left in the queue; throws a RangeError when empty. */
  peek(): [number, T] {
    const top = this.heap[0];
    if (!top) throw new RangeError("peek at empty queue");
    return [top[0], top[2]];
  }

  /** Like pop, but null when empty. */
  get(): [number, T] | null {
    return this.heap.length === 0 ? null : this.take();
  }

  private take(): [number, T] {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let first = i;
        if (left < heap.length && before(heap[left]!, heap[first]!)) first = left;
        if (right < heap.length && before(heap[right]!, heap[first]!)) first = right;
        if (first === i) break;
        [heap[i], heap[first]] = [heap[first]!, heap[i]!];
        i = first;
      }
    }
    return [top[0], top[2]];
  }
}
