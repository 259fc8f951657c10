import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { ChatMessage, Component, createRegistry, Document, InMemoryBM25Retriever, InMemoryDocumentStore, loadPipelineYaml, output, socket } from "svc/engine";
import * as v from "valibot";
import { LostInTheMiddleRanker } from "../../../plugins/engine/components/lost-in-the-middle-ranker.js";
import { MetaFieldGroupingRanker } from "../../../plugins/engine/components/meta-field-grouping-ranker.js";
import { OutputAdapter, OutputAdaptationException } from "../../../plugins/engine/components/output-adapter.js";
import { QueryExpander, parseExpandedQueries } from "../../../plugins/engine/components/query-expander.js";
import { MultiQueryTextRetriever } from "../../../plugins/engine/components/multi-query-text-retriever.js";
import { startOpenAIFixture, type OpenAIFixture } from "../../fixtures/openai-server.js";

const ctx = (name = "c") => ({ name, signal: new AbortController().signal, tracer: NOOP_TRACER, log: { warn: () => {}, error: () => {} } as any });
const docs = (...contents: string[]) => contents.map((content) => new Document({ content }));

// ---- LostInTheMiddleRanker (expected orders computed with Haystack's algorithm) ----

test("LostInTheMiddleRanker: Haystack's order, top_k, word_count_threshold, dedup, errors", () => {
  const ranker = new LostInTheMiddleRanker();
  const nine = docs("1", "2", "3", "4", "5", "6", "7", "8", "9");
  assert.equal(ranker.run({ documents: nine }).documents.map((d) => d.content), ["1", "3", "5", "7", "9", "8", "6", "4", "2"]);
  assert.equal(new LostInTheMiddleRanker({ top_k: 5 }).run({ documents: nine }).documents.map((d) => d.content), ["1", "3", "5", "4", "2"]);
  const words = docs("a b", "c d e", "f", "g h i j", "k l");
  assert.equal(ranker.run({ documents: words, word_count_threshold: 6 }).documents.map((d) => d.content), ["a b", "f", "c d e"]);
  assert.equal(ranker.run({ documents: words, word_count_threshold: 1 }).documents.map((d) => d.content), ["a b"]);
  const a = new Document({ content: "same", score: 0.2 }), b = new Document({ content: "same", score: 0.9 });
  assert.equal(ranker.run({ documents: [a, b, ...docs("x")] }).documents.map((d) => d.score), [0.9, null]);
  assert.equal(ranker.run({ documents: [] }).documents, []);
  assert.throws(() => new LostInTheMiddleRanker({ top_k: 0 }), /top_k must be > 0/);
  assert.throws(() => ranker.run({ documents: nine, word_count_threshold: -1 }), /word_count_threshold must be > 0/);
  assert.throws(() => ranker.run({ documents: [new Document({ content: "t" }), new Document({ meta: { x: 1 } })] }), /not textual/);
});

// ---- MetaFieldGroupingRanker: Haystack's docstring example ----

test("MetaFieldGroupingRanker: groups in first-seen order, subgroups, sorted, ungrouped last", () => {
  const input = [
    new Document({ content: "Javascript is a popular programming language", meta: { group: "42", split_id: 7, subgroup: "subB" } }),
    new Document({ content: "Python is a popular programming language", meta: { group: "42", split_id: 4, subgroup: "subB" } }),
    new Document({ content: "A chromosome is a package of DNA", meta: { group: "314", split_id: 2, subgroup: "subC" } }),
    new Document({ content: "An octopus has three hearts", meta: { group: "11", split_id: 2, subgroup: "subD" } }),
    new Document({ content: "Java is a popular programming language", meta: { group: "42", split_id: 3, subgroup: "subB" } }),
    new Document({ content: "No group", meta: { split_id: 1 } }),
  ];
  const out = new MetaFieldGroupingRanker({ group_by: "group", subgroup_by: "subgroup", sort_docs_by: "split_id" }).run({ documents: input }, ctx()).documents;
  assert.equal(out.map((d) => d.content), [
    "Java is a popular programming language",
    "Python is a popular programming language",
    "Javascript is a popular programming language",
    "A chromosome is a package of DNA",
    "An octopus has three hearts",
    "No group",
  ]);
  // Mixed types cannot be sorted (a TypeError in Python): the group keeps its order.
  const mixed = [new Document({ content: "b", meta: { g: 1, s: "x" } }), new Document({ content: "a", meta: { g: 1, s: 2 } }), new Document({ content: "c", meta: { g: 1 } })];
  assert.equal(new MetaFieldGroupingRanker({ group_by: "g", sort_docs_by: "s" }).run({ documents: mixed }, ctx()).documents.map((d) => d.content), ["b", "a", "c"]);
  // None sorts last; numbers as numbers.
  const nums = [new Document({ content: "n", meta: { g: "x", s: null } }), new Document({ content: "10", meta: { g: "x", s: 10 } }), new Document({ content: "9", meta: { g: "x", s: 9 } })];
  assert.equal(new MetaFieldGroupingRanker({ group_by: "g", sort_docs_by: "s" }).run({ documents: nums }, ctx()).documents.map((d) => d.content), ["9", "10", "n"]);
});

