/**
 * @module svc/engine/testing: the document-store contract suite, for svc's stores and third-party
 * ones alike (see docs/document-stores.md). It imports nothing but svc/engine and Node.
 */
export {
  documentStoreContract,
  documentStoreContractCases,
  type ContractCase,
  type ContractContext,
  type DocumentStoreContractOptions,
  type StoreUnderTest,
  type TestFunction,
} from "./contract.js";
export { assertDocumentsEqual, rejectsNamed, rejects } from "./assertions.js";
export { createFilterableDocs, seededEmbedding, TEST_EMBEDDING_1, TEST_EMBEDDING_2 } from "./fixtures.js";
