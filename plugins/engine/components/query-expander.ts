/**
 * @module QueryExpander (haystack.components.query.query_expander): asks a chat generator for
 * `n_expansions` rephrasings of a query, as JSON `{"queries": [...]}`, for better retrieval
 * recall; the original query is added unless the model already returned it (case-insensitively)
 * or `include_original_query` is off. As in Haystack, a failing generator or an unreadable answer
 * is logged and leaves only the original query.
 */
import * as v from "valibot";
import { Component, output, socket, warnerOf, type ComponentContext } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";
import { compileTemplate } from "../jinja.js";
import { componentParameter, runNested } from "./nested-component.js";
import { OpenAIChatGenerator } from "./openai-chat-generator.js";

export const DEFAULT_QUERY_EXPANSION_PROMPT = `
You are part of an information system that processes user queries for retrieval.
You have to expand a given query into {{ n_expansions }} queries that are
semantically similar to improve retrieval recall.

Structure:
Follow the structure shown below in examples to generate expanded queries.

Examples:
1.  Query: "climate change effects"
    {"queries": ["impact of climate change", "consequences of global warming", "effects of environmental changes"]}

2.  Query: "machine learning algorithms"
    {"queries": ["neural networks", "clustering techniques", "supervised learning methods", "deep learning models"]}

3.  Query: "open source NLP frameworks"
    {"queries": ["natural language processing tools", "free nlp libraries", "open-source NLP platforms"]}

Guidelines:
- Generate queries that use different words and phrasings
- Include synonyms and related terms
- Maintain the same core meaning and intent
- Make queries that are likely to retrieve relevant information the original might miss
- Focus on variations that would work well with keyword-based search
- Respond in the same language as the input query

Your Task:
Query: "{{ query }}"

You *must* respond with a JSON object containing a "queries" array with the expanded queries.
Example: {"queries": ["query1", "query2", "query3"]}`;

/** Haystack's default generator: gpt-4.1-mini with a JSON schema for the answer. */
function defaultGenerator(): OpenAIChatGenerator {
  return new OpenAIChatGenerator({
    model: "gpt-4.1-mini",
    generation_kwargs: {
      temperature: 0.7,
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "query_expansion",
          schema: { type: "object", properties: { queries: { type: "array", items: { type: "string" } } }, required: ["queries"], additionalProperties: false },
        },
      },
      seed: 42,
    },
  });
}

const positive = v.pipe(v.number(), v.integer(), v.check((n) => n > 0, "n_expansions must be positive"));
const Init = v.object({
  chat_generator: v.optional(v.nullable(componentParameter("chat_generator")), null),
  prompt_template: v.optional(v.nullable(v.string()), null),
  n_expansions: v.optional(positive, 4),
  include_original_query: v.optional(v.boolean(), true),
});

/** The model's answer as a list of distinct non-empty queries (Haystack's _parse_expanded_queries). */
export function parseExpandedQueries(text: string, warn: (m: string) => void): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.trim());
  } catch (error) {
    warn(`Failed to parse JSON from text: ${text}. Error: ${(error as Error).message}`);
    return [];
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    warn("Expected a JSON object containing a dictionary. Returning None");
    return [];
  }
  const queries = (parsed as { queries?: unknown }).queries;
  if (!("queries" in parsed)) {
    warn(`Missing expected keys in JSON: ['queries']. Got keys: ${JSON.stringify(Object.keys(parsed))}`);
    return [];
  }
  if (!Array.isArray(queries)) {
    warn("Expected 'queries' to be a list. Returning no expanded queries.");
    return [];
  }
  const out: string[] = [];
  for (const item of queries) {
    if (typeof item === "string" && item.trim()) {
      if (!out.includes(item.trim())) out.push(item.trim());
    } else warn(`Skipping non-string or empty query in response: ${JSON.stringify(item)}`);
  }
  return out;
}

