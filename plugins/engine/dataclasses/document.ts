/**
 * @module Document and ByteStream in Haystack 3's shapes. A document's id, when not given, is the
 * SHA-256 Haystack computes from its fields (document-id.ts), so ids match Haystack's. `toDict`
 * and `fromDict` follow Haystack's: meta flattened to the top level by default (keys that clash
 * with a field stay nested), unknown top-level keys read back into meta, 1.x fields dropped.
 * `toJSON` is `toDict`, so every JSON answer carries Haystack's form.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createDocumentId } from "./document-id.js";
import { guessMimeType } from "./mime-type.js";
import { ValueError } from "../pipeline/errors.js";
import { decodeStrict } from "../components/python-codecs.js";

/** Python's `str.encode(encoding)` for the codecs a ByteStream is built with: a character the codec lacks is an error. */
function encodeStrict(text: string, encoding: string): Buffer {
  const name = encoding.trim().toLowerCase().replace(/_/g, "-");
  const limited = (max: number, as: BufferEncoding) => {
    for (const ch of text) {
      if (ch.codePointAt(0)! > max) throw new ValueError(`'${name}' codec can't encode character '${ch}': ordinal not in range(${max + 1})`);
    }
    return Buffer.from(text, as);
  };
  if (["utf-8", "utf8"].includes(name)) return Buffer.from(text, "utf8");
  if (["latin-1", "latin1", "iso-8859-1", "iso8859-1"].includes(name)) return limited(0xff, "latin1");
  if (["ascii", "us-ascii"].includes(name)) return limited(0x7f, "ascii");
  if (["utf-16-le", "utf-16le"].includes(name)) return Buffer.from(text, "utf16le");
  // Python's utf-16 writes a byte-order mark (little-endian here).
  if (["utf-16", "utf16"].includes(name)) return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
  throw new ValueError(`unknown encoding: ${encoding}`);
}

export class ByteStream {
  static readonly typeName = "ByteStream";

  constructor(
    readonly data: Buffer,
    readonly meta: Record<string, unknown> = {},
    readonly mimeType: string | null = null,
  ) {}

  /** Haystack's `from_string`: no MIME type unless given; a character `encoding` cannot write is an error. */
  static fromString(text: string, mimeType: string | null = null, meta: Record<string, unknown> = {}, encoding = "utf-8"): ByteStream {
    return new ByteStream(encodeStrict(text, encoding), meta, mimeType);
  }

  /** Haystack's `from_file_path`: an explicit `mimeType` wins over a guess from the extension. */
  static fromFilePath(path: string, options: { mimeType?: string | null; meta?: Record<string, unknown>; guessMimeType?: boolean } = {}): ByteStream {
    const mimeType = options.mimeType ?? (options.guessMimeType ? guessMimeType(path) : null);
    return new ByteStream(readFileSync(path), options.meta ?? {}, mimeType);
  }

  /**
   * Haystack's `to_string`: with an `encoding`, bytes that do not decode are an error, as in
   * Python. Without one (also JS's implicit `String(stream)`, e.g. in a log line) it reads UTF-8
   * leniently, so turning binary data into text never throws.
   */
  toString(encoding?: string): string {
    return encoding === undefined ? this.data.toString("utf8") : decodeStrict(this.data, encoding);
  }

  toFile(path: string): void {
    writeFileSync(path, this.data);
  }

  /** What Haystack's tracer records: the size of the data, not the data. */
  toTraceDict(): { data: string; meta: Record<string, unknown>; mime_type: string | null } {
    return { data: `Binary data (${this.data.length} bytes)`, meta: { ...this.meta }, mime_type: this.mimeType };
  }

  /** `data` as a list of byte values, as Haystack writes it (JSON has no bytes). */
  toDict(): { data: number[]; meta: Record<string, unknown>; mime_type: string | null } {
    return { data: [...this.data], meta: { ...this.meta }, mime_type: this.mimeType };
  }

  toJSON(): Record<string, unknown> {
    return this.toDict();
  }

  /** Haystack's form (`data` a list of byte values); `data` as a string is taken as UTF-8 text. */
  static fromDict(d: { data: number[] | string; meta?: Record<string, unknown> | null; mime_type?: string | null }): ByteStream {
    if (!d || typeof d !== "object" || !("data" in d)) throw new Error("A serialized ByteStream needs a 'data' field.");
    const data = typeof d.data === "string" ? Buffer.from(d.data, "utf8") : Buffer.from(d.data);
    return new ByteStream(data, { ...(d.meta ?? {}) }, d.mime_type ?? null);
  }
}

export interface SparseEmbedding {
  indices: number[];
  values: number[];
}

