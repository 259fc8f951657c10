/**
 * Haystack's QueryExpander tests (test/components/query/test_query_expander.py), ported value for
 * value. Haystack's `Mock(spec=OpenAIChatGenerator)` is a real OpenAIChatGenerator talking to the
 * loopback OpenAI fixture (the reply scripted as the mock's return value, the prompt read from the
 * request the fixture received); its MockChatGenerator is `MockChat`. svc has one (async) `run`:
 * the `run_async` cases run it too. The live cases run against the fixture, which answers as the
 * model would under the JSON schema Haystack's fixture generator asks for.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { ChatMessage, Component, OpenAIChatGenerator, QueryExpander, Secret, createRegistry, loadPipelineYaml, output, socket } from "svc/engine";
import { DEFAULT_QUERY_EXPANSION_PROMPT, parseExpandedQueries } from "../../../../plugins/engine/components/query-expander.js";
import { startOpenAIFixture, type OpenAIFixture } from "../../../fixtures/openai-server.js";
import { loggedContext, withEnv } from "../../../helpers/env.js";
import { rejects } from "../../../helpers/rejects.js";
import { MockChat, SpyingTracer } from "./agent-fixtures.js";

const KEY = "test-key-12345";
let openai: OpenAIFixture;
test.before(async () => {
  openai = await startOpenAIFixture({ apiKey: KEY });
});
test.after(async () => {
  await openai.close();
});

/** Haystack's `Mock(spec=OpenAIChatGenerator)`: a real generator on the loopback fixture. */
const openaiGenerator = (init: Record<string, unknown> = {}) => new OpenAIChatGenerator({ api_key: Secret.fromToken(KEY), api_base_url: openai.url, max_retries: 0, ...init });
const lastPrompt = () => openai.requests.at(-1)!.body.messages[0].content as string;
const run = async (expander: QueryExpander, query: string, nExpansions?: number) => {
  const logged = loggedContext("expander");
  const result = await expander.run({ query, n_expansions: nExpansions ?? null }, logged.ctx);
  return { ...result, warnings: logged.warnings, errors: logged.errors };
};
/** Captures console.warn (construction-time warnings have no component logger yet). */
function consoleWarnings(fn: () => void): string {
  const seen: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void seen.push(args.join(" "));
  try {
    fn();
  } finally {
    console.warn = original;
  }
  return seen.join("\n");
}

test("test_init_default_generator", () =>
  withEnv({ OPENAI_API_KEY: KEY }, () => {
    const expander = new QueryExpander();
    assert.is(expander.initParameters.n_expansions, 4);
    assert.is(expander.initParameters.include_original_query, true);
    assert.instance(expander.chatGenerator, OpenAIChatGenerator);
    assert.is((expander.chatGenerator as OpenAIChatGenerator).initParameters.model, "gpt-4.1-mini");
    assert.is(expander.promptTemplate, DEFAULT_QUERY_EXPANSION_PROMPT);
  }));

test("test_init_custom_generator", () => {
  const generator = openaiGenerator();
  const expander = new QueryExpander({ chat_generator: generator, n_expansions: 3 });
  assert.is(expander.initParameters.n_expansions, 3);
  assert.is(expander.chatGenerator, generator);
});

test("test_run_warms_up_chat_generator", async () => {
  const generator = new MockChat("1. test query");
  await run(new QueryExpander({ chat_generator: generator }), "test query");
  assert.ok(generator.warmUps >= 1);
});

test("test_init_negative_expansions_raises_error", () => {
  assert.throws(() => new QueryExpander({ n_expansions: -1 }), /n_expansions must be positive/);
});

test("test_init_zero_expansions_raises_error", () => {
  assert.throws(() => new QueryExpander({ n_expansions: 0 }), /n_expansions must be positive/);
});

test("test_init_custom_prompt_template", () => {
  const template = "Custom template: {{ query }} with {{ n_expansions }} expansions";
  assert.is(new QueryExpander({ prompt_template: template }).promptTemplate, template);
});

test("test_run_negative_expansions_raises_error", async () => {
  await rejects(() => run(new QueryExpander(), "test query", -1), /n_expansions must be positive/);
});

test("test_run_zero_expansions_raises_error", async () => {
  await rejects(() => run(new QueryExpander({ n_expansions: 4 }), "test query", 0), /n_expansions must be positive/);
});

test("test_run_with_runtime_n_expansions_override", async () => {
  openai.script({ content: '{"queries": ["alt1", "alt2"]}' });
  const expander = new QueryExpander({ chat_generator: openaiGenerator(), n_expansions: 4, include_original_query: false });
  const result = await run(expander, "test query", 2);
  assert.ok(lastPrompt().includes("2"));
  assert.match(lastPrompt(), /expand a given query into 2 queries/);
  assert.equal(result.queries, ["alt1", "alt2"]);
});

