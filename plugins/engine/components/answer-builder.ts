/**
 * @module AnswerBuilder: turns a query and generator replies (strings or ChatMessages) into
 * GeneratedAnswers. `pattern` (a Python regex with at most one group) extracts the answer text;
 * `reference_pattern` finds 1-based document references like `[2]`, which select the documents
 * (copies carrying `source_index` and `referenced` meta) — all of them without a reference pattern.
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";
import { Document } from "../dataclasses/document.js";
import { GeneratedAnswer } from "../dataclasses/generated-answer.js";
import { groupCount, pythonRegExp } from "./python-regex.js";

const DEFAULT_REFERENCE_PATTERN = String.raw`\[(\d+)\]`;
const EXPANDED_REFERENCE_PATTERN = String.raw`\[(\d+(?:[,-]\d+)*)\]`;

/** Compiles a pattern, refusing more than one capture group. */
function answerPattern(pattern: string): RegExp {
  const re = pythonRegExp(pattern);
  if (groupCount(re) > 1) throw new Error(`Pattern '${pattern}' contains multiple capture groups. Please specify a pattern with at most one capture group.`);
  return re;
}

const Init = v.object({
  pattern: v.optional(v.nullable(v.string()), null),
  reference_pattern: v.optional(v.nullable(v.string()), null),
  last_message_only: v.optional(v.boolean(), false),
  return_only_referenced_documents: v.optional(v.boolean(), true),
  expand_reference_ranges: v.optional(v.boolean(), false),
});
type InitParameters = v.InferOutput<typeof Init>;

export class AnswerBuilder extends Component<InitParameters> {
  static override readonly type = "haystack.components.builders.answer_builder.AnswerBuilder";
  static override readonly aliases = ["AnswerBuilder"];
  static override readonly initSchema = Init;

  constructor(init: unknown = {}) {
    super(init);
    // Fail at construction, as Haystack does, rather than on the first run.
    if (this.initParameters.pattern) answerPattern(this.initParameters.pattern);
  }

  protected inputSpecs() {
    return {
      query: socket(v.string()),
      replies: socket(v.union([v.array(v.string()), v.array(v.instance(ChatMessage))])),
      meta: socket(v.nullable(v.array(v.record(v.string(), v.any()))), { default: null }),
      documents: socket(v.nullable(v.array(v.instance(Document))), { default: null }),
      pattern: socket(v.nullable(v.string()), { default: null }),
      reference_pattern: socket(v.nullable(v.string()), { default: null }),
      expand_reference_ranges: socket(v.nullable(v.boolean()), { default: null }),
    };
  }

  protected outputSpecs() {
    return { answers: output(v.array(v.instance(GeneratedAnswer))) };
  }

  run(
    inputs: {
      query: string;
      replies: (string | ChatMessage)[];
      meta?: Record<string, unknown>[] | null;
      documents?: Document[] | null;
      pattern?: string | null;
      reference_pattern?: string | null;
      expand_reference_ranges?: boolean | null;
    },
    ctx?: ComponentContext,
  ) {
    const p = this.initParameters;
    const replies = inputs.replies;
    let meta = inputs.meta;
    if (!meta || meta.length === 0) meta = replies.map(() => ({}));
    else if (meta.length !== replies.length) throw new Error(`Number of replies (${replies.length}), and metadata (${meta.length}) must match.`);

    const patternText = inputs.pattern || p.pattern;
    const pattern = patternText ? answerPattern(patternText) : null;
    const expand = inputs.expand_reference_ranges ?? p.expand_reference_ranges;
    let referencePattern = inputs.reference_pattern || p.reference_pattern;
    if (referencePattern && expand && referencePattern === DEFAULT_REFERENCE_PATTERN) referencePattern = EXPANDED_REFERENCE_PATTERN;
    const references = referencePattern ? pythonRegExp(referencePattern, "g") : null;

    const last = p.last_message_only && replies.length > 0;
    const pairs = (last ? replies.slice(-1) : replies).map((reply, i) => [reply, (last ? meta.slice(-1) : meta)[i]!] as const);
    const answers = pairs.map(([reply, given]) => {
      const text = reply instanceof ChatMessage ? (reply.text ?? "") : String(reply);
      const answerMeta: Record<string, unknown> = { ...(reply instanceof ChatMessage ? reply.meta : {}), ...given, all_messages: replies };
      const docs: Document[] = [];
      const documents = inputs.documents;
      if (documents && documents.length) {
        const referenced = references ? referenceIndexes(text, references, expand) : new Set<number>();
        const selected = references && p.return_only_referenced_documents ? [...referenced].sort((a, b) => a - b) : documents.map((_, i) => i);
        for (const idx of selected) {
          const doc = documents[idx];
          if (!doc) {
            ctx?.log?.warn(`Document index '${idx + 1}' referenced in Generator output is out of range. `);
            continue;
          }
          const docMeta: Record<string, unknown> = { ...doc.meta, source_index: idx + 1 };
          if (references) docMeta.referenced = referenced.has(idx);
          docs.push(new Document({ ...doc, meta: docMeta }));
        }
      }
      return new GeneratedAnswer(extractAnswer(text, pattern), inputs.query, docs, answerMeta);
    });
    return { answers };
  }
}

/** re.search: the one group if the pattern has one, else the whole match; "" without a match. */
function extractAnswer(reply: string, pattern: RegExp | null): string {
  if (!pattern) return reply;
  const match = pattern.exec(reply);
  if (!match) return "";
  return match.length > 1 ? (match[1] ?? "") : match[0];
}

/** re.findall over the reply: 1-based references ("2", or with ranges "1,3-5") as 0-based indexes. */
function referenceIndexes(reply: string, pattern: RegExp, expandRanges: boolean): Set<number> {
  const idxs = new Set<number>();
  const toInt = (s: string) => {
    if (!/^\s*[+-]?\d+\s*$/.test(s)) throw new Error(`invalid literal for int() with base 10: '${s}'`);
    return parseInt(s, 10);
  };
  for (const m of reply.matchAll(pattern)) {
    const found = m.length > 1 ? (m[1] ?? "") : m[0];
    if (!expandRanges) {
      idxs.add(toInt(found) - 1);
      continue;
    }
    for (const raw of found.split(",")) {
      const part = raw.trim();
      if (!part) continue;
      if (!part.includes("-")) {
        idxs.add(toInt(part) - 1);
        continue;
      }
      const [start, end] = [toInt(part.slice(0, part.indexOf("-"))), toInt(part.slice(part.indexOf("-") + 1))];
      for (let i = start - 1; i < end; i++) idxs.add(i);
    }
  }
  return idxs;
}
