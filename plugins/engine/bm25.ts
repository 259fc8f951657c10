/**
 * @module BM25L, BM25Okapi and BM25Plus over an incrementally maintained inverted index, ported
 * from Haystack's InMemoryDocumentStore so scores match: the same IDF and term-frequency formulas
 * and defaults, the same operation order (per document, query tokens in order), the incremental
 * average length of haystack#10860, and 3.x's vocabulary (a token whose last document is deleted
 * leaves it, so BM25Okapi's ε averages over live tokens only). Documents live in dense slots so
 * a query scores token by token over typed arrays.
 */

export type Bm25Algorithm = "BM25Okapi" | "BM25L" | "BM25Plus";
export const BM25_ALGORITHMS: readonly Bm25Algorithm[] = ["BM25Okapi", "BM25L", "BM25Plus"];
export const BM25_SCALING_FACTOR = 8;

export interface Bm25Parameters {
  k1?: number;
  b?: number;
  delta?: number;
  epsilon?: number;
}

export class Bm25Index {
  /** token → slot → count in that document. */
  private readonly postings = new Map<string, Map<number, number>>();
  /** Documents per token (Haystack's `_freq_vocab_for_idf`). */
  private readonly docFreq = new Map<string, number>();
  private readonly lengths: number[] = [];
  private readonly freeSlots: number[] = [];
  private avgDocLen = 0;
  private size = 0;
  private version = 0;
  private okapi?: { version: number; epsilon: number; eps: number };

  get averageDocumentLength(): number {
    return this.avgDocLen;
  }

  /** Indexes one document's tokens; returns its slot and distinct tokens, needed to remove it. */
  add(tokens: string[]): { slot: number; terms: string[] } {
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    const slot = this.freeSlots.pop() ?? this.lengths.length;
    this.lengths[slot] = tokens.length;
    for (const [t, count] of counts) {
      let posting = this.postings.get(t);
      if (!posting) this.postings.set(t, (posting = new Map()));
      posting.set(slot, count);
      this.docFreq.set(t, (this.docFreq.get(t) ?? 0) + 1);
    }
    this.size++;
    this.avgDocLen = (tokens.length + this.avgDocLen * (this.size - 1)) / this.size;
    this.version++;
    return { slot, terms: [...counts.keys()] };
  }

  remove(slot: number, terms: string[]): void {
    for (const t of terms) {
      const posting = this.postings.get(t)!;
      posting.delete(slot);
      if (posting.size === 0) this.postings.delete(t);
      const left = this.docFreq.get(t)! - 1;
      // Haystack 3.x drops a token whose last document goes (BM25Okapi's ε averages over the live vocabulary).
      if (left <= 0) this.docFreq.delete(t);
      else this.docFreq.set(t, left);
    }
    this.freeSlots.push(slot);
    this.size--;
    this.avgDocLen = this.size === 0 ? 0 : (this.avgDocLen * (this.size + 1) - this.lengths[slot]!) / this.size;
    this.version++;
  }

  /** Scores of the documents in `slots` for the query tokens. */
  scores(queryTokens: string[], slots: Int32Array, algorithm: Bm25Algorithm, params: Bm25Parameters): Float64Array {
    const k = params.k1 ?? 1.5;
    const b = params.b ?? 0.75;
    const idf = new Map<string, number>();
    for (const tok of queryTokens) idf.set(tok, this.idf(tok, algorithm, params));
    const count = slots.length;
    const scores = new Float64Array(count);
    // b · doc_len / avg_doc_len per document; with no tokens anywhere the average is 0 (Haystack divides by zero).
    const ratios = new Float64Array(count);
    for (let i = 0; i < count; i++) ratios[i] = this.avgDocLen === 0 ? 0 : (b * this.lengths[slots[i]!]!) / this.avgDocLen;
    const freqBySlot = new Float64Array(this.lengths.length);
    const tf = termWeight(algorithm, k, b, params);
    for (const [tok, weight] of idf) {
      if (weight === 0) continue; // adds exactly 0 to every score
      const posting = this.postings.get(tok);
      if (posting) for (const [slot, c] of posting) freqBySlot[slot] = c;
      for (let i = 0; i < count; i++) scores[i] += weight * tf(freqBySlot[slots[i]!]!, ratios[i]!);
      if (posting) for (const slot of posting.keys()) freqBySlot[slot] = 0;
    }
    return scores;
  }

  private idf(tok: string, algorithm: Bm25Algorithm, params: Bm25Parameters): number {
    const n = this.docFreq.get(tok) ?? 0;
    const corpus = this.size;
    if (algorithm === "BM25L") return Math.log((corpus + 1.0) / (n + 0.5)) * (n !== 0 ? 1 : 0);
    if (algorithm === "BM25Plus") return Math.log(1 + (corpus - n + 0.5) / (n + 0.5)) * (n !== 0 ? 1 : 0);
    if (!this.docFreq.has(tok)) return 0;
    // BM25Okapi: a negative IDF becomes ε × the mean IDF over the whole vocabulary (cached per change).
    const epsilon = params.epsilon ?? 0.25;
    if (!this.okapi || this.okapi.version !== this.version || this.okapi.epsilon !== epsilon) {
      let sum = 0.0;
      for (const c of this.docFreq.values()) sum += Math.log((corpus - c + 0.5) / (c + 0.5));
      this.okapi = { version: this.version, epsilon, eps: this.docFreq.size === 0 ? 0 : (epsilon * sum) / this.docFreq.size };
    }
    const idf = Math.log((corpus - n + 0.5) / (n + 0.5));
    return idf < 0 ? this.okapi.eps : idf;
  }
}

/** Per-token term weight from the count and `ratio` = b · doc_len / avg_doc_len (0/0 cases give 0). */
function termWeight(algorithm: Bm25Algorithm, k: number, b: number, params: Bm25Parameters): (freq: number, ratio: number) => number {
  if (algorithm === "BM25L") {
    const delta = params.delta ?? 0.5;
    return (freq, ratio) => {
      const norm = 1 - b + ratio;
      const ctd = norm === 0 ? 0 : freq / norm;
      return ((1.0 + k) * (ctd + delta)) / (k + ctd + delta);
    };
  }
  if (algorithm === "BM25Plus") {
    const delta = params.delta ?? 1.0;
    return (freq, ratio) => {
      const damp = k * (1 - b + ratio);
      return freq + damp === 0 ? delta : (freq * (1.0 + k)) / (freq + damp) + delta;
    };
  }
  return (freq, ratio) => {
    const norm = freq + k * (1 - b + ratio);
    return norm === 0 ? 0 : (freq * (1.0 + k)) / norm;
  };
}

/** Indexes of the `k` best scores, best first, ties in input order: Python's stable sort, then [:k]. */
export function topIndexes(scores: Float64Array, k: number): number[] {
  const n = scores.length;
  if (k <= 0) return [];
  if (k >= 64 || k >= n) return Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, k);
  const best: number[] = [];
  for (let i = 0; i < n; i++) {
    const score = scores[i]!;
    if (best.length === k && score <= scores[best[k - 1]!]!) continue;
    // Only a strictly greater score moves ahead, so an equal one stays behind the earlier document.
    let at = best.length;
    while (at > 0 && scores[best[at - 1]!]! < score) at--;
    best.splice(at, 0, i);
    if (best.length > k) best.pop();
  }
  return best;
}

/** The logistic function (scipy's expit), used to scale scores into (0, 1). */
export function expit(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
