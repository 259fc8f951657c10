import { suite } from "uvu";
import * as assert from "uvu/assert";
import {
  MemoryBackend,
  ValueError,
  closeInitializedStores,
  initializeOrGetInitializedStore,
} from "svc/object-store";
import { rejects } from "../../helpers/rejects.js";
import { storeContract } from "./store-contract.js";

const contract = suite("memory backend contract");
storeContract(contract, () => new MemoryBackend(), /^obj_\d{3,}$/);
contract.run();

const ids = suite("memory ids");
ids("count up per backend: obj_001, obj_002 …, obj_1000", () => {
  const b = new MemoryBackend();
  const first = Array.from({ length: 1000 }, () => b.generateId());
  assert.equal(first.slice(0, 3), ["obj_001", "obj_002", "obj_003"]);
  assert.is(first[998], "obj_999");
  assert.is(first[999], "obj_1000");
  assert.is(new MemoryBackend().generateId(), "obj_001");
});
ids.run();

const init = suite("initializeOrGetInitializedStore");
init.after(() => closeInitializedStores());
init("same arguments give the same store; other arguments another; the default TTL is 600", async () => {
  const a = await initializeOrGetInitializedStore();
  const b = await initializeOrGetInitializedStore({ backend: "memory", ttl: 600 });
  const c = await initializeOrGetInitializedStore({ ttl: 5 });
  assert.is(a, b);
  assert.is.not(a, c);
  assert.is(a.ttl, 600);
  assert.is(a.backend.kind, "memory");
  // Earlier argument sets stay cached (not only the last one).
  assert.is(await initializeOrGetInitializedStore(), a);
});
init("a redis backend without a URL and an unknown backend are value errors", async () => {
  const noUrl = await rejects(() => initializeOrGetInitializedStore({ backend: "redis" }), /'redisUrl' is not set/);
  assert.instance(noUrl, ValueError);
  const unknown = await rejects(() => initializeOrGetInitializedStore({ backend: "memcached" }), /Unknown object store backend 'memcached': use one of memory, redis/);
  assert.instance(unknown, ValueError);
});
init.run();