// ---- OutputAdapter ----

test("OutputAdapter: template variables are inputs; literal_eval in safe mode; native values when unsafe", () => {
  const adapter = new OutputAdapter({ template: "{{ documents[0].content }}", output_type: "str" });
  assert.equal(Object.keys(adapter.inputSockets), ["documents"]);
  assert.is(adapter.run({ documents: docs("Test content") }).output, "Test content");
  const list = new OutputAdapter({ template: "{{ replies | map(attribute='text') | list }}", output_type: "typing.List[str]" });
  assert.equal(list.run({ replies: [ChatMessage.fromAssistant("a"), ChatMessage.fromAssistant("b")] }).output, ["a", "b"]);
  assert.is(new OutputAdapter({ template: "{{ x + 1 }}", output_type: "int" }).run({ x: 41 }).output, 42);
  assert.equal(new OutputAdapter({ template: "{{ {'k': v} }}", output_type: "dict" }).run({ v: true }).output, { k: true });
  // Safe mode prints objects (then keeps the text); unsafe returns them.
  const doc = docs("x");
  const safe = new OutputAdapter({ template: "{{ documents }}", output_type: "List[Document]" }).run({ documents: doc }).output;
  assert.type(safe, "string");
  const unsafe = new OutputAdapter({ template: "{{ documents }}", output_type: "List[haystack.dataclasses.document.Document]", unsafe: true }).run({ documents: doc }).output;
  assert.equal(unsafe, doc);
  assert.throws(() => new OutputAdapter({ template: "{{ x | nope }}", output_type: "str" }), /Invalid Jinja template/);
  assert.throws(() => adapter.run({}), /No input data provided/);
  assert.throws(() => new OutputAdapter({ template: "{{ x | custom }}", output_type: "str", custom_filters: { custom: "my.module.fn" } }).run({ x: 1 }), (e: unknown) => e instanceof OutputAdaptationException && /not available/.test((e as Error).message));
  const filtered = new OutputAdapter({ template: "{{ x | shout }}", output_type: "str", custom_filters: { shout: (s: unknown) => String(s).toUpperCase() } });
  assert.is(filtered.run({ x: "hi" }).output, "HI");
});

// ---- QueryExpander against the OpenAI fixture ----

let openai: OpenAIFixture;
test.before(async () => {
  openai = await startOpenAIFixture({ apiKey: "k" });
});
test.after(async () => {
  await openai.close();
});

const generator = () => ({ type: "haystack.components.generators.chat.openai.OpenAIChatGenerator", init_parameters: { api_key: { type: "env_var", env_vars: ["QE_KEY"], strict: false }, api_base_url: openai.url, model: "m" } });

test("QueryExpander: prompt, parsing, dedup, truncation, original query added", async () => {
  process.env.QE_KEY = "k";
  try {
    const pipeline = loadPipelineYaml(`components:\n  expander:\n    type: haystack.components.query.query_expander.QueryExpander\n    init_parameters: ${JSON.stringify({ chat_generator: generator(), n_expansions: 2, include_original_query: true })}\nconnections: []\n`, createRegistry());
    openai.script({ content: '{"queries": ["solar power", "  wind energy ", "solar power", "", 3, "hydro"]}' });
    const result = await pipeline.run({ expander: { query: "Green energy" } });
    assert.equal(result.expander!.queries, ["solar power", "wind energy", "Green energy"]);
    const prompt = openai.requests.at(-1)!.body.messages[0].content as string;
    assert.match(prompt, /expand a given query into 2 queries/);
    assert.match(prompt, /Query: "Green energy"/);
    openai.script({ content: '{"queries": ["green ENERGY", "x"]}' });
    assert.equal((await pipeline.run({ expander: { query: "Green energy", n_expansions: 3 } })).expander!.queries, ["green ENERGY", "x"], "the original is not repeated");
    openai.script({ content: "not json" });
    assert.equal((await pipeline.run({ expander: { query: "q" } })).expander!.queries, ["q"]);
    const dict = pipeline.getComponent("expander").toDict();
    assert.is((dict.init_parameters.chat_generator as any).type, "haystack.components.generators.chat.openai.OpenAIChatGenerator");
    assert.is(dict.init_parameters.n_expansions, 2);
  } finally {
    delete process.env.QE_KEY;
  }
  const none = new QueryExpander({ include_original_query: false, chat_generator: new (class extends Component {
    static override readonly type = "test.Failing";
    protected inputSpecs() { return { messages: socket(v.array(v.instance(ChatMessage))) }; }
    protected outputSpecs() { return { replies: output() }; }
    run(): never { throw new Error("down"); }
  })() });
  assert.equal((await none.run({ query: "q" }, ctx())).queries, [], "a failing generator leaves only what include_original_query adds");
  assert.equal((await none.run({ query: "  " }, ctx())).queries, []);
  assert.throws(() => new QueryExpander({ n_expansions: 0 }), /n_expansions must be positive/);
  const warnings: string[] = [];
  assert.equal(parseExpandedQueries('{"other": 1}', (m) => warnings.push(m)), []);
  assert.match(warnings.join(), /Missing expected keys/);
});

