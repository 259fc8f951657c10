/**
 * @module The contract every object-store backend passes (DESIGN: one shared suite per protocol):
 * JSON round trips, fresh ids, delete, TTL expiry, no expiry with TTL 0.
 */
import type { Test } from "uvu";
import * as assert from "uvu/assert";
import { ObjectStore, type ObjectStoreBackend } from "svc/object-store";
import { sleep } from "../../helpers/http.js";

export function storeContract(suite: Test, backend: () => ObjectStoreBackend, idPattern: RegExp): void {
  suite("values round-trip as JSON data; ids are fresh and follow the backend's form", async () => {
    const store = new ObjectStore(backend());
    const value = { name: "p", n: 1.5, ok: true, none: null, list: [1, "two", { three: 3 }], at: new Date("2026-01-02T03:04:05Z"), tags: new Set(["a", "b"]) };
    const id = await store.put(value);
    const other = await store.put("text");
    assert.match(id, idPattern);
    assert.is.not(id, other);
    assert.equal(await store.get(id), { ...value, at: "2026-01-02T03:04:05.000Z", tags: ["a", "b"] });
    assert.is(await store.get(other), "text");
    assert.is(await store.get("obj_missing"), undefined);
    const nil = await store.put(null);
    assert.is(await store.get(nil), null);
  });

  suite("delete removes an object and says whether it existed", async () => {
    const store = new ObjectStore(backend());
    const id = await store.put([1, 2]);
    assert.is(await store.delete(id), true);
    assert.is(await store.get(id), undefined);
    assert.is(await store.delete(id), false);
  });

  suite("objects expire after the TTL; TTL 0 keeps them", async () => {
    const b = backend();
    const short = new ObjectStore(b, 1);
    const forever = new ObjectStore(b, 0);
    const gone = await short.put({ a: 1 });
    const kept = await forever.put({ b: 2 });
    assert.equal(await short.get(gone), { a: 1 });
    await sleep(1200);
    assert.is(await short.get(gone), undefined);
    assert.equal(await forever.get(kept), { b: 2 });
  });

  suite("values JSON cannot hold are refused", async () => {
    const store = new ObjectStore(backend());
    let error: unknown;
    try {
      await store.put({ f: () => 1 });
    } catch (e) {
      error = e;
    }
    assert.match(String(error), /Cannot store a function/);
  });
}