test("test_run_successful_expansion", async () => {
  const before = openai.requests.length;
  openai.script({ content: '{"queries": ["alternative query 1", "alternative query 2", "alternative query 3"]}' });
  const result = await run(new QueryExpander({ chat_generator: openaiGenerator(), n_expansions: 3 }), "original query");
  assert.equal(result.queries, ["alternative query 1", "alternative query 2", "alternative query 3", "original query"]);
  assert.is(openai.requests.length - before, 1);
});

test("test_run_without_including_original", async () => {
  const result = await run(new QueryExpander({ chat_generator: new MockChat('{"queries": ["alt1", "alt2"]}'), include_original_query: false }), "original");
  assert.equal(result.queries, ["alt1", "alt2"]);
});

test("test_run_empty_query", async () => {
  assert.equal((await run(new QueryExpander(), "")).queries, [""]);
});

test("test_run_empty_query_no_original", async () => {
  assert.equal((await run(new QueryExpander({ include_original_query: false }), "   ")).queries, []);
});

test("test_run_whitespace_only_query", async () => {
  const result = await run(new QueryExpander(), "\t\n  \r");
  assert.equal(result.queries, ["\t\n  \r"]);
  assert.match(result.warnings.join("\n"), /Empty query provided/);
});

test("test_run_generator_no_replies", async () => {
  const empty = new (class extends MockChat {
    override async run() {
      return { replies: [] };
    }
  })();
  const result = await run(new QueryExpander({ chat_generator: empty }), "test query");
  assert.equal(result.queries, ["test query"]);
  assert.match(result.warnings.join("\n"), /ChatGenerator returned no replies for query: test query/);
});

test("test_run_generator_exception", async () => {
  openai.script({ status: 500, error: { message: "Generator error", type: "server_error" } });
  const result = await run(new QueryExpander({ chat_generator: openaiGenerator() }), "test query");
  assert.equal(result.queries, ["test query"]);
  assert.match(result.errors.join("\n"), /Failed to expand query test query: .*Generator error/);
});

test("test_run_invalid_json_response", async () => {
  const result = await run(new QueryExpander({ chat_generator: new MockChat("invalid json response") }), "test query");
  assert.equal(result.queries, ["test query"]);
});

const parse = (text: string) => {
  const warnings: string[] = [];
  return { queries: parseExpandedQueries(text, (m) => warnings.push(m)), warnings: warnings.join("\n") };
};

test("test_parse_expanded_queries_valid_json", () => {
  assert.equal(parse('{"queries": ["query1", "query2", "query3"]}').queries, ["query1", "query2", "query3"]);
});

test("test_parse_expanded_queries_invalid_json", () => {
  assert.equal(parse("not json").queries, []);
});

test("test_parse_expanded_queries_empty_string", () => {
  assert.equal(parse("").queries, []);
});

test("test_parse_expanded_queries_non_list_json", () => {
  assert.equal(parse('{"not": "a list"}').queries, []);
});

for (const value of ['"single query"', '{"query": "value"}', "null"]) {
  test(`test_parse_expanded_queries_rejects_non_list_queries_value[${value}]`, () => {
    const { queries, warnings } = parse(`{"queries": ${value}}`);
    assert.equal(queries, []);
    assert.match(warnings, /Expected 'queries' to be a list/);
  });
}

test("test_parse_expanded_queries_mixed_types", () => {
  assert.equal(parse('{"queries": ["valid query", 123, "", "another valid"]}').queries, ["valid query", "another valid"]);
});

test("test_run_query_deduplication", async () => {
  const result = await run(new QueryExpander({ chat_generator: new MockChat('{"queries": ["original query", "alt1", "alt2"]}'), include_original_query: true }), "original query");
  assert.equal(result.queries, ["original query", "alt1", "alt2"]);
});

for (const mode of ["run", "run_async"]) {
  const suffix = mode === "run" ? "run" : "run_async";
  test(`test_${suffix}_deduplicates_generated_queries`, async () => {
    const expander = new QueryExpander({ chat_generator: new MockChat('{"queries": ["same query", "same query", "other query"]}'), n_expansions: 3, include_original_query: false });
    assert.equal((await run(expander, "topic")).queries, ["same query", "other query"]);
  });
  test(`test_${suffix}_deduplicates_before_truncating`, async () => {
    const expander = new QueryExpander({ chat_generator: new MockChat('{"queries": ["a", "a", "b", "c"]}'), n_expansions: 3, include_original_query: false });
    assert.equal((await run(expander, "topic")).queries, ["a", "b", "c"]);
  });
}

