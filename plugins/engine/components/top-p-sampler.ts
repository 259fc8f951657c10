/**
 * @module TopPSampler (haystack.components.samplers.top_p): keeps the highest-scored Documents
 * whose softmax probabilities add up to at most `top_p` (nucleus sampling), best first. Scores come
 * from `Document.score` or a meta field (`score_field`); a Document without a number there is
 * dropped with a warning (a boolean is no score, as in Haystack). Haystack computes with torch
 * float32 tensors and `isclose(atol=1e-6)`; so does this, rounding each step to float32.
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext, warnerOf } from "../component.js";
import { Document } from "../dataclasses/document.js";

const Init = v.object({
  top_p: v.optional(v.number(), 1.0),
  score_field: v.optional(v.nullable(v.string()), null),
  min_top_k: v.optional(v.nullable(v.pipe(v.number(), v.integer())), null),
});
const Documents = v.array(v.instance(Document));
const f32 = Math.fround;

function checkTopP(topP: number) {
  if (!(topP >= 0 && topP <= 1)) throw new Error(`top_p must be between 0 and 1. Got ${topP}.`);
}

/** torch.softmax then torch.cumsum, in float32. */
function cumulativeProbabilities(scores: number[]): number[] {
  const values = scores.map(f32);
  const max = Math.max(...values);
  const exps = values.map((s) => f32(Math.exp(f32(s - max))));
  const sum = exps.reduce((a, b) => f32(a + b), 0);
  let running = 0;
  return exps.map((e) => (running = f32(running + f32(e / sum))));
}

export class TopPSampler extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.samplers.top_p.TopPSampler";
  static override readonly aliases = ["TopPSampler"];
  static override readonly initSchema = Init;

  constructor(init: unknown = {}) {
    super(init);
    checkTopP(this.initParameters.top_p);
  }

  protected inputSpecs() {
    return { documents: socket(Documents), top_p: socket(v.nullable(v.number()), { default: null }) };
  }

  protected outputSpecs() {
    return { documents: output(Documents) };
  }

  run(inputs: { documents: Document[]; top_p?: number | null }, ctx?: ComponentContext) {
    const warn = warnerOf(ctx);
    const documents = inputs.documents;
    if (documents.length === 0) return { documents: [] };
    const topP = inputs.top_p ?? this.initParameters.top_p;
    checkTopP(topP);

    const scored = this.scoredDocuments(documents, warn);
    if (scored.length === 0) {
      warn("No documents with scores found. Returning the original documents.");
      return { documents };
    }
    // A stable sort, highest score first, as Python's sorted(..., reverse=True).
    scored.sort((a, b) => b[1] - a[1]);
    const sorted = scored.map(([doc]) => doc);
    const target = f32(topP);
    let selected = cumulativeProbabilities(scored.map(([, s]) => s))
      .map((p, i) => [p, i] as const)
      .filter(([p]) => p <= target || Math.abs(p - target) <= 1e-6 + 1e-5 * Math.abs(target))
      .map(([, i]) => sorted[i]!);
    const minTopK = this.initParameters.min_top_k;
    if (minTopK && selected.length < minTopK) selected = sorted.slice(0, minTopK);
    if (selected.length === 0) {
      warn(`Top-p sampling with p=${Number.isInteger(topP) ? topP.toFixed(1) : topP} resulted in no documents being selected. Returning the document with the highest score.`);
      selected = [sorted[0]!];
    }
    return { documents: selected };
  }

  private scoredDocuments(documents: Document[], warn: (m: string) => void): [Document, number][] {
    const field = this.initParameters.score_field;
    const scored: [Document, number][] = [];
    const missing: Document[] = [];
    for (const doc of documents) {
      const score: unknown = field ? doc.meta[field] : doc.score;
      if (typeof score === "number") scored.push([doc, score]);
      else missing.push(doc);
    }
    if (missing.length > 0) {
      const ids = missing.map((d) => d.id).filter(Boolean).join(",");
      warn(
        field
          ? `Score field '${field}' not found in metadata of documents with IDs: ${ids}.Make sure that all documents have a score field '${field}' in their metadata.`
          : `Ensure all documents have a valid score value. These documents ${ids} are missing scores.`,
      );
    }
    return scored;
  }
}
