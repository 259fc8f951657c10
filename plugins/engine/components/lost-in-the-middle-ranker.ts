/**
 * @module LostInTheMiddleRanker (haystack.components.rankers.lost_in_the_middle): lays documents
 * (already sorted by relevance) out so the most relevant are at the start and the end of the LLM's
 * context and the least relevant in the middle, optionally cut at `top_k` documents or once
 * `word_count_threshold` words are reached (the document that reaches it is kept).
 */
import * as v from "valibot";
import { Component, output, socket } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { deduplicateDocuments } from "./deduplicate-documents.js";

const positive = (what: string) => v.nullish(v.pipe(v.number(), v.integer(), v.check((n) => n > 0, (i) => `${what} must be > 0, but got ${String(i.input)}`)));
const Init = v.object({
  word_count_threshold: v.optional(v.nullish(v.pipe(v.number(), v.integer(), v.check((n) => n > 0, (i) => `Invalid value for word_count_threshold: ${String(i.input)}. word_count_threshold must be > 0.`))), null),
  top_k: v.optional(positive("top_k"), null),
});

/** Python's str.split(): words separated by runs of whitespace. */
const wordCount = (text: string) => text.split(/[\s\x1c-\x1f\x85]+/u).filter(Boolean).length;

export class LostInTheMiddleRanker extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.rankers.lost_in_the_middle.LostInTheMiddleRanker";
  static override readonly aliases = ["LostInTheMiddleRanker"];
  static override readonly initSchema = Init;

  protected inputSpecs() {
    return {
      documents: socket(v.array(v.instance(Document))),
      top_k: socket(v.nullable(v.number()), { default: null }),
      word_count_threshold: socket(v.nullable(v.number()), { default: null }),
    };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  run(inputs: { documents: Document[]; top_k?: number | null; word_count_threshold?: number | null }) {
    for (const [name, value] of [["word_count_threshold", inputs.word_count_threshold], ["top_k", inputs.top_k]] as const) {
      if (typeof value === "number" && value <= 0) throw new Error(name === "top_k" ? `top_k must be > 0, but got ${value}` : `Invalid value for word_count_threshold: ${value}. word_count_threshold must be > 0.`);
    }
    if (!inputs.documents?.length) return { documents: [] };
    // `or` as in Haystack: 0 and null fall back to the init value.
    const topK = inputs.top_k || this.initParameters.top_k;
    const threshold = inputs.word_count_threshold || this.initParameters.word_count_threshold;
    const unique = deduplicateDocuments(inputs.documents);
    const docs = topK ? unique.slice(0, topK) : unique;
    if (docs.length === 1) return { documents: docs };
    if (docs.some((d) => d.content === null)) throw new Error("Some provided documents are not textual; LostInTheMiddleRanker can process only text.");
    let words = 0;
    const order = [0];
    if (threshold && docs[0]!.content) {
      words = wordCount(docs[0]!.content);
      if (words >= threshold) return { documents: [docs[0]!] };
    }
    for (let i = 1; i < docs.length; i++) {
      const at = Math.floor(order.length / 2) + (order.length % 2);
      order.splice(at, 0, i);
      if (threshold && docs[i]!.content) {
        words += wordCount(docs[i]!.content!);
        if (words >= threshold) break;
      }
    }
    return { documents: order.map((i) => docs[i]!) };
  }
}
