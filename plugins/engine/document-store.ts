/**
 * @module InMemoryDocumentStore, a port of haystack/document_stores/in_memory/document_store.py.
 * Storage is global per `index` name: two stores with one index share documents and statistics,
 * as an indexing and a query pipeline do. BM25 statistics are kept at write time (see bm25.ts),
 * so a query over thousands of documents only scores. Errors, duplicate policies, filters and
 * results (scored copies; non-positive scores dropped except unscaled BM25Okapi) follow Haystack,
 * and so do embedding retrieval's similarity scores (dot product or cosine, scaled or not).
 */
import { randomUUID } from "node:crypto";
import { BM25_ALGORITHMS, BM25_SCALING_FACTOR, Bm25Index, expit, topIndexes, type Bm25Algorithm } from "./bm25.js";
import { pythonRegExp } from "./components/python-regex.js";
import { Document } from "./dataclasses/document.js";
import { documentMatchesFilter, INVALID_FILTER_SYNTAX, type Filters } from "./filters.js";

export { expit, type Bm25Algorithm };
export const DEFAULT_TOKENIZATION_REGEX = String.raw`(?u)\b\w\w+\b`;

export const DuplicatePolicy = { NONE: "none", SKIP: "skip", OVERWRITE: "overwrite", FAIL: "fail" } as const;
export type DuplicatePolicy = (typeof DuplicatePolicy)[keyof typeof DuplicatePolicy];

/** Accepts a policy's name ("SKIP", as Haystack serializes it) or value ("skip"). */
export function parseDuplicatePolicy(value: unknown): DuplicatePolicy {
  const policy = String(value ?? "none").toLowerCase();
  if (!Object.values(DuplicatePolicy).includes(policy as DuplicatePolicy)) throw new Error(`Unknown DuplicatePolicy '${String(value)}'. Use one of NONE, SKIP, OVERWRITE, FAIL.`);
  return policy as DuplicatePolicy;
}

export class DocumentStoreError extends Error {
  override name = "DocumentStoreError";
}
export class DuplicateDocumentError extends DocumentStoreError {
  override name = "DuplicateDocumentError";
}

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
  return_embedding?: boolean;
}

export class InMemoryDocumentStore {
  static readonly type = "haystack.document_stores.in_memory.document_store.InMemoryDocumentStore";
  static readonly aliases = ["InMemoryDocumentStore"];

  readonly bm25_tokenization_regex: string;
  readonly bm25_algorithm: Bm25Algorithm;
  readonly bm25_parameters: Record<string, number>;
  readonly embedding_similarity_function: "dot_product" | "cosine";
  readonly index: string;
  readonly return_embedding: boolean;
  private readonly tokenizer: (text: string) => string[];

