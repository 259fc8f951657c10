/**
 * @module InMemoryDocumentStore, a port of haystack/document_stores/in_memory/document_store.py.
 * Storage is global per `index` name: two stores with one index share documents and statistics,
 * as an indexing and a query pipeline do. BM25 statistics are kept at write time (see bm25.ts),
 * so a query over thousands of documents only scores. Errors, duplicate policies, filters and
 * results (scored copies; non-positive scores dropped except unscaled BM25Okapi) follow Haystack,
 * and so do embedding retrieval's similarity scores (dot product or cosine, scaled or not).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { DocumentStoreError, DuplicateDocumentError, DuplicatePolicy, parseDuplicatePolicy } from "./duplicate-policy.js";
import { BM25_ALGORITHMS, BM25_SCALING_FACTOR, Bm25Index, expit, topIndexes, type Bm25Algorithm } from "./bm25.js";
import { Document } from "./dataclasses/document.js";
import { addAsyncForms, type AsyncForms, type ExtendedDocumentStore, type MetadataFieldMinMax, type MetadataFieldsInfo } from "./document-store-protocol.js";
import { documentMatchesFilter, type Filters } from "./filters.js";
import { checked, copyDocument, DEFAULT_TOKENIZATION_REGEX, dot, DOT_PRODUCT_SCALING_FACTOR, hasFilters, makeTokenizer, requireFilters, unit } from "./in-memory-helpers.js";
import { countUniqueMetadata, metadataFieldMinMax, metadataFieldsInfo, metadataFieldUniqueValues } from "./metadata-queries.js";
import { randomUuid, type Logger } from "svc/plugin";

export { expit, type Bm25Algorithm };
export { DEFAULT_TOKENIZATION_REGEX, DOT_PRODUCT_SCALING_FACTOR } from "./in-memory-helpers.js";

export { DuplicatePolicy, parseDuplicatePolicy, DocumentStoreError, DuplicateDocumentError } from "./duplicate-policy.js";

/** A stored document with its BM25 slot and distinct tokens. */
interface Entry {
  doc: Document;
  slot: number;
  terms: string[];
}

/** One index's state, shared by every store instance with that index name. */
interface IndexStorage {
  entries: Map<string, Entry>;
  bm25: Bm25Index;
}

const STORAGES = new Map<string, IndexStorage>();

export interface InMemoryDocumentStoreInit {
  bm25_tokenization_regex?: string;
  bm25_algorithm?: Bm25Algorithm;
  bm25_parameters?: Record<string, number> | null;
  embedding_similarity_function?: "dot_product" | "cosine";
  index?: string | null;
  /** Share documents with every store of the same index in this process (default), or keep them in this instance. */
  shared?: boolean;
  return_embedding?: boolean;
  /** A naive and an aware date never match in filters (default false: the naive one takes the other's zone). */
  strict_datetime_comparison?: boolean;
}

const newStorage = (): IndexStorage => ({ entries: new Map(), bm25: new Bm25Index() });

// The `*_async` forms, defined by addAsyncForms below.
export interface InMemoryDocumentStore extends AsyncForms<ExtendedDocumentStore> {}

export class InMemoryDocumentStore implements ExtendedDocumentStore {
  static readonly type = "haystack.document_stores.in_memory.document_store.InMemoryDocumentStore";
  static readonly aliases = ["InMemoryDocumentStore"];

  readonly bm25_tokenization_regex: string;
  readonly bm25_algorithm: Bm25Algorithm;
  readonly bm25_parameters: Record<string, number>;
  readonly embedding_similarity_function: "dot_product" | "cosine";
  readonly index: string;
  readonly shared: boolean;
  readonly return_embedding: boolean;
  readonly strict_datetime_comparison: boolean;
  private readonly tokenizer: (text: string) => string[];
  private local?: IndexStorage;
  /** Where Haystack's store logs go (a SKIP-ped duplicate, an empty retrieval); none by default. */
  logger?: Pick<Logger, "info" | "warn">;

