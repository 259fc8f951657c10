/**
 * The document-store contract (svc/engine/testing, Haystack's shared store tests) against
 * PgvectorDocumentStore on a real Postgres with pgvector (PGlite over the wire protocol).
 */
import { suite } from "uvu";
import { Secret } from "svc/engine";
import { documentStoreContract } from "svc/engine/testing";
import { PgvectorDocumentStore } from "svc/pgvector";
import { startPglite, type TestPglite } from "../../helpers/pglite.js";

const contract = suite("contract: PgvectorDocumentStore");
let db: TestPglite;
let store: PgvectorDocumentStore;

contract.before(async () => {
  db = await startPglite();
  store = new PgvectorDocumentStore({ connection_string: Secret.fromToken(db.url), table_name: "contract_documents", recreate_table: true });
});
contract.after(async () => {
  await store?.close();
  await db?.stop();
});

// One table for every case, emptied after each (a table per case would spend the time on DDL).
documentStoreContract({
  test: contract,
  store: () => store,
  teardown: (s) => s.delete_all_documents(),
  skip: { "embeddings round-trip": "writes a 3-dimensional embedding; a pgvector table has one fixed dimension (768 here, Haystack's fixtures')" },
});
contract.run();
