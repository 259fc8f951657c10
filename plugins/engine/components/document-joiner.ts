/**
 * @module DocumentJoiner: joins the document lists of several senders (a lazy variadic socket) by
 * concatenation (one copy per id, the best-scored), merge (weighted score sum), reciprocal rank
 * fusion or distribution-based rank fusion, then sorts by score and cuts to top_k. Scores are set
 * on copies: Haystack mutates the incoming documents, which would leak into other branches here.
 */
import * as v from "valibot";
import { Component, output, socket, variadic, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";

const JOIN_MODES = ["concatenate", "merge", "reciprocal_rank_fusion", "distribution_based_rank_fusion"] as const;
type JoinMode = (typeof JOIN_MODES)[number];

const Init = v.object({
  join_mode: v.optional(
    v.pipe(
      v.string(),
      v.transform((m) => m.toLowerCase()),
      v.check((m) => (JOIN_MODES as readonly string[]).includes(m), (issue) => `Unknown join mode '${String(issue.input)}'. Supported modes in DocumentJoiner are: [${JOIN_MODES.map((m) => `'${m}'`).join(", ")}]`),
    ),
    "concatenate",
  ),
  weights: v.optional(v.nullable(v.array(v.number())), null),
  top_k: v.optional(v.nullable(v.number()), null),
  sort_by_score: v.optional(v.boolean(), true),
});

type InitParameters = Omit<v.InferOutput<typeof Init>, "join_mode"> & { join_mode: JoinMode };

export class DocumentJoiner extends Component<InitParameters> {
  static override readonly type = "haystack.components.joiners.document_joiner.DocumentJoiner";
  static override readonly aliases = ["DocumentJoiner"];
  static override readonly initSchema = Init;
  /** Weights normalized to sum to 1, as Haystack stores them. */
  private readonly weights: number[] | null;

  constructor(init: unknown = {}) {
    super(init);
    const { weights: w, top_k } = this.initParameters;
    if (top_k !== null && top_k <= 0) throw new Error("top_k must be greater than 0.");
    const total = w ? w.reduce((a, b) => a + b, 0) : 0;
    if (w && w.length && total === 0) throw new Error("The provided `weights` must not sum to zero.");
    this.weights = w && w.length ? w.map((x) => x / total) : null;
  }

  protected inputSpecs() {
    return {
      documents: variadic(v.array(v.instance(Document))),
      top_k: socket(v.nullable(v.number()), { default: null }),
    };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  run(inputs: { documents: Document[][]; top_k?: number | null }, ctx?: ComponentContext) {
    const lists = [...(inputs.documents ?? [])];
    let documents = this.join(lists);
    if (this.initParameters.sort_by_score) {
      const key = (d: Document) => d.score ?? -Infinity;
      documents = [...documents].sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0));
      if (documents.some((d) => d.score === null)) {
        ctx?.log?.info("Some of the Documents DocumentJoiner got have score=None. It was configured to sort Documents by score, so those with score=None were sorted as if they had a score of -infinity.");
      }
    }
    // A run-time top_k wins, 0 included (no documents); the init value applies only when none is given.
    const runTopK = inputs.top_k ?? null;
    if (runTopK !== null && runTopK < 0) throw new Error("top_k must not be negative.");
    const topK = runTopK ?? this.initParameters.top_k;
    if (topK !== null) documents = documents.slice(0, topK);
    return { documents };
  }

  private join(lists: Document[][]): Document[] {
    switch (this.initParameters.join_mode) {
      case "merge":
        return this.merge(lists);
      case "reciprocal_rank_fusion":
        return this.reciprocalRankFusion(lists);
      case "distribution_based_rank_fusion":
        return concatenate(lists.map(distributionScores));
      default:
        return concatenate(lists);
    }
  }

  private listWeights(lists: Document[][]): number[] {
    return this.weights ?? lists.map(() => 1 / lists.length);
  }

  /** Weighted sum of the scores of one id across lists (a missing score counts 0); the last copy seen is kept. */
  private merge(lists: Document[][]): Document[] {
    if (lists.length === 0) return [];
    const scores = new Map<string, number>();
    const docs = new Map<string, Document>();
    const weights = this.listWeights(lists);
    lists.forEach((list, i) => {
      if (i >= weights.length) return; // zip() stops at the shorter
      for (const doc of list) {
        scores.set(doc.id, (scores.get(doc.id) ?? 0) + (doc.score || 0) * weights[i]!);
        docs.set(doc.id, doc);
      }
    });
    return [...docs.values()].map((doc) => doc.withScore(scores.get(doc.id)!));
  }

  /** RRF with k = 61 (the paper's 60, plus 1 for 0-based ranks), normalized so 1.0 is first everywhere. */
  private reciprocalRankFusion(lists: Document[][]): Document[] {
    if (lists.length === 0) return [];
    const k = 61;
    const scores = new Map<string, number>();
    const docs = new Map<string, Document>();
    const weights = this.listWeights(lists);
    lists.forEach((list, i) => {
      if (i >= weights.length) return;
      list.forEach((doc, rank) => {
        scores.set(doc.id, (scores.get(doc.id) ?? 0) + (weights[i]! * lists.length) / (k + rank));
        docs.set(doc.id, doc);
      });
    });
    return [...docs.values()].map((doc) => doc.withScore(scores.get(doc.id)! / (lists.length / k)));
  }
}

/** One document per id: the one with the best score (Python's max keeps the first; no score counts -inf, 0 is 0). */
function concatenate(lists: Document[][]): Document[] {
  const best = new Map<string, Document>();
  for (const doc of lists.flat()) {
    const current = best.get(doc.id);
    if (!current || (doc.score ?? -Infinity) > (current.score ?? -Infinity)) best.set(doc.id, doc);
  }
  return [...best.values()];
}

/** Distribution-based score fusion: scores rescaled to mean ± 3 standard deviations of their list. */
function distributionScores(list: Document[]): Document[] {
  if (list.length === 0) return list;
  const scores = list.map((d) => d.score ?? 0);
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const std = Math.sqrt(scores.reduce((a, x) => a + (x - mean) ** 2, 0) / scores.length);
  const min = mean - 3 * std;
  const delta = mean + 3 * std - min;
  // All scores equal: the list says nothing about relevance.
  return list.map((d, i) => d.withScore(delta !== 0 ? (scores[i]! - min) / delta : 0));
}
