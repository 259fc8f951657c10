/**
 * @module The init parameters both pgvector retrievers share: the store, and the engine's shared
 * retriever entries (`filters`, `top_k`, `filter_policy`, as the in-memory retrievers have them).
 */
import * as v from "valibot";
import { retrieverEntries as sharedEntries } from "svc/engine";
import { PgvectorDocumentStore } from "./document-store.js";

export const retrieverEntries = {
  document_store: v.instance(PgvectorDocumentStore, "document_store must be an instance of PgvectorDocumentStore"),
  ...sharedEntries,
};
