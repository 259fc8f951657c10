/**
 * @module ExtractedAnswer (haystack.dataclasses.answer.ExtractedAnswer): an answer taken out of a
 * document by an extractive reader — its text (or none, "no answer"), score, the document and the
 * context it came from, with character spans. Serialized as Haystack 3 does, flat, spans as
 * `{start, end}`; the 2.x `{type, init_parameters}` envelope loads.
 */
import { Document } from "./document.js";

/** A character range `[start, end)` (ExtractedAnswer.Span). */
export interface Span {
  start: number;
  end: number;
}

export interface ExtractedAnswerFields {
  query: string;
  score: number | null;
  data?: string | null;
  document?: Document | null;
  context?: string | null;
  document_offset?: Span | null;
  context_offset?: Span | null;
  meta?: Record<string, unknown>;
}

const span = (s: Span | null | undefined): Span | null => (s ? { start: s.start, end: s.end } : null);

export class ExtractedAnswer {
  static readonly typeName = "ExtractedAnswer";
  static readonly type = "haystack.dataclasses.answer.ExtractedAnswer";
  readonly query: string;
  readonly score: number | null;
  readonly data: string | null;
  readonly document: Document | null;
  readonly context: string | null;
  readonly document_offset: Span | null;
  readonly context_offset: Span | null;
  readonly meta: Record<string, unknown>;

  constructor(fields: ExtractedAnswerFields) {
    this.query = fields.query;
    this.score = fields.score;
    this.data = fields.data ?? null;
    this.document = fields.document ?? null;
    this.context = fields.context ?? null;
    this.document_offset = span(fields.document_offset);
    this.context_offset = span(fields.context_offset);
    this.meta = fields.meta ?? {};
  }

  toDict(): Record<string, unknown> {
    return {
      data: this.data,
      query: this.query,
      document: this.document ? this.document.toDict(false) : null,
      context: this.context,
      score: this.score,
      document_offset: span(this.document_offset),
      context_offset: span(this.context_offset),
      meta: this.meta,
    };
  }

  /** JSON answers carry the `toDict` form. */
  toJSON(): Record<string, unknown> {
    return this.toDict();
  }

  /** Takes the serialized form, or the 2.x envelope; the input is not changed. */
  static fromDict(d: Record<string, unknown>): ExtractedAnswer {
    const p = ("init_parameters" in d ? d.init_parameters : d) as Record<string, unknown>;
    if (typeof p.query !== "string") throw new Error("ExtractedAnswer.from_dict needs `query`.");
    if (!("score" in p)) throw new Error("ExtractedAnswer.from_dict needs `score`.");
    const doc = p.document as Record<string, unknown> | Document | null | undefined;
    return new ExtractedAnswer({
      query: p.query,
      score: p.score as number | null,
      data: (p.data as string | null | undefined) ?? null,
      document: doc == null ? null : doc instanceof Document ? doc : Document.fromDict(doc),
      context: (p.context as string | null | undefined) ?? null,
      document_offset: p.document_offset as Span | null | undefined,
      context_offset: p.context_offset as Span | null | undefined,
      meta: { ...((p.meta as Record<string, unknown> | undefined) ?? {}) },
    });
  }
}
