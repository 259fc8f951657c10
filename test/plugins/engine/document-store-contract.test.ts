/**
 * The document-store contract (svc/engine/testing, Haystack's shared store tests) against the
 * in-memory store, shared and instance-local, through the public entries a third party uses; and
 * proof that the suite fails a store that breaks the protocol.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { InMemoryDocumentStore, Document, DuplicateDocumentError } from "svc/engine";
import { documentStoreContract, documentStoreContractCases } from "svc/engine/testing";

const local = suite("contract: InMemoryDocumentStore (shared: false)");
const localCount = documentStoreContract({ test: local, store: () => new InMemoryDocumentStore({ shared: false }) });
local.run();

let n = 0;
const shared = suite("contract: InMemoryDocumentStore (shared index)");
documentStoreContract({
  test: shared,
  store: () => new InMemoryDocumentStore({ index: `contract-${process.pid}-${n++}` }),
  teardown: (store) => store.delete_all_documents(),
});
shared.run();

const meta = suite("contract suite itself");
meta("registers every case twice (plain and *_async forms; async-only ones once), fewer when asked", () => {
  const asyncOnly = documentStoreContractCases.filter((c) => c.only === "async").length;
  assert.ok(asyncOnly > 0);
  assert.is(localCount, documentStoreContractCases.length * 2 - asyncOnly);
  const names: string[] = [];
  documentStoreContract({ test: (name) => names.push(name), store: () => new InMemoryDocumentStore({ shared: false }), extended: false, asyncForms: false, skip: { test_no_filters: "reason" } });
  assert.is(names.length, documentStoreContractCases.filter((c) => c.group === "base" && c.only !== "async").length - 1);
  assert.ok(!names.some((x) => x.includes("async") || x.includes("test_no_filters")));
});

meta("a case run through the *_async forms is named after Haystack's async twin", () => {
  const names: string[] = [];
  documentStoreContract({ test: (name) => names.push(name), store: () => new InMemoryDocumentStore({ shared: false }) });
  for (const expected of [
    "CountDocumentsAsyncTest.test_count_empty_async",
    "CountDocumentsByFilterAsyncTest.test_count_documents_by_filter_async_simple",
    "CountUniqueMetadataByFilterAsyncTest.test_count_unique_metadata_by_filter_async_with_filter",
    "UpdateByFilterAsyncTest.test_update_by_filter_async",
    "FilterDocumentsAsyncTest.test_filter_compound_async",
    "FilterDocumentsTest.test_comparison_in (async forms)",
    "UpdateByFilterTest.test_update_by_filter_no_matches (async forms)",
  ])
    assert.ok(names.includes(expected), expected);
});

/** Runs the named cases against a store; answers the failures' messages by case name. */
async function failures(make: () => object, only: string[]): Promise<Record<string, string>> {
  const tests: Array<[string, () => Promise<void>]> = [];
  documentStoreContract({ test: (name, fn) => tests.push([name, fn]), store: make, asyncForms: false });
  const out: Record<string, string> = {};
  for (const [name, fn] of tests.filter(([name]) => only.some((o) => name.includes(o)))) {
    try {
      await fn();
    } catch (e) {
      out[name] = (e as Error).message;
    }
  }
  return out;
}

meta("fails a store whose NONE policy overwrites, whose filters ignore ISO dates, or that lacks a method", async () => {
  class Overwriting extends InMemoryDocumentStore {
    override write_documents(documents: Document[], policy: string = "none") {
      return super.write_documents(documents, policy.toLowerCase() === "none" ? "overwrite" : policy);
    }
  }
  const overwrite = await failures(() => new Overwriting({ shared: false }), ["test_write_documents (NONE", "test_write_documents_duplicate_fail"]);
  assert.equal(Object.keys(overwrite), ["WriteDocumentsTest.test_write_documents (NONE means FAIL)"]);
  assert.match(overwrite["WriteDocumentsTest.test_write_documents (NONE means FAIL)"]!, /DuplicateDocumentError/);

  class NoDates extends InMemoryDocumentStore {
    override filter_documents(filters?: Record<string, any> | null) {
      return filters?.field === "meta.date" ? [] : super.filter_documents(filters);
    }
  }
  // ">", ">=" and "<=" select documents; "<" selects none (nothing is older than the oldest date).
  const dates = await failures(() => new NoDates({ shared: false }), ["_with_iso_date"]);
  assert.equal(Object.keys(dates).sort(), ["greater_than", "greater_than_equal", "less_than_equal"].map((op) => `FilterDocumentsTest.test_comparison_${op}_with_iso_date`).sort());

  const partial = { count_documents: () => 0, filter_documents: () => [], write_documents: () => 0, delete_documents: () => undefined };
  const missing = await failures(() => partial, ["DeleteAllTest.test_delete_all_documents_empty_store"]);
  assert.match(Object.values(missing)[0]!, /no method delete_all_documents/);
});

meta("the duplicate error is the engine's DuplicateDocumentError", () => {
  const store = new InMemoryDocumentStore({ shared: false });
  store.write_documents([new Document({ content: "x" })]);
  try {
    store.write_documents([new Document({ content: "x" })]);
    assert.unreachable();
  } catch (e) {
    assert.instance(e, DuplicateDocumentError);
  }
});
meta.run();