export class QueryExpander extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.query.query_expander.QueryExpander";
  static override readonly aliases = ["QueryExpander"];
  static override readonly initSchema = Init;

  readonly chatGenerator: Component;
  readonly promptTemplate: string;

  constructor(init: unknown = {}) {
    super(init);
    this.chatGenerator = this.initParameters.chat_generator ?? defaultGenerator();
    this.promptTemplate = this.initParameters.prompt_template || DEFAULT_QUERY_EXPANSION_PROMPT;
    compileTemplate(this.promptTemplate); // a syntax error is a configuration error
    for (const name of ["query", "n_expansions"]) {
      if (!this.promptTemplate.includes(name)) console.warn(`The prompt template does not contain the '${name}' variable. This may cause issues during execution.`);
    }
  }

  protected inputSpecs() {
    return { query: socket(v.string()), n_expansions: socket(v.nullable(v.number()), { default: null }) };
  }

  protected outputSpecs() {
    return { queries: output(v.array(v.string())) };
  }

  warmUp() {
    return this.chatGenerator.warmUp?.();
  }

  /** Releases the chat generator's resources (Haystack's `close`). */
  async close(): Promise<void> {
    await (this.chatGenerator as { close?: () => unknown }).close?.();
  }

  /**
   * Runs the chat generator inside a `haystack.chat_generator.run` span (Haystack's
   * `_trace_chat_generator_run`): the expander returns queries, not the replies, so the span is
   * where tracers find the LLM's token usage.
   */
  private async generate(messages: ChatMessage[], ctx: ComponentContext): Promise<Record<string, unknown>> {
    const contentTracing = process.env.HAYSTACK_CONTENT_TRACING_ENABLED === "true";
    const span = ctx.tracer?.startSpan(
      "haystack.chat_generator.run",
      { "haystack.component.name": "chat_generator", "haystack.component.type": this.chatGenerator.constructor.name, ...(contentTracing ? { "haystack.component.input": { messages } } : {}) },
      ctx.span,
    );
    try {
      const result = await runNested(this.chatGenerator, { messages }, { ...ctx, name: `${ctx.name}.chat_generator`, ...(span ? { span } : {}) });
      if (contentTracing) span?.setTag("haystack.component.output", result);
      span?.end();
      return result;
    } catch (error) {
      span?.end(error);
      throw error;
    }
  }

  async run(inputs: { query: string; n_expansions?: number | null }, ctx: ComponentContext): Promise<{ queries: string[] }> {
    const { query } = inputs;
    const warn = warnerOf(ctx);
    const original = this.initParameters.include_original_query ? [query] : [];
    if (!query.trim()) {
      warn("Empty query provided to QueryExpander");
      return { queries: original };
    }
    const count = inputs.n_expansions ?? this.initParameters.n_expansions;
    if (count <= 0) throw new Error("n_expansions must be positive");
    try {
      const prompt = compileTemplate(this.promptTemplate).render({ query: query.trim(), n_expansions: count });
      const result = await this.generate([ChatMessage.fromUser(prompt)], ctx);
      const replies = (result as { replies?: ChatMessage[] }).replies;
      if (!replies?.length) {
        warn(`ChatGenerator returned no replies for query: ${query}`);
        return { queries: original };
      }
      let expanded = parseExpandedQueries(replies[0]!.text?.trim() ?? "", warn);
      if (expanded.length > count) {
        warn(`Generated ${expanded.length} queries but only ${count} were requested. Truncating to the first ${count} queries. `);
        expanded = expanded.slice(0, count);
      }
      if (this.initParameters.include_original_query && !expanded.some((q) => q.toLowerCase() === query.toLowerCase())) expanded.push(query);
      return { queries: expanded };
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      const message = `Failed to expand query ${query}: ${(error as Error).message}`;
      if (ctx.log) ctx.log.error(message);
      else console.error(message);
      return { queries: original };
    }
  }

  override toDict() {
    return {
      type: this.type,
      init_parameters: {
        chat_generator: this.chatGenerator.toDict(),
        prompt_template: this.promptTemplate,
        n_expansions: this.initParameters.n_expansions,
        include_original_query: this.initParameters.include_original_query,
      },
    };
  }
}
