/**
 * @module The live requests and the bodies being read: a doubly linked list through the items
 * themselves, with no hashing. A `Set` that swings between empty and a few entries on every
 * request makes V8 shrink its table each time it empties, and rehash it as deleted slots fill up,
 * each through a runtime call: over HTTP those two sets read as about 1 µs per request each.
 */

/** The links an item of a `LiveList` carries (unset while it is in no list). */
export interface LiveLinks<T> {
  livePrev: T | undefined;
  liveNext: T | undefined;
  /** Whether the item is in a list: `delete` is a no-op otherwise. */
  listed: boolean;
}

export class LiveList<T extends LiveLinks<T>> implements Iterable<T> {
  private head: T | undefined = undefined;
  size = 0;

  add(item: T): void {
    if (item.listed) return;
    item.listed = true;
    item.livePrev = undefined;
    item.liveNext = this.head;
    if (this.head) this.head.livePrev = item;
    this.head = item;
    this.size++;
  }

  /** Returns whether `item` was in the list. */
  delete(item: T): boolean {
    if (!item.listed) return false;
    item.listed = false;
    const { livePrev, liveNext } = item;
    if (livePrev) livePrev.liveNext = liveNext;
    else this.head = liveNext;
    if (liveNext) liveNext.livePrev = livePrev;
    // `liveNext` stays: an iteration standing on this item goes on from it.
    item.livePrev = undefined;
    this.size--;
    return true;
  }

  /** Newest first; items deleted during the walk (the current one included) are skipped. */
  *[Symbol.iterator](): Iterator<T> {
    for (let item = this.head; item; item = item.liveNext) if (item.listed) yield item;
  }
}