test("test_run_truncates_excess_queries", async () => {
  const expander = new QueryExpander({ chat_generator: new MockChat('{"queries": ["q1", "q2", "q3", "q4", "q5"]}'), n_expansions: 3, include_original_query: false });
  const result = await run(expander, "test query");
  assert.equal(result.queries, ["q1", "q2", "q3"]);
  assert.match(result.warnings.join("\n"), /Generated 5 queries but only 3 were requested/);
  assert.match(result.warnings.join("\n"), /Truncating/);
});

test("test_run_with_custom_template", async () => {
  const template = `
        Create {{ n_expansions }} alternative search queries for: {{ query }}
        Return as JSON: {"queries": ["query1", "query2"]}
        `;
  const before = openai.requests.length;
  openai.script({ content: '{"queries": ["custom alt 1", "custom alt 2"]}' });
  const expander = new QueryExpander({ chat_generator: openaiGenerator(), prompt_template: template, n_expansions: 2, include_original_query: false });
  const result = await run(expander, "test query");
  assert.equal(result.queries, ["custom alt 1", "custom alt 2"]);
  assert.is(openai.requests.length - before, 1);
  assert.ok(lastPrompt().includes("Create 2 alternative search queries for: test query"));
  assert.ok(lastPrompt().includes("Return as JSON"));
});

test("test_component_output_types", async () => {
  const expander = new QueryExpander({ chat_generator: new MockChat('{"queries": ["test1", "test2"]}') });
  const result = await run(expander, "test");
  assert.ok(Array.isArray(result.queries) && result.queries.every((q) => typeof q === "string"));
  assert.equal(Object.keys(expander.outputSockets), ["queries"]);
});

for (const variable of ["query", "n_expansions"]) {
  test(`test_prompt_template_missing_variable[${variable}]`, () => {
    const template = variable === "query" ? "Generate {{ n_expansions }} expansions" : "Generate expansions for {{ query }}";
    const warnings = consoleWarnings(() => new QueryExpander({ prompt_template: template }));
    assert.ok(warnings.includes(`The prompt template does not contain the '${variable}' variable`), warnings);
    assert.ok(warnings.includes("This may cause issues during execution"));
  });
}

const HAYSTACK_GENERATOR_DICT = {
  type: "haystack.components.generators.chat.openai.OpenAIChatGenerator",
  init_parameters: {
    model: "gpt-4.1-mini",
    streaming_callback: null,
    api_base_url: null,
    organization: null,
    generation_kwargs: {},
    api_key: { type: "env_var", env_vars: ["OPENAI_API_KEY"], strict: true },
    timeout: null,
    max_retries: null,
    tools: null,
    tools_strict: false,
    http_client_kwargs: null,
  },
};

test("test_to_dict", () =>
  withEnv({ OPENAI_API_KEY: KEY }, () => {
    const expander = new QueryExpander({ chat_generator: new OpenAIChatGenerator({ model: "gpt-4.1-mini" }), n_expansions: 2, include_original_query: false });
    const data = expander.toDict() as { type: string; init_parameters: Record<string, any> };
    assert.is(data.type, "haystack.components.query.query_expander.QueryExpander");
    const { chat_generator, ...rest } = data.init_parameters;
    assert.equal(rest, { prompt_template: DEFAULT_QUERY_EXPANSION_PROMPT, n_expansions: 2, include_original_query: false });
    assert.is(chat_generator.type, HAYSTACK_GENERATOR_DICT.type);
    // Every parameter Haystack writes, with its value (svc's generator may write more, e.g. its client settings).
    for (const [key, value] of Object.entries(HAYSTACK_GENERATOR_DICT.init_parameters)) assert.equal(chat_generator.init_parameters[key], value, key);
  }));

test("test_from_dict", () =>
  withEnv({ OPENAI_API_KEY: KEY }, () => {
    const data = { type: "haystack.components.query.query_expander.QueryExpander", init_parameters: { chat_generator: HAYSTACK_GENERATOR_DICT, prompt_template: DEFAULT_QUERY_EXPANSION_PROMPT, n_expansions: 2, include_original_query: false } };
    const pipeline = loadPipelineYaml(JSON.stringify({ components: { expander: data }, connections: [] }), createRegistry());
    const expander = pipeline.getComponent("expander") as QueryExpander;
    assert.is(expander.initParameters.n_expansions, 2);
    assert.is(expander.initParameters.include_original_query, false);
    assert.is(expander.promptTemplate, DEFAULT_QUERY_EXPANSION_PROMPT);
    assert.instance(expander.chatGenerator, OpenAIChatGenerator);
    assert.is((expander.chatGenerator as OpenAIChatGenerator).initParameters.model, "gpt-4.1-mini");
  }));