  constructor(init: InMemoryDocumentStoreInit = {}) {
    this.bm25_tokenization_regex = init.bm25_tokenization_regex ?? DEFAULT_TOKENIZATION_REGEX;
    this.bm25_algorithm = init.bm25_algorithm ?? "BM25L";
    if (!BM25_ALGORITHMS.includes(this.bm25_algorithm)) throw new Error(`BM25 algorithm '${this.bm25_algorithm}' is not supported.`);
    this.bm25_parameters = { ...(init.bm25_parameters ?? {}) };
    this.embedding_similarity_function = init.embedding_similarity_function ?? "dot_product";
    if (!["dot_product", "cosine"].includes(this.embedding_similarity_function)) throw new Error(`Unknown embedding_similarity_function '${this.embedding_similarity_function}'. Use dot_product or cosine.`);
    this.index = init.index ?? randomUuid();
    this.shared = init.shared ?? true;
    this.return_embedding = init.return_embedding ?? true;
    this.strict_datetime_comparison = init.strict_datetime_comparison ?? false;
    this.tokenizer = makeTokenizer(this.bm25_tokenization_regex);
    if (!this.shared) this.local = newStorage();
    else if (!STORAGES.has(this.index)) STORAGES.set(this.index, newStorage());
  }

  static fromDict(initParameters: Record<string, unknown> = {}): InMemoryDocumentStore {
    return new InMemoryDocumentStore(initParameters as InMemoryDocumentStoreInit);
  }

  toDict(): { type: string; init_parameters: Record<string, unknown> } {
    return {
      type: InMemoryDocumentStore.type,
      init_parameters: {
        bm25_tokenization_regex: this.bm25_tokenization_regex,
        bm25_algorithm: this.bm25_algorithm,
        bm25_parameters: { ...this.bm25_parameters },
        embedding_similarity_function: this.embedding_similarity_function,
        index: this.index,
        shared: this.shared,
        return_embedding: this.return_embedding,
        strict_datetime_comparison: this.strict_datetime_comparison,
      },
    };
  }

  private get data(): IndexStorage {
    return this.local ?? STORAGES.get(this.index)!;
  }

  /** Haystack's save_to_disk: `to_dict()` plus `documents` (each `to_dict`), as JSON. */
  save_to_disk(path: string): void {
    const data = { ...this.toDict(), documents: Array.from(this.data.entries.values(), (e) => e.doc.toDict()) };
    writeFileSync(path, JSON.stringify(data));
  }

  /** Haystack's load_from_disk: a store from `save_to_disk`'s file, its documents written with OVERWRITE. */
  static load_from_disk(path: string): InMemoryDocumentStore {
    if (!existsSync(path)) throw new Error(`File ${path} not found.`);
    let data: { init_parameters?: Record<string, unknown>; documents?: unknown };
    try {
      data = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      throw new DocumentStoreError(`Error loading InMemoryDocumentStore from disk. error: ${(e as Error).message}`);
    }
    if (!Array.isArray(data.documents)) throw new DocumentStoreError("Error loading InMemoryDocumentStore from disk. error: 'documents' is missing.");
    const store = InMemoryDocumentStore.fromDict(data.init_parameters ?? {});
    store.write_documents(data.documents.map((d) => Document.fromDict(d as Record<string, unknown>)), DuplicatePolicy.OVERWRITE);
    return store;
  }

  /** The BM25 tokens of a text (Haystack's `_tokenize_bm25`: lower-cased, then the regex's matches). */
  tokenize_bm25(text: string): string[] {
    return this.tokenizer(text);
  }

  /** The mean BM25 token count of the stored documents (Haystack's `_avg_doc_len`). */
  get avg_doc_len(): number {
    return this.data.bm25.averageDocumentLength;
  }

  /** The documents of this index by id, in write order (a snapshot). */
  get storage(): ReadonlyMap<string, Document> {
    return new Map(Array.from(this.data.entries, ([id, e]) => [id, e.doc]));
  }

  count_documents(): number {
    return this.data.entries.size;
  }

  filter_documents(filters?: Filters | null): Document[] {
    const selected = this.matching(filters);
    return this.return_embedding ? selected : selected.map((doc) => copyDocument(doc, doc.score, false));
  }

