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

own("stays bounded over many writes (a ring of at most the cap)", async () => {
  const index = new MemoryExecutionIndex({ maxRecords: 50, retentionMs: 60_000 });
  let last = record();
  for (let i = 0; i < 5000; i++) await index.recordStart((last = record()));
  const page = await index.list({ limit: 100 });
  assert.is(page.executions.length, 50);
  assert.is(page.executions[0]!.id, last.id);
  const slots = (index as unknown as { columns: { capacity: number } }).columns.capacity;
  assert.ok(slots <= 50, `ring of ${slots} slots`);
});

own("every field reads back as written, packed or not", async () => {
  const index = new MemoryExecutionIndex({ maxRecords: 10, retentionMs: 60_000 });
  const packed = record({ trace_id: "0af7651916cd43dd8448eb211c80319c", request_id: "9f0c2b1e-4a5d-4c3b-8e2f-0123456789ab", started_at: "2026-11-27T05:00:00.123Z" });
  const unpacked = record({ id: "host-id-1", trace_id: "T1", request_id: "Req-From-A-Proxy", started_at: "2026-11-27T05:00:00Z", error: "boom", transport: "cli", method: "runChatCompletion" });
  await index.recordStart(packed);
  await index.recordStart(unpacked);
  assert.equal(await index.get(packed.id), packed);
  assert.equal(await index.get(unpacked.id), unpacked);
  const done = { ...packed, status: "succeeded" as const, ended_at: "2026-11-27T05:00:01.000Z", duration_ms: 877.25 };
  await index.recordFinish(done);
  assert.equal(await index.get(packed.id), done);
  assert.equal((await index.list({ limit: 10, transport: "cli" })).executions, [unpacked]);
  assert.equal((await index.list({ limit: 10, pipeline: "never-recorded" })).executions, []);
});

own("an older record inserted into a full ring keeps the newest and drops the oldest", async () => {
  const index = new MemoryExecutionIndex({ maxRecords: 3, retentionMs: 60_000 });
  // Ids made now sort in the order they are made.
  const [oldest, a, b, c, d] = Array.from({ length: 5 }, () => record());
  for (const r of [a, b, d]) await index.recordStart(r!);
  await index.recordStart(c!);
  assert.equal((await index.list({ limit: 10 })).executions.map((r) => r.id), [d!.id, c!.id, b!.id]);
  await index.recordStart(oldest!); // older than all: not kept
  assert.equal((await index.list({ limit: 10 })).executions.map((r) => r.id), [d!.id, c!.id, b!.id]);
});

own.run();