test("test_run_async", async () => {
  const before = openai.requests.length;
  openai.script({ content: '{"queries": ["alternative query 1", "alternative query 2", "alternative query 3"]}' });
  const result = await run(new QueryExpander({ chat_generator: openaiGenerator(), n_expansions: 3 }), "original query");
  assert.equal(result.queries, ["alternative query 1", "alternative query 2", "alternative query 3", "original query"]);
  assert.is(openai.requests.length - before, 1);
});

test("test_run_async_without_including_original", async () => {
  openai.script({ content: '{"queries": ["alt1", "alt2"]}' });
  const result = await run(new QueryExpander({ chat_generator: openaiGenerator(), include_original_query: false }), "original");
  assert.equal(result.queries, ["alt1", "alt2"]);
});

// TestQueryExpanderIntegration: Haystack's generator asks for exactly two queries by JSON schema;
// the fixture answers as a model following it would.
const integrationGenerator = () =>
  openaiGenerator({
    model: "gpt-4.1-nano",
    generation_kwargs: {
      temperature: 0.7,
      response_format: { type: "json_schema", json_schema: { name: "query_expansion", schema: { type: "object", properties: { queries: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 2 } }, required: ["queries"], additionalProperties: false } } },
    },
  });
const answerTwo = () =>
  openai.script((body) => {
    const query = /Query: "([^"]*)"\s*\n\s*\nYou \*must\*/.exec(body.messages[0].content)?.[1] ?? "";
    return { content: JSON.stringify({ queries: [`${query} overview`, `about ${query}`] }) };
  });

for (const name of ["test_query_expansion", "test_query_expansion_async"]) {
  test(name, async () => {
    answerTwo();
    const result = await run(new QueryExpander({ n_expansions: 2, chat_generator: integrationGenerator() }), "renewable energy sources");
    assert.is(result.queries.length, 3);
    assert.ok(result.queries.every((q) => q.trim().length > 0));
    assert.ok(result.queries.includes("renewable energy sources"));
    assert.is(openai.requests.at(-1)!.body.response_format.json_schema.schema.properties.queries.maxItems, 2);
  });
}

test("test_different_domains", async () => {
  const expander = new QueryExpander({ n_expansions: 2, include_original_query: false, chat_generator: integrationGenerator() });
  for (const query of ["machine learning algorithms", "climate change effects", "quantum computing applications"]) {
    answerTwo();
    const result = await run(expander, query);
    assert.is(result.queries.length, 2);
    assert.not.ok(result.queries.includes(query));
  }
});

test("test_warm_up_delegates_to_chat_generator", async () => {
  const generator = new MockChat();
  await new QueryExpander({ chat_generator: generator }).warmUp();
  assert.is(generator.warmUps, 1);
});

test("test_close_delegates_to_chat_generator", async () => {
  const generator = new MockChat();
  await new QueryExpander({ chat_generator: generator }).close();
  assert.is(generator.closes, 1);
});

test("test_lifecycle_is_safe_when_chat_generator_lacks_methods", async () => {
  const bare = new (class extends Component {
    static override readonly type = "test.RunOnly";
    protected inputSpecs() {
      return { messages: socket(v.array(v.instance(ChatMessage))) };
    }
    protected outputSpecs() {
      return { replies: output(v.array(v.instance(ChatMessage))) };
    }
    run() {
      return { replies: [] };
    }
  })();
  const expander = new QueryExpander({ chat_generator: bare });
  await expander.warmUp();
  await expander.close();
});

for (const name of ["test_run_traces_chat_generator_token_usage", "test_run_async_traces_chat_generator_token_usage"]) {
  test(name, () =>
    withEnv({ HAYSTACK_CONTENT_TRACING_ENABLED: "true" }, async () => {
      openai.script({ content: '{"queries": ["alt1", "alt2"]}' });
      const tracer = new SpyingTracer();
      const expander = new QueryExpander({ chat_generator: openaiGenerator() });
      await expander.run({ query: "green energy sources", n_expansions: null }, { ...loggedContext("expander").ctx, tracer });
      const spans = tracer.spans.filter((s) => s.name === "haystack.chat_generator.run");
      assert.is(spans.length, 1);
      assert.is(spans[0]!.tags["haystack.component.type"], "OpenAIChatGenerator");
      const out = spans[0]!.tags["haystack.component.output"] as unknown as { replies: ChatMessage[] };
      assert.ok((out.replies[0]!.meta.usage as { total_tokens: number }).total_tokens > 0);
      assert.ok(spans[0]!.ended);
    }));
}

test.run();
