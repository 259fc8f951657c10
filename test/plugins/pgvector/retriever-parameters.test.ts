/**
 * The retrievers' shared init parameters (svc/engine's `retrieverEntries`): the in-memory and the
 * pgvector retrievers take `filters`, `top_k` and `filter_policy` with the same defaults and refuse
 * the same bad values with the same messages. No database: a store connects only when used.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InMemoryBM25Retriever, InMemoryDocumentStore, InMemoryEmbeddingRetriever, Secret } from "svc/engine";
import { PgvectorDocumentStore, PgvectorEmbeddingRetriever, PgvectorKeywordRetriever } from "svc/pgvector";

const memory = new InMemoryDocumentStore({ shared: false });
const pgStore = new PgvectorDocumentStore({ connection_string: Secret.fromToken("postgresql://u:p@127.0.0.1:1/db") } as never);
const retrievers = [
  ["InMemoryBM25Retriever", (p: Record<string, unknown>) => new InMemoryBM25Retriever({ document_store: memory, ...p } as never)],
  ["InMemoryEmbeddingRetriever", (p: Record<string, unknown>) => new InMemoryEmbeddingRetriever({ document_store: memory, ...p } as never)],
  ["PgvectorKeywordRetriever", (p: Record<string, unknown>) => new PgvectorKeywordRetriever({ document_store: pgStore, ...p } as never)],
  ["PgvectorEmbeddingRetriever", (p: Record<string, unknown>) => new PgvectorEmbeddingRetriever({ document_store: pgStore, ...p } as never)],
] as const;

for (const [name, make] of retrievers) {
  test(`${name}: the shared filters / top_k / filter_policy defaults and checks`, () => {
    const defaults = make({}).initParameters as Record<string, unknown>;
    assert.equal([defaults.filters, defaults.top_k, defaults.filter_policy], [null, 10, "replace"]);
    const given = make({ filters: { field: "meta.a", operator: "==", value: 1 }, top_k: 3, filter_policy: "MERGE" }).initParameters as Record<string, unknown>;
    assert.equal([given.filters, given.top_k, given.filter_policy], [{ field: "meta.a", operator: "==", value: 1 }, 3, "merge"]);
    assert.throws(() => make({ top_k: 0 }), /top_k must be greater than 0. Currently, the top_k is 0/);
    assert.throws(() => make({ top_k: 2.5 }), /top_k must be an integer. Currently, the top_k is 2.5/);
    assert.throws(() => make({ filter_policy: "union" }), /filter_policy must be 'replace' or 'merge'/);
    assert.throws(() => make({ filters: "meta.a == 1" }), /filters/);
  });
}

test.run();
