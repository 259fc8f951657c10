/**
 * @module The contract every ExecutionIndex backend passes (DESIGN §3: protocols with reference
 * backends). `executionIndexContract` adds its tests to a uvu suite; the backend's test file makes
 * an index with the retention it is given and runs the suite.
 */
import * as assert from "uvu/assert";
import type { Test } from "uvu";
import type { ExecutionIndex, ExecutionRecord, ExecutionStatus } from "svc/plugin";
import { newExecutionId } from "../../../plugins/monitoring/execution-id.js";
import type { RetentionOptions } from "../../../plugins/monitoring/memory-index.js";

export type MakeIndex = (retention: RetentionOptions) => Promise<ExecutionIndex>;

const WIDE: RetentionOptions = { maxRecords: 1000, retentionMs: 3_600_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function record(fields: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return {
    id: newExecutionId(),
    pipeline: "p",
    transport: "rest",
    method: "runApi",
    status: "running",
    started_at: new Date().toISOString(),
    ended_at: null,
    duration_ms: null,
    error: null,
    trace_id: null,
    request_id: null,
    ...fields,
  };
}

export function executionIndexContract(suite: Test, make: MakeIndex): void {
  const opened: ExecutionIndex[] = [];
  const open = async (retention = WIDE) => {
    const index = await make(retention);
    opened.push(index);
    return index;
  };
  suite.after.each(async () => {
    for (const index of opened.splice(0)) await index.close?.();
  });

  suite("a started record reads back as written; finishing replaces it; unknown ids are undefined", async () => {
    const index = await open();
    const started = record({ trace_id: "t1", request_id: "r1" });
    await index.recordStart(started);
    assert.equal(await index.get(started.id), started);
    const done = { ...started, status: "failed" as const, ended_at: new Date().toISOString(), duration_ms: 12.5, error: "boom" };
    await index.recordFinish(done);
    assert.equal(await index.get(started.id), done);
    assert.is(await index.get(newExecutionId()), undefined);
  });

  suite("list is newest first and pages through every record exactly once", async () => {
    const index = await open();
    const all: ExecutionRecord[] = [];
    for (let i = 0; i < 7; i++) {
      const r = record({ pipeline: `p${i}` });
      all.push(r);
      await index.recordStart(r);
    }
    const first = await index.list({ limit: 100 });
    assert.equal(first.executions.map((r) => r.id), all.map((r) => r.id).reverse());
    assert.is(first.next, null);
    const seen: string[] = [];
    let before: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await index.list({ limit: 3, before });
      seen.push(...page.executions.map((r) => r.id));
      assert.ok(page.executions.length <= 3);
      if (page.next === null) break;
      assert.is(page.next, page.executions[page.executions.length - 1]!.id);
      before = page.next;
    }
    assert.equal(seen, all.map((r) => r.id).reverse());
  });

  suite("a full last page has no next; an exact fit is not reported as more", async () => {
    const index = await open();
    for (let i = 0; i < 4; i++) await index.recordStart(record());
    const page = await index.list({ limit: 4 });
    assert.is(page.executions.length, 4);
    assert.is(page.next, null);
    const empty = await index.list({ limit: 4, before: page.executions[3]!.id });
    assert.equal(empty, { executions: [], next: null });
  });

  suite("filters pipeline, status and transport combine, also across pages", async () => {
    const index = await open();
    const statuses: ExecutionStatus[] = ["running", "succeeded", "failed", "cancelled"];
    const made: ExecutionRecord[] = [];
    for (let i = 0; i < 24; i++) {
      const r = record({ pipeline: i % 2 ? "odd" : "even", transport: i % 3 ? "rest" : "openai" });
      await index.recordStart(r);
      const status = statuses[i % 4]!;
      const final = status === "running" ? r : { ...r, status, ended_at: new Date().toISOString(), duration_ms: 1 };
      if (status !== "running") await index.recordFinish(final);
      made.push(final);
    }
    const expect = (f: (r: ExecutionRecord) => boolean) => made.filter(f).map((r) => r.id).reverse();
    const ids = async (query: { pipeline?: string; status?: ExecutionStatus; transport?: string }) => {
      const out: string[] = [];
      let before: string | undefined;
      for (let pages = 0; pages < 30; pages++) {
        const page = await index.list({ ...query, limit: 2, before });
        for (const r of page.executions) {
          assert.ok(query.pipeline === undefined || r.pipeline === query.pipeline);
          out.push(r.id);
        }
        if (!page.next) break;
        before = page.next;
      }
      return out;
    };
    assert.equal(await ids({ pipeline: "odd" }), expect((r) => r.pipeline === "odd"));
    assert.equal(await ids({ status: "failed" }), expect((r) => r.status === "failed"));
    assert.equal(await ids({ transport: "openai", pipeline: "even" }), expect((r) => r.transport === "openai" && r.pipeline === "even"));
    assert.equal(await ids({ pipeline: "odd", status: "succeeded", transport: "rest" }), expect((r) => r.pipeline === "odd" && r.status === "succeeded" && r.transport === "rest"));
    assert.equal(await ids({ pipeline: "none" }), []);
  });

  suite("the record cap drops the oldest", async () => {
    const index = await open({ maxRecords: 5, retentionMs: 3_600_000 });
    const all: ExecutionRecord[] = [];
    for (let i = 0; i < 9; i++) {
      const r = record();
      all.push(r);
      await index.recordStart(r);
    }
    const page = await index.list({ limit: 100 });
    assert.equal(page.executions.map((r) => r.id), all.slice(-5).map((r) => r.id).reverse());
    assert.is(await index.get(all[0]!.id), undefined);
    assert.ok(await index.get(all[8]!.id));
  });

  suite("records expire after the retention period", async () => {
    const index = await open({ maxRecords: 100, retentionMs: 150 });
    const old = record();
    await index.recordStart(old);
    await sleep(400);
    const fresh = record();
    await index.recordStart(fresh);
    assert.is(await index.get(old.id), undefined);
    assert.equal((await index.list({ limit: 10 })).executions.map((r) => r.id), [fresh.id]);
  });
}
