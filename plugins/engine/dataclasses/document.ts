/**
 * @module Document and ByteStream in Haystack's shapes. A document's id, when not given, is the
 * SHA-256 of its content fields formatted the way Haystack (Python) formats them, so ids match.
 */
import { createHash } from "node:crypto";

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

  /** Haystack: sha256(f"{text}{blob}{mime_type}{meta}{embedding}{sparse_embedding}"). */
  private createId(): string {
    const blob = this.blob ? pyRepr(this.blob.data) : "None";
    const mime = this.blob?.mimeType ?? null;
    const data = `${pyStr(this.content)}${blob}${pyStr(mime)}${pyRepr(this.meta)}${pyRepr(this.embedding)}${pyRepr(this.sparse_embedding)}`;
    return createHash("sha256").update(data, "utf8").digest("hex");
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

/** Python's str() of an optional string. */
function pyStr(value: string | null): string {
  return value === null ? "None" : value;
}

/** Python's repr() of a JSON-like value (dicts keep insertion order, as Python's do). */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : pyFloat(value);
  if (typeof value === "string") return pyString(value);
  if (Buffer.isBuffer(value)) return "b'" + [...value].map((b) => (b >= 32 && b < 127 && b !== 39 && b !== 92 ? String.fromCharCode(b) : "\\x" + b.toString(16).padStart(2, "0"))).join("") + "'";
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") return `{${Object.entries(value).map(([k, v]) => `${pyString(k)}: ${pyRepr(v)}`).join(", ")}}`;
  return String(value);
}

function pyFloat(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  const s = String(n);
  return /e/.test(s) ? s.replace(/e([+-])(\d)$/, "e$10$2") : s;
}

function pyString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const escaped = s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
}
