/**
 * @module DocumentSplitter: splits documents into chunks of `split_length` units (words, sentences,
 * passages, pages, lines or periods) with overlap and a minimum size, adding Haystack's meta
 * (`source_id`, `page_number`, `split_id`, `split_idx_start`, `_split_overlap`). Offsets count code
 * points, as Python's len() does, so the numbers match Haystack's. Sentences come from ICU's
 * segmenter (Intl.Segmenter) plus NLTK-like rules, where Haystack uses NLTK's punkt.
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";

const SEPARATORS: Record<string, string> = { page: "\f", passage: "\n\n", period: ".", word: " ", line: "\n" };
const int = (min: number, message: string) => v.pipe(v.number(), v.integer(), v.minValue(min, message));

const Init = v.pipe(
  v.object({
    split_by: v.optional(v.picklist(["function", "page", "passage", "period", "word", "line", "sentence"], "split_by must be one of 'function', 'word', 'sentence', 'page', 'passage', 'period' or 'line'."), "word"),
    split_length: v.optional(int(1, "split_length must be greater than 0."), 200),
    split_overlap: v.optional(int(0, "split_overlap must be greater than or equal to 0."), 0),
    split_threshold: v.optional(int(0, "split_threshold must be greater than or equal to 0."), 0),
    splitting_function: v.optional(v.nullable(v.function("splitting_function must be a function (dotted paths from YAML are not supported)")), null),
    respect_sentence_boundary: v.optional(v.boolean(), false),
    language: v.optional(v.string(), "en"),
    use_split_rules: v.optional(v.boolean(), true),
    extend_abbreviations: v.optional(v.boolean(), true),
    skip_empty_documents: v.optional(v.boolean(), true),
  }),
  v.check((p) => p.split_overlap < p.split_length, "split_overlap must be less than split_length."),
  v.check((p) => p.split_by !== "function" || typeof p.splitting_function === "function", "When 'split_by' is set to 'function', a valid 'splitting_function' must be provided."),
);
type InitParameters = v.InferOutput<typeof Init>;

interface Splits {
  texts: string[];
  pages: number[];
  starts: number[];
}

export class DocumentSplitter extends Component<InitParameters> {
  static override readonly type = "haystack.components.preprocessors.document_splitter.DocumentSplitter";
  static override readonly aliases = ["DocumentSplitter"];
  static override readonly initSchema = Init;
  private readonly segmenter: Intl.Segmenter;

  constructor(init: unknown = {}) {
    super(init);
    if (this.initParameters.respect_sentence_boundary && this.initParameters.split_by !== "word") {
      // Haystack warns and turns the option off rather than refusing the pipeline.
      console.warn("The 'respect_sentence_boundary' option is only supported for `split_by='word'`. The option `respect_sentence_boundary` will be set to `False`.");
      this.initParameters.respect_sentence_boundary = false;
    }
    this.segmenter = new Intl.Segmenter(sentenceLocale(this.initParameters.language), { granularity: "sentence" });
  }

  /** As Haystack's: `splitting_function` only when there is one; `respect_sentence_boundary` as in effect. */
  override toDict() {
    const { type, init_parameters } = super.toDict();
    const { splitting_function, ...rest } = init_parameters;
    const out: Record<string, unknown> = { ...rest, respect_sentence_boundary: this.initParameters.respect_sentence_boundary };
    if (splitting_function !== null && splitting_function !== undefined) out.splitting_function = splitting_function;
    return { type, init_parameters: out };
  }

  protected inputSpecs() {
    return { documents: socket(v.array(v.instance(Document))) };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  run(inputs: { documents: Document[] }, ctx?: ComponentContext) {
    if (!Array.isArray(inputs.documents) || inputs.documents.some((d) => !(d instanceof Document))) throw new TypeError("DocumentSplitter expects a List of Documents as input.");
    const documents: Document[] = [];
    for (const doc of inputs.documents) {
      if (doc.content === null) throw new Error(`DocumentSplitter only works with text documents but content for document ID ${doc.id} is None.`);
      if (doc.content === "" && this.initParameters.skip_empty_documents) {
        ctx?.log?.warn(`Document ID ${doc.id} has an empty content. Skipping this document.`);
        continue;
      }
      documents.push(...this.splitDocument(doc, doc.content));
    }
    return { documents };
  }

  private splitDocument(doc: Document, content: string): Document[] {
    const p = this.initParameters;
    const meta = { ...cloneMeta(doc.meta), source_id: doc.id };
    if (p.split_by === "function") return (p.splitting_function as (text: string) => string[])(content).map((text) => new Document({ content: text, meta: cloneMeta(meta) }));
    let splits: Splits;
    if (p.split_by === "sentence" || p.respect_sentence_boundary) {
      const sentences = this.sentences(content);
      splits = p.respect_sentence_boundary ? this.bySentenceWordCount(sentences) : this.concatenate(sentences);
    } else {
      const sep = SEPARATORS[p.split_by]!;
      // Keep each separator on the unit before it, so the units join back into the text.
      splits = this.concatenate(content.split(sep).map((unit, i, all) => (i < all.length - 1 ? unit + sep : unit)));
    }
    return this.createDocuments(splits, meta);
  }

  /** Windows of split_length units advancing by split_length - split_overlap (more_itertools.windowed). */
  private concatenate(units: string[]): Splits {
    const { split_length: n, split_overlap: overlap, split_threshold: threshold, split_by, skip_empty_documents } = this.initParameters;
    const out: Splits = { texts: [], pages: [], starts: [] };
    let start = 0;
    let page = 1;
    for (const window of windowed(units, n, n - overlap)) {
      const text = window.join("");
      // The first `overlap` units are already in the previous split: merge only the rest.
      if (window.length < threshold && out.texts.length > 0) out.texts[out.texts.length - 1] += window.slice(overlap).join("");
      else if (!skip_empty_documents || text.length > 0) {
        out.texts.push(text);
        out.pages.push(page);
        out.starts.push(start);
      }
      const processed = window.slice(0, n - overlap);
      start += cpLen(processed.join(""));
      page += split_by === "page" ? processed.length : processed.reduce((sum, u) => sum + countFormFeeds(u), 0);
    }
    return out;
  }

  /** respect_sentence_boundary: whole sentences up to split_length words, overlapping by whole sentences. */
  private bySentenceWordCount(sentences: string[]): Splits {
    const { split_length: n, split_overlap: overlap } = this.initParameters;
    const out: Splits = { texts: [], pages: [], starts: [] };
    let chunk: string[] = [];
    let words = 0;
    let page = 1;
    let start = 0;
    sentences.forEach((sentence, i) => {
      chunk.push(sentence);
      words += wordCount(sentence);
      const nextWords = i < sentences.length - 1 ? wordCount(sentences[i + 1]!) : 0;
      if (words + nextWords <= n && i !== sentences.length - 1) return;
      const text = chunk.join("");
      if (text.length > 0) out.texts.push(text);
      out.pages.push(page);
      out.starts.push(start);
      const keep = sentencesToKeep(chunk, n, overlap);
      const processed = keep > 0 ? chunk.slice(0, -keep) : chunk;
      page += processed.reduce((sum, s) => sum + countFormFeeds(s), 0);
      start += cpLen(processed.join(""));
      chunk = keep > 0 ? chunk.slice(-keep) : [];
      words = chunk.reduce((sum, s) => sum + wordCount(s), 0);
    });
    return out;
  }

  private createDocuments(splits: Splits, meta: Record<string, unknown>): Document[] {
    const overlap = this.initParameters.split_overlap;
    const documents: Document[] = [];
    splits.texts.forEach((text, i) => {
      const doc = new Document({ content: text, meta: { ...cloneMeta(meta), page_number: splits.pages[i], split_id: i, split_idx_start: splits.starts[i] } });
      documents.push(doc);
      if (overlap <= 0) return;
      // Added after construction, as in Haystack: the overlap info is not part of the id.
      doc.meta._split_overlap = [];
      if (i === 0) return;
      const previous = documents[i - 1]!;
      const from = splits.starts[i]! - splits.starts[i - 1]!;
      const to = cpLen(previous.content!);
      if (from >= to) return;
      if (!text.startsWith(cpSlice(previous.content!, from, to))) return;
      (doc.meta._split_overlap as unknown[]).push({ doc_id: previous.id, range: [from, to] });
      (previous.meta._split_overlap as unknown[]).push({ doc_id: doc.id, range: [0, to - from] });
    });
    return documents;
  }

  /** Sentences with their trailing whitespace, so they join back into the text. */
  private sentences(text: string): string[] {
    const out: string[] = [];
    for (const { segment } of this.segmenter.segment(text)) {
      const previous = out[out.length - 1];
      if (previous !== undefined && this.joins(previous, segment)) out[out.length - 1] = previous + segment;
      else out.push(segment);
    }
    return out;
  }

  /** Whether ICU's break between two segments is not a sentence boundary for NLTK-like splitting. */
  private joins(previous: string, next: string): boolean {
    if (next.trim() === "") return true;
    const end = previous.trimEnd();
    // punkt ends sentences only at terminal punctuation, never at a bare line break.
    if (!/[.!?…。！？‼⁇⁈⁉]["'”’»)\]]*$/u.test(end)) return true;
    if (ABBREVIATION.test(end)) return true;
    if (!this.initParameters.use_split_rules) return false;
    // Haystack's split rules: a numbering ("1.") or a sentence starting with a bracket.
    return /(^|\n)\s*\d{1,2}\.$/.test(end) || /^\s*[([]/.test(next);
  }
}

const ABBREVIATION = /(?:^|[\s(])(?:mr|mrs|ms|dr|prof|sr|jr|st|vs|e\.g|i\.e|cf|fig|approx|dept|no)\.$/i;

/** Haystack's `_number_of_sentences_to_keep`; exported for the ported cases. */
export function sentencesToKeep(chunk: string[], length: number, overlap: number): number {
  if (overlap === 0) return 0;
  let keep = 0;
  let words = 0;
  // The next chunk must not start like this one: never keep the first sentence.
  for (const sentence of chunk.slice(1).reverse()) {
    words += wordCount(sentence);
    if (words > length) break;
    keep += 1;
    if (words > overlap) break;
  }
  return keep;
}

/** The language as a locale ICU knows ("en", "de", "pt_BR" → "pt-BR"), else English. */
function sentenceLocale(language: string): string {
  try {
    return Intl.Segmenter.supportedLocalesOf(language.replace(/_/g, "-"))[0] ?? "en";
  } catch {
    return "en";
  }
}

function* windowed<T>(items: T[], n: number, step: number): Generator<T[]> {
  if (items.length === 0) return;
  yield items.slice(0, n);
  // more_itertools pads the tail so that exactly the windows it can fill (with padding) follow.
  const available = items.length - n + (step >= n ? n - 1 : step - 1);
  for (let k = 1; k * step <= available; k++) yield items.slice(k * step, k * step + n);
}

const wordCount = (s: string) => s.match(/\S+/g)?.length ?? 0;
const countFormFeeds = (s: string) => s.split("\f").length - 1;
const ASTRAL = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;
const cpLen = (s: string) => s.length - (s.match(ASTRAL)?.length ?? 0);
const HAS_ASTRAL = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;
const cpSlice = (s: string, from: number, to: number) => (HAS_ASTRAL.test(s) ? [...s].slice(from, to).join("") : s.slice(from, to));

function cloneMeta(meta: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(meta);
  } catch {
    return { ...meta };
  }
}
