/**
 * @module GeneratedAnswer (haystack.dataclasses.answer.GeneratedAnswer): an answer text with its
 * query, the documents it drew on and metadata. Serialized as Haystack 3 serializes it,
 * flat: `{data, query, documents, meta}` (documents unflattened, ChatMessages in
 * `meta.all_messages` turned into dicts and back); the 2.x `{type, init_parameters}` envelope loads.
 */
import { ChatMessage } from "./chat-message.js";
import { Document } from "./document.js";

export class GeneratedAnswer {
  static readonly typeName = "GeneratedAnswer";
  static readonly type = "haystack.dataclasses.answer.GeneratedAnswer";

  constructor(
    readonly data: string,
    readonly query: string,
    readonly documents: Document[] = [],
    readonly meta: Record<string, unknown> = {},
  ) {}

  toDict(): { data: string; query: string; documents: Record<string, unknown>[]; meta: Record<string, unknown> } {
    let meta = this.meta;
    const all = meta.all_messages;
    if (Array.isArray(all) && all[0] instanceof ChatMessage) meta = { ...meta, all_messages: all.map((m: ChatMessage) => m.toDict()) };
    return { data: this.data, query: this.query, documents: this.documents.map((d) => d.toDict(false)), meta: { ...meta } };
  }

  /** JSON answers carry the `toDict` form. */
  toJSON(): Record<string, unknown> {
    return this.toDict();
  }

  /** Takes the serialized form, or its `init_parameters` alone. */
  static fromDict(d: Record<string, unknown>): GeneratedAnswer {
    const p = (d.init_parameters ?? d) as { data?: string; query?: string; documents?: Record<string, unknown>[] | null; meta?: Record<string, unknown> };
    const meta = { ...(p.meta ?? {}) };
    const all = meta.all_messages;
    if (Array.isArray(all) && all.length && all[0] !== null && typeof all[0] === "object" && !(all[0] instanceof ChatMessage)) {
      meta.all_messages = all.map((m) => ChatMessage.fromDict(m as Parameters<typeof ChatMessage.fromDict>[0]));
    }
    const documents = (p.documents ?? []).map((doc) => (doc instanceof Document ? doc : Document.fromDict(doc)));
    return new GeneratedAnswer(p.data ?? "", p.query ?? "", documents, meta);
  }
}
