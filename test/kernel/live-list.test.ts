import { test } from "uvu";
import * as assert from "uvu/assert";
import { LiveList, type LiveLinks } from "../../kernel/http/live-list.js";

class Item implements LiveLinks<Item> {
  livePrev: Item | undefined = undefined;
  liveNext: Item | undefined = undefined;
  listed = false;
  constructor(readonly n: number) {}
}

const ns = (list: LiveList<Item>) => [...list].map((i) => i.n);

test("a live list adds, deletes from any place and walks newest first, keeping its size", () => {
  const list = new LiveList<Item>();
  const items = [1, 2, 3, 4].map((n) => new Item(n));
  for (const item of items) list.add(item);
  assert.equal(ns(list), [4, 3, 2, 1]);
  assert.is(list.size, 4);
  assert.ok(list.delete(items[2]!)); // middle
  assert.ok(list.delete(items[3]!)); // head
  assert.ok(list.delete(items[0]!)); // tail
  assert.equal(ns(list), [2]);
  assert.is(list.size, 1);
  assert.ok(list.delete(items[1]!));
  assert.equal(ns(list), []);
  assert.is(list.size, 0);
});

test("deleting an item twice, or one never added, changes nothing", () => {
  const list = new LiveList<Item>();
  const a = new Item(1);
  const b = new Item(2);
  list.add(a);
  list.add(a);
  assert.is(list.size, 1);
  assert.not.ok(list.delete(b));
  assert.ok(list.delete(a));
  assert.not.ok(list.delete(a));
  assert.is(list.size, 0);
  assert.equal(ns(list), []);
});

test("a walk goes on past items deleted during it, the current one included, and skips deleted ones", () => {
  const list = new LiveList<Item>();
  const items = [1, 2, 3, 4, 5].map((n) => new Item(n));
  for (const item of items) list.add(item);
  const seen: number[] = [];
  for (const item of list) {
    seen.push(item.n);
    list.delete(item); // the current one
    if (item.n === 4) list.delete(items[2]!); // the next one (3)
  }
  assert.equal(seen, [5, 4, 2, 1]);
  assert.is(list.size, 0);
});

test.run();