/** Haystack's SparseEmbedding check: one value per index. */
export function checkSparseEmbedding(sparse: SparseEmbedding): SparseEmbedding {
  if (!Array.isArray(sparse.indices) || !Array.isArray(sparse.values) || sparse.indices.length !== sparse.values.length) {
    throw new ValueError("Length of indices and values must be the same.");
  }
  return sparse;
}

export interface DocumentInit {
  id?: string;
  content?: string | null;
  blob?: ByteStream | null;
  meta?: Record<string, unknown>;
  score?: number | null;
  embedding?: number[] | null;
  sparse_embedding?: SparseEmbedding | null;
}

/** Fields Haystack 1.x documents had; dropped on load. */
const LEGACY_FIELDS = ["content_type", "id_hash_keys", "dataframe"];
const FIELDS = new Set(["id", "content", "blob", "meta", "score", "embedding", "sparse_embedding", ...LEGACY_FIELDS]);

export class Document {
  static readonly typeName = "Document";
  readonly id: string;
  readonly content: string | null;
  readonly blob: ByteStream | null;
  readonly meta: Record<string, unknown>;
  score: number | null;
  readonly embedding: number[] | null;
  readonly sparse_embedding: SparseEmbedding | null;

  constructor(init: DocumentInit = {}) {
    // As Haystack's dataclass init: a misspelt field (`text` for `content`) is an error, not lost data.
    for (const key of Object.keys(init)) {
      if (!FIELDS.has(key)) throw new TypeError(`Document.__init__() got an unexpected keyword argument '${key}'`);
    }
    if (init.content !== undefined && init.content !== null && typeof init.content !== "string") {
      throw new ValueError("The `content` field must be a string or None.");
    }
    this.content = init.content ?? null;
    this.blob = init.blob ?? null;
    this.meta = init.meta ?? {};
    this.score = init.score ?? null;
    this.embedding = init.embedding ?? null;
    this.sparse_embedding = init.sparse_embedding ? checkSparseEmbedding(init.sparse_embedding) : null;
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

  /** 1.x's `content_type`: "text" when there is content. */
  get contentType(): string {
    if (this.content !== null) return "text";
    throw new ValueError("Content is not set.");
  }

  /**
   * Haystack's `to_dict(flatten)`: with `flatten` (the default, as in Haystack) meta keys sit at
   * the top level, except keys named like a document field, which stay in a nested `meta`.
   */
  toDict(flatten = true): Record<string, unknown> {
    const data: Record<string, unknown> = {
      id: this.id,
      content: this.content,
      blob: this.blob?.toDict() ?? null,
      meta: { ...this.meta },
      score: this.score,
      embedding: this.embedding,
      sparse_embedding: this.sparse_embedding ? { indices: [...this.sparse_embedding.indices], values: [...this.sparse_embedding.values] } : null,
    };
    if (!flatten) return data;
    const flat: Record<string, unknown> = {};
    const colliding: Record<string, unknown> = {};
    for (const [k, value] of Object.entries(this.meta)) (FIELDS.has(k) ? colliding : flat)[k] = value;
    delete data.meta;
    const out = { ...flat, ...data };
    if (Object.keys(colliding).length) out.meta = colliding;
    return out;
  }

  toJSON(): Record<string, unknown> {
    return this.toDict();
  }

  /** Equal when their unflattened dicts are (Haystack's `__eq__`). */
  equals(other: unknown): boolean {
    return other instanceof Document && JSON.stringify(this.toDict(false)) === JSON.stringify(other.toDict(false));
  }

  /**
   * Haystack's `from_dict`: field keys are fields (1.x's `content_type`, `id_hash_keys` and
   * `dataframe` are dropped), any other key is meta, merged over a nested `meta`.
   */
  static fromDict(d: Record<string, unknown>): Document {
    if (!d || typeof d !== "object" || Array.isArray(d)) throw new TypeError("A serialized Document must be an object.");
    const flat: Record<string, unknown> = {};
    for (const [k, value] of Object.entries(d)) if (!FIELDS.has(k)) flat[k] = value;
    const blob = d.blob ? (d.blob instanceof ByteStream ? d.blob : ByteStream.fromDict(d.blob as Parameters<typeof ByteStream.fromDict>[0])) : null;
    return new Document({
      id: (d.id as string | undefined) ?? undefined,
      content: d.content as string | null | undefined,
      blob,
      meta: { ...((d.meta as Record<string, unknown> | null) ?? {}), ...flat },
      score: (d.score as number | null | undefined) ?? null,
      embedding: (d.embedding as number[] | null | undefined) ?? null,
      sparse_embedding: (d.sparse_embedding as SparseEmbedding | null | undefined) ?? null,
    });
  }
}