  /** The stored documents matching the filters (all without filters), in write order. */
  private matching(filters: Filters | null | undefined): Document[] {
    const docs = Array.from(this.data.entries.values(), (e) => e.doc);
    if (!hasFilters(filters)) return docs;
    const valid = checked(filters, true);
    const options = { strictDatetimeComparison: this.strict_datetime_comparison };
    return docs.filter((doc) => documentMatchesFilter(valid, doc, options));
  }

  delete_all_documents(): void {
    if (this.local) this.local = newStorage();
    else STORAGES.set(this.index, newStorage());
  }

  delete_by_filter(filters: Filters): number {
    const ids = this.matching(requireFilters(filters)).map((d) => d.id);
    this.delete_documents(ids);
    return ids.length;
  }

  /** Merges `meta` into each matching document's meta (the stored document is replaced, not mutated: returned copies stay as they were). */
  update_by_filter(filters: Filters, meta: Record<string, unknown>): number {
    const matching = this.matching(requireFilters(filters));
    const { entries } = this.data;
    for (const doc of matching) {
      const entry = entries.get(doc.id)!;
      entry.doc = new Document({ ...doc, meta: { ...doc.meta, ...meta } });
    }
    return matching.length;
  }

  count_documents_by_filter(filters: Filters): number {
    return this.matching(filters).length;
  }

  count_unique_metadata_by_filter(filters: Filters, metadata_fields: string[]): Record<string, number> {
    return countUniqueMetadata(this.matching(filters), metadata_fields);
  }

  get_metadata_fields_info(): MetadataFieldsInfo {
    return metadataFieldsInfo(this.matching(null));
  }

  get_metadata_field_min_max(metadata_field: string): MetadataFieldMinMax {
    return metadataFieldMinMax(this.matching(null), metadata_field);
  }

  get_metadata_field_unique_values(metadata_field: string, search_term: string | null = null, from_ = 0, size = 10, filters: Filters | null = null): [unknown[], number] {
    return metadataFieldUniqueValues(this.matching(filters), metadata_field, search_term, from_, size);
  }

  /** Writes documents; NONE means FAIL. Returns how many were written (SKIP does not count skipped ones). */
  write_documents(documents: Document[], policy: DuplicatePolicy | string = DuplicatePolicy.NONE): number {
    if (!Array.isArray(documents) || documents.some((d) => !(d instanceof Document))) throw new Error("Please provide a list of Documents.");
    let mode = parseDuplicatePolicy(policy);
    if (mode === DuplicatePolicy.NONE) mode = DuplicatePolicy.FAIL;
    const { entries, bm25 } = this.data;
    let written = documents.length;
    for (const doc of documents) {
      if (mode !== DuplicatePolicy.OVERWRITE && entries.has(doc.id)) {
        if (mode === DuplicatePolicy.FAIL) throw new DuplicateDocumentError(`ID '${doc.id}' already exists.`);
        this.logger?.warn(`ID '${doc.id}' already exists`);
        written -= 1;
        continue;
      }
      // Statistics are incremental: remove the old version first so they stay exact.
      if (entries.has(doc.id)) this.delete_documents([doc.id]);
      const { slot, terms } = bm25.add(doc.content !== null ? this.tokenizer(doc.content) : []);
      entries.set(doc.id, { doc, slot, terms });
    }
    return written;
  }

  delete_documents(documentIds: string[]): void {
    const { entries, bm25 } = this.data;
    for (const id of documentIds) {
      const entry = entries.get(id);
      if (!entry) continue;
      entries.delete(id);
      bm25.remove(entry.slot, entry.terms);
    }
  }

