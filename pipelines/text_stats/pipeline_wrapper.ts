// A runApi pipeline with a typed, described input schema: counts words and finds the most common.
import * as v from "valibot";
import { BasePipelineWrapper } from "svc";

const Input = v.object({
  text: v.pipe(v.string(), v.minLength(1), v.description("The text to analyse.")),
  top_n: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("How many frequent words to list.")), 5),
});

export class PipelineWrapper extends BasePipelineWrapper {
  static description = "Counts the words, characters and sentences of a text and lists its most frequent words.";
  static inputSchema = Input;
  static outputSchema = v.object({
    words: v.number(),
    characters: v.number(),
    sentences: v.number(),
    top_words: v.array(v.object({ word: v.string(), count: v.number() })),
  });

  private stopWords = new Set<string>();

  setup(): void {
    this.stopWords = new Set(["the", "a", "an", "and", "or", "of", "to", "in", "is", "it", "on", "for"]);
  }

  runApi(input: v.InferOutput<typeof Input>) {
    const words = input.text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
    const counts = new Map<string, number>();
    for (const word of words) if (!this.stopWords.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
    const top_words = [...counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, input.top_n)
      .map(([word, count]) => ({ word, count }));
    return {
      words: words.length,
      characters: input.text.length,
      sentences: input.text.split(/[.!?]+/).filter((s) => s.trim()).length,
      top_words,
    };
  }
}