  constructor(init: InMemoryDocumentStoreInit = {}) {
    this.bm25_tokenization_regex = init.bm25_tokenization_regex ?? DEFAULT_TOKENIZATION_REGEX;
    this.bm25_algorithm = init.bm25_algorithm ?? "BM25L";
    if (!BM25_ALGORITHMS.includes(this.bm25_algorithm)) throw new Error(`BM25 algorithm '${this.bm25_algorithm}' is not supported.`);
    this.bm25_parameters = { ...(init.bm25_parameters ?? {}) };
    this.embedding_similarity_function = init.embedding_similarity_function ?? "dot_product";
    if (!["dot_product", "cosine"].includes(this.embedding_similarity_function)) throw new Error(`Unknown embedding_similarity_function '${this.embedding_similarity_function}'. Use dot_product or cosine.`);
    this.index = init.index ?? randomUUID();
    this.return_embedding = init.return_embedding ?? true;
    this.tokenizer = makeTokenizer(this.bm25_tokenization_regex);
    if (!STORAGES.has(this.index)) STORAGES.set(this.index, { entries: new Map(), bm25: new Bm25Index() });
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
        return_embedding: this.return_embedding,
      },
    };
  }

  private get shared(): IndexStorage {
    return STORAGES.get(this.index)!;
  }

  /** The documents of this index by id, in write order (a snapshot). */
  get storage(): ReadonlyMap<string, Document> {
    return new Map(Array.from(this.shared.entries, ([id, e]) => [id, e.doc]));
  }

  count_documents(): number {
    return this.shared.entries.size;
  }

  filter_documents(filters?: Filters | null): Document[] {
    const docs = Array.from(this.shared.entries.values(), (e) => e.doc);
    const selected = hasFilters(filters) ? docs.filter((doc) => documentMatchesFilter(checked(filters, true), doc)) : docs;
    return this.return_embedding ? selected : selected.map((doc) => copyDocument(doc, doc.score, false));
  }

  /** Writes documents; NONE means FAIL. Returns how many were written (SKIP does not count skipped ones). */
  write_documents(documents: Document[], policy: DuplicatePolicy | string = DuplicatePolicy.NONE): number {
    if (!Array.isArray(documents) || documents.some((d) => !(d instanceof Document))) throw new Error("Please provide a list of Documents.");
    let mode = parseDuplicatePolicy(policy);
    if (mode === DuplicatePolicy.NONE) mode = DuplicatePolicy.FAIL;
    const { entries, bm25 } = this.shared;
    let written = documents.length;
    for (const doc of documents) {
      if (mode !== DuplicatePolicy.OVERWRITE && entries.has(doc.id)) {
        if (mode === DuplicatePolicy.FAIL) throw new DuplicateDocumentError(`ID '${doc.id}' already exists.`);
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
    const { entries, bm25 } = this.shared;
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
    const candidates: Entry[] = [];
    for (const entry of this.shared.entries.values()) {
      if (entry.doc.content === null) continue;
      if (userFilters && !documentMatchesFilter(userFilters, entry.doc)) continue;
      candidates.push(entry);
    }
    if (candidates.length === 0) return [];
    const slots = Int32Array.from(candidates, (c) => c.slot);
    const scores = this.shared.bm25.scores(this.tokenizer(query), slots, this.bm25_algorithm, this.bm25_parameters);
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
    const docs = Array.from(this.shared.entries.values(), (e) => e.doc);
    const selected = hasFilters(filters) ? docs.filter((doc) => documentMatchesFilter(filters, doc)) : docs;
    const withEmbeddings = selected.filter((doc) => doc.embedding !== null);
    if (withEmbeddings.length === 0) return [];
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

export const DOT_PRODUCT_SCALING_FACTOR = 100;

function dot(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** The vector divided by its L2 norm; a zero vector stays as it is (no NaN scores). */
function unit(v: readonly number[]): number[] {
  const norm = Math.sqrt(dot(v, v));
  return norm === 0 ? [...v] : v.map((x) => x / norm);
}

function hasFilters(filters: Filters | null | undefined): filters is Filters {
  return !!filters && Object.keys(filters).length > 0;
}

/** filter_documents takes a comparison or logic condition at the top; bm25_retrieval needs an operator. */
function checked(filters: Filters, allowConditionsOnly: boolean): Filters {
  if (!("operator" in filters) && !(allowConditionsOnly && "conditions" in filters)) throw new Error(INVALID_FILTER_SYNTAX);
  return filters;
}

/** A copy with its own meta, as Haystack's Document.from_dict(doc.to_dict()) gives. */
function copyDocument(doc: Document, score: number | null, withEmbedding: boolean): Document {
  let meta: Record<string, unknown>;
  try {
    meta = structuredClone(doc.meta);
  } catch {
    meta = { ...doc.meta };
  }
  return new Document({ id: doc.id, content: doc.content, blob: doc.blob, meta, score, embedding: withEmbedding ? doc.embedding : null, sparse_embedding: doc.sparse_embedding });
}

const FAST_DEFAULT = /[\p{L}\p{N}_]{2,}/gu;

/** Lowercases, then findall; the default pattern is exactly "runs of two or more word characters". */
function makeTokenizer(pattern: string): (text: string) => string[] {
  if (pattern === DEFAULT_TOKENIZATION_REGEX) return (text) => text.toLowerCase().match(FAST_DEFAULT) ?? [];
  const re = pythonRegExp(pattern, "g");
  // findall returns group 1 when the pattern has groups.
  return (text) => Array.from(text.toLowerCase().matchAll(re), (m) => (m.length > 1 ? (m[1] ?? "") : m[0]));
}
