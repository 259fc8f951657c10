/**
 * @module Document and ByteStream in Haystack's shapes. A document's id, when not given, is the
 * SHA-256 Haystack computes from its fields (document-id.ts), so ids match Haystack's.
 */
import { createDocumentId } from "./document-id.js";

export class ByteStream {
  static readonly typeName = "ByteStream";

  constructor(
    readonly data: Buffer,
    readonly meta: Record<string, unknown> = {},
    readonly mimeType: string | null = null,
  ) {}

  static fromString(text: string, mimeType = "text/plain", meta: Record<string, unknown> = {}): ByteStream {
    return new ByteStream(Buffer.from(text, "utf8"), meta, mimeType);
  }

  toString(encoding: BufferEncoding = "utf8"): string {
    return this.data.toString(encoding);
  }

  toDict(): { data: number[]; meta: Record<string, unknown>; mime_type: string | null } {
    return { data: [...this.data], meta: { ...this.meta }, mime_type: this.mimeType };
  }

  static fromDict(d: { data: number[] | string; meta?: Record<string, unknown>; mime_type?: string | null }): ByteStream {
    return new ByteStream(typeof d.data === "string" ? Buffer.from(d.data) : Buffer.from(d.data), d.meta ?? {}, d.mime_type ?? null);
  }
}

export interface DocumentInit {
  id?: string;
  content?: string | null;
  blob?: ByteStream | null;
  meta?: Record<string, unknown>;
  score?: number | null;
  embedding?: number[] | null;
  sparse_embedding?: { indices: number[]; values: number[] } | null;
}

export class Document {
  static readonly typeName = "Document";
  readonly id: string;
  readonly content: string | null;
  readonly blob: ByteStream | null;
  readonly meta: Record<string, unknown>;
  score: number | null;
  readonly embedding: number[] | null;
  readonly sparse_embedding: { indices: number[]; values: number[] } | null;

  constructor(init: DocumentInit = {}) {
    this.content = init.content ?? null;
    this.blob = init.blob ?? null;
    this.meta = init.meta ?? {};
    this.score = init.score ?? null;
    this.embedding = init.embedding ?? null;
    this.sparse_embedding = init.sparse_embedding ?? null;
    this.id = init.id || this.createId();
  }

  /** Haystack's `_create_id` (see document-id.ts). */
  private createId(): string {
    return createDocumentId(this);
  }

  /** A copy with another score (retrievers score copies, never the stored document). */
  withScore(score: number | null): Document {
    return new Document({ ...this, score });
  }

  toDict(): Record<string, unknown> {
    return {
      id: this.id,
      content: this.content,
      blob: this.blob?.toDict() ?? null,
      meta: { ...this.meta },
      score: this.score,
      embedding: this.embedding,
      sparse_embedding: this.sparse_embedding,
    };
  }

  /** Accepts Haystack's flattened form too (meta keys at the top level). */
  static fromDict(d: Record<string, unknown>): Document {
    const known = new Set(["id", "content", "blob", "meta", "score", "embedding", "sparse_embedding", "dataframe"]);
    const flat = Object.fromEntries(Object.entries(d).filter(([k]) => !known.has(k)));
    return new Document({
      id: d.id as string | undefined,
      content: (d.content as string | null | undefined) ?? null,
      blob: d.blob ? ByteStream.fromDict(d.blob as Parameters<typeof ByteStream.fromDict>[0]) : null,
      meta: { ...((d.meta as Record<string, unknown>) ?? {}), ...flat },
      score: (d.score as number | null | undefined) ?? null,
      embedding: (d.embedding as number[] | null | undefined) ?? null,
      sparse_embedding: (d.sparse_embedding as DocumentInit["sparse_embedding"]) ?? null,
    });
  }
}
