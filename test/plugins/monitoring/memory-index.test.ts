import { suite } from "uvu";
import * as assert from "uvu/assert";
import { MemoryExecutionIndex } from "../../../plugins/monitoring/memory-index.js";
import { newExecutionId } from "../../../plugins/monitoring/execution-id.js";
import { executionIndexContract, record } from "./index-contract.js";

const contract = suite("memory execution index: contract");
executionIndexContract(contract, async (retention) => new MemoryExecutionIndex(retention));
contract.run();

const own = suite("memory execution index");

own("a record with an older id (from a host) still lands in order", async () => {
  const index = new MemoryExecutionIndex({ maxRecords: 10, retentionMs: 60_000 });
  const older = record({ id: newExecutionId(Date.now() - 10_000) });
  const newer = record();
  await index.recordStart(newer);
  await index.recordStart(older);
  assert.equal((await index.list({ limit: 10 })).executions.map((r) => r.id), [newer.id, older.id]);
});

own("a finish for a record already dropped by the cap does not bring it back", async () => {
  const index = new MemoryExecutionIndex({ maxRecords: 1, retentionMs: 60_000 });
  const first = record();
  await index.recordStart(first);
  await index.recordStart(record());
  await index.recordFinish({ ...first, status: "succeeded" });
  assert.is(await index.get(first.id), undefined);
  assert.is((await index.list({ limit: 10 })).executions.length, 1);
});

own("stays bounded over many writes (head offset compaction)", async () => {
  const index = new MemoryExecutionIndex({ maxRecords: 50, retentionMs: 60_000 });
  let last = record();
  for (let i = 0; i < 5000; i++) await index.recordStart((last = record()));
  const page = await index.list({ limit: 100 });
  assert.is(page.executions.length, 50);
  assert.is(page.executions[0]!.id, last.id);
  const kept = (index as unknown as { records: unknown[] }).records.length;
  assert.ok(kept < 50 + 2048, `array kept ${kept} records`);
});

own.run();
