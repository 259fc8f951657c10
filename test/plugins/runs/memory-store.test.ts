import { suite } from "uvu";
import * as assert from "uvu/assert";
import { MemoryRunStore } from "svc/runs";
import { runStoreContract, OPTIONS } from "./store-contract.js";

const contract = suite("memory run store: contract");
runStoreContract(contract, async (options) => new MemoryRunStore({ ...options, maxRuns: 1000 }));
contract.run();

const own = suite("memory run store");

own("keeps at most maxRuns runs, dropping the oldest", async () => {
  const store = new MemoryRunStore({ ...OPTIONS, maxRuns: 3 });
  try {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await store.create({ pipeline: "p", kind: "rest" })).id);
    assert.equal((await store.list({ limit: 10 })).runs.map((r) => r.id), ids.slice(2).reverse());
    assert.is(await store.get(ids[0]!), undefined);
  } finally {
    await store.close();
  }
});

own("ids made in the same millisecond still sort in creation order (pages stay exact)", async () => {
  const store = new MemoryRunStore({ ...OPTIONS, maxRuns: 1000 });
  try {
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) ids.push((await store.create({ pipeline: "p", kind: "rest" })).id);
    assert.equal([...ids].sort(), ids);
    const seen: string[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await store.list({ limit: 7, before });
      seen.push(...page.runs.map((r) => r.id));
      if (!page.next) break;
      before = page.next;
    }
    assert.equal(seen, [...ids].reverse());
  } finally {
    await store.close();
  }
});

own.run();