  /** The top_k documents by BM25 score, as scored copies. */
  bm25_retrieval(query: string, filters?: Filters | null, top_k = 10, scale_score = false): Document[] {
    if (!query) throw new Error("Query should be a non-empty string");
    const userFilters = hasFilters(filters) ? checked(filters, false) : null;
    const options = { strictDatetimeComparison: this.strict_datetime_comparison };
    const candidates: Entry[] = [];
    for (const entry of this.data.entries.values()) {
      if (entry.doc.content === null) continue;
      if (userFilters && !documentMatchesFilter(userFilters, entry.doc, options)) continue;
      candidates.push(entry);
    }
    if (candidates.length === 0) {
      this.logger?.info("No documents found for BM25 retrieval. Returning empty list.");
      return [];
    }
    const slots = Int32Array.from(candidates, (c) => c.slot);
    const scores = this.data.bm25.scores(this.tokenizer(query), slots, this.bm25_algorithm, this.bm25_parameters);
    // BM25Okapi's negative scores are meaningful unless scaled (haystack#6889).
    const negativesAreValid = this.bm25_algorithm === "BM25Okapi" && !scale_score;
    const out: Document[] = [];
    for (const i of topIndexes(scores, top_k)) {
      const score = scale_score ? expit(scores[i]! / BM25_SCALING_FACTOR) : scores[i]!;
      if (!negativesAreValid && score <= 0) continue;
      out.push(copyDocument(candidates[i]!.doc, score, this.return_embedding));
    }
    return out;
  }

  /**
   * The top_k documents most similar to the query embedding, as scored copies (Haystack's
   * formulas: cosine is the dot product of unit vectors, a zero vector left as is; scaled scores
   * are expit(dot / 100) or (cosine + 1) / 2). Documents without an embedding are skipped.
   */
  embedding_retrieval(query_embedding: number[], filters?: Filters | null, top_k = 10, scale_score = false, return_embedding: boolean | null = false): Document[] {
    if (!Array.isArray(query_embedding) || query_embedding.length === 0 || typeof query_embedding[0] !== "number") {
      throw new Error("query_embedding should be a non-empty list of floats.");
    }
    const selected = this.matching(filters);
    const withEmbeddings = selected.filter((doc) => doc.embedding !== null);
    if (withEmbeddings.length === 0) {
      this.logger?.warn("No Documents found with embeddings. Returning empty list. To generate embeddings, use a DocumentEmbedder.");
      return [];
    }
    if (withEmbeddings.length < selected.length) this.logger?.info("Skipping some Documents that don't have an embedding. To generate embeddings, use a DocumentEmbedder.");
    const cosine = this.embedding_similarity_function === "cosine";
    const query = cosine ? unit(query_embedding) : query_embedding;
    const size = withEmbeddings[0]!.embedding!.length;
    if (withEmbeddings.some((doc) => doc.embedding!.length !== size)) {
      throw new DocumentStoreError("The embedding size of all Documents should be the same. Please make sure that the Documents have been embedded with the same model.");
    }
    const scored = withEmbeddings.map((doc) => {
      const embedding = doc.embedding!;
      if (embedding.length !== query.length) {
        throw new DocumentStoreError(
          "The embedding size of the query should be the same as the embedding size of the Documents. Please make sure that the query has been embedded with the same model as the Documents.",
        );
      }
      let score = dot(query, cosine ? unit(embedding) : embedding);
      if (scale_score) score = cosine ? (score + 1) / 2 : expit(score / DOT_PRODUCT_SCALING_FACTOR);
      return { doc, score };
    });
    // A stable sort, highest first: ties keep write order, as Python's sorted(reverse=True) does.
    scored.sort((a, b) => b.score - a.score);
    const withEmbedding = return_embedding ?? this.return_embedding;
    return scored.slice(0, Math.max(0, top_k)).map(({ doc, score }) => copyDocument(doc, score, withEmbedding));
  }
}

export interface InMemoryDocumentStore {
  bm25_retrieval_async(...args: Parameters<InMemoryDocumentStore["bm25_retrieval"]>): Promise<Document[]>;
  embedding_retrieval_async(...args: Parameters<InMemoryDocumentStore["embedding_retrieval"]>): Promise<Document[]>;
}
for (const name of ["bm25_retrieval", "embedding_retrieval"] as const) {
  Object.defineProperty(InMemoryDocumentStore.prototype, `${name}_async`, {
    configurable: true,
    writable: true,
    value: async function (this: InMemoryDocumentStore, ...args: never[]) {
      return (this[name] as (...a: never[]) => Document[])(...args);
    },
  });
}

addAsyncForms(InMemoryDocumentStore);
