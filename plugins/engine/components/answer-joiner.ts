/**
 * @module AnswerJoiner (haystack.components.joiners.answer_joiner): joins the answer lists of
 * several senders (a lazy variadic socket) into one — `concatenate` is Haystack's only mode —,
 * optionally sorted by score (an answer without one, a GeneratedAnswer, counts as -infinity) and
 * cut to `top_k` (a run-time `top_k` wins, 0 included).
 */
import * as v from "valibot";
import { Component, output, socket, variadic } from "../component.js";
import { ExtractedAnswer } from "../dataclasses/extracted-answer.js";
import { GeneratedAnswer } from "../dataclasses/generated-answer.js";

const JOIN_MODES = ["concatenate"];

const Init = v.object({
  join_mode: v.optional(
    v.pipe(
      v.string(),
      v.check((m) => JOIN_MODES.includes(m), (issue) => `Unknown join mode '${String(issue.input)}'. Supported modes in AnswerJoiner are: [${JOIN_MODES.map((m) => `'${m}'`).join(", ")}]`),
    ),
    "concatenate",
  ),
  top_k: v.optional(v.nullable(v.number()), null),
  sort_by_score: v.optional(v.boolean(), false),
});

type Answer = GeneratedAnswer | ExtractedAnswer;
const AnswerSchema = v.union([v.instance(GeneratedAnswer), v.instance(ExtractedAnswer)]);
const scoreOf = (a: Answer) => ("score" in a && typeof a.score === "number" ? a.score : -Infinity);

export class AnswerJoiner extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.joiners.answer_joiner.AnswerJoiner";
  static override readonly aliases = ["AnswerJoiner"];
  static override readonly initSchema = Init;

  constructor(init: unknown = {}) {
    super(init);
    const { top_k } = this.initParameters;
    if (top_k !== null && top_k <= 0) throw new Error("top_k must be greater than 0.");
  }

  protected inputSpecs() {
    return {
      answers: variadic(v.array(AnswerSchema)),
      top_k: socket(v.nullable(v.number()), { default: null }),
    };
  }

  protected outputSpecs() {
    return { answers: output(v.array(AnswerSchema)) };
  }

  run(inputs: { answers: Answer[][]; top_k?: number | null }) {
    let answers = (inputs.answers ?? []).flat();
    // A stable sort, highest score first, as Python's sorted(..., reverse=True).
    if (this.initParameters.sort_by_score) answers = answers.map((a, i) => [a, i] as const).sort(([a, i], [b, j]) => scoreOf(b) - scoreOf(a) || i - j).map(([a]) => a);
    const runTopK = inputs.top_k ?? null;
    if (runTopK !== null && runTopK < 0) throw new Error("top_k must not be negative.");
    const topK = runTopK ?? this.initParameters.top_k;
    if (topK !== null) answers = answers.slice(0, topK);
    return { answers };
  }
}