// ---- MultiQueryTextRetriever ----

test("MultiQueryTextRetriever: every query retrieved, deduplicated by id (best score), sorted by score", async () => {
  const store = new InMemoryDocumentStore();
  store.write_documents(docs("Renewable energy is energy that is collected from renewable resources.", "Solar energy is a type of green energy that is harnessed from the sun.", "Wind energy is another type of green energy that is generated by wind turbines.", "Hydropower is a form of renewable energy using the flow of water to generate electricity.", "Geothermal energy is heat that comes from the sub-surface of the earth."));
  const bm25 = new InMemoryBM25Retriever({ document_store: store, top_k: 1 });
  const multi = new MultiQueryTextRetriever({ retriever: bm25 });
  const out = (await multi.run({ queries: ["renewable energy?", "Geothermal", "Hydropower"] }, ctx())).documents;
  const single = async (q: string) => (await bm25.run({ query: q }, ctx() as any)).documents[0]!;
  const expected = [await single("renewable energy?"), await single("Geothermal"), await single("Hydropower")].sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
  assert.equal(out.map((d) => [d.content, d.score]), expected.map((d) => [d.content, d.score]));
  const dup = (await multi.run({ queries: ["solar", "solar sun"], retriever_kwargs: { top_k: 2 } }, ctx())).documents;
  assert.is(new Set(dup.map((d) => d.id)).size, dup.length);
  const yaml = `components:
  retriever:
    type: haystack.components.retrievers.multi_query_text_retriever.MultiQueryTextRetriever
    init_parameters:
      retriever:
        type: haystack.components.retrievers.in_memory.bm25_retriever.InMemoryBM25Retriever
        init_parameters:
          document_store: {type: haystack.document_stores.in_memory.document_store.InMemoryDocumentStore, init_parameters: {}}
          top_k: 3
      max_workers: 3
connections: []
`;
  const loaded = loadPipelineYaml(yaml, createRegistry());
  assert.equal(loaded.getComponent("retriever").toDict().init_parameters.max_workers, 3);
});

test("Haystack's YAML for the rankers and the OutputAdapter loads and runs", async () => {
  const yaml = `components:
  litm:
    type: haystack.components.rankers.lost_in_the_middle.LostInTheMiddleRanker
    init_parameters: {word_count_threshold: null, top_k: 4}
  grouping:
    type: haystack.components.rankers.meta_field_grouping_ranker.MetaFieldGroupingRanker
    init_parameters: {group_by: group, subgroup_by: null, sort_docs_by: split_id}
  adapter:
    type: haystack.components.converters.output_adapter.OutputAdapter
    init_parameters:
      template: '{{ documents | map(attribute="content") | list }}'
      output_type: typing.List[str]
      custom_filters: {}
      unsafe: false
connections:
- {sender: grouping.documents, receiver: litm.documents}
- {sender: litm.documents, receiver: adapter.documents}
`;
  const pipeline = loadPipelineYaml(yaml, createRegistry());
  const input = ["a", "b", "c", "d", "e"].map((content, i) => new Document({ content, meta: { group: i % 2 ? "odd" : "even", split_id: 10 - i } }));
  const result = await pipeline.run({ grouping: { documents: input } });
  // grouping: even (e, c, a by split_id), odd (d, b); top 4 → e c a d; lost in the middle → e a d c
  assert.equal(result.adapter!.output, ["e", "a", "d", "c"]);
});

test.run();
