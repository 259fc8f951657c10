/**
 * More of Haystack's pipeline behaviour scenarios (test/core/pipeline/features/test_run.py and
 * pipeline_run.feature), ported value for value like pipeline-run.test.ts: same graphs, inputs,
 * expected outputs and component calls, one at a time and concurrently.
 */
import { test } from "uvu";
import * as v from "valibot";
import { AddFixedValue, AnswerBuilder, BranchJoiner, ConditionalRouter, Document, DocumentCleaner, DocumentJoiner, Double, GeneratedAnswer, InMemoryBM25Retriever, InMemoryDocumentStore, OutputAdapter, Pipeline, PromptBuilder, Sum, Threshold, socket, variadic } from "svc/engine";
import { Accumulate, AnyOrder, Remainder, check, checkRaises, componentOf } from "./harness.js";

const int = v.pipe(v.number(), v.integer());

test("that has multiple branches that merge into a component with a single variadic input", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("add_one", new AddFixedValue())
        .addComponent("parity", new Remainder({ divisor: 2 }))
        .addComponent("add_ten", new AddFixedValue({ add: 10 }))
        .addComponent("double", new Double())
        .addComponent("add_four", new AddFixedValue({ add: 4 }))
        .addComponent("add_one_again", new AddFixedValue())
        .addComponent("sum", new Sum())
        .connect("add_one.result", "parity.value")
        .connect("parity.remainder_is_0", "add_ten.value")
        .connect("parity.remainder_is_1", "double.value")
        .connect("add_one.result", "sum.values")
        .connect("add_ten.result", "sum.values")
        .connect("double.value", "sum.values")
        .connect("parity.remainder_is_1", "add_four.value")
        .connect("add_four.result", "add_one_again.value")
        .connect("add_one_again.result", "sum.values"),
    [
      {
        inputs: { add_one: { value: 1 } },
        expectedOutputs: { sum: { total: 14 } },
        expectedCalls: { "add_one#1": { add: null, value: 1 }, "add_ten#1": { add: null, value: 2 }, "parity#1": { value: 2 }, "sum#1": { values: [2, 12] } },
      },
      {
        inputs: { add_one: { value: 2 } },
        expectedOutputs: { sum: { total: 17 } },
        expectedCalls: {
          "add_four#1": { add: null, value: 3 },
          "add_one#1": { add: null, value: 2 },
          "add_one_again#1": { add: null, value: 7 },
          "double#1": { value: 3 },
          "parity#1": { value: 3 },
          "sum#1": { values: new AnyOrder([3, 6, 8]) },
        },
      },
    ],
  ));

test("that has multiple branches of different lengths that merge into a component with a single variadic input", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("first_addition", new AddFixedValue({ add: 2 }))
        .addComponent("second_addition", new AddFixedValue({ add: 2 }))
        .addComponent("third_addition", new AddFixedValue({ add: 2 }))
        .addComponent("sum", new Sum())
        .addComponent("fourth_addition", new AddFixedValue({ add: 1 }))
        .connect("first_addition.result", "second_addition.value")
        .connect("first_addition.result", "sum.values")
        .connect("second_addition.result", "sum.values")
        .connect("third_addition.result", "sum.values")
        .connect("sum.total", "fourth_addition.value"),
    [
      {
        inputs: { first_addition: { value: 1 }, third_addition: { value: 1 } },
        expectedOutputs: { fourth_addition: { result: 12 } },
        expectedCalls: {
          "first_addition#1": { add: null, value: 1 },
          "fourth_addition#1": { add: null, value: 11 },
          "second_addition#1": { add: null, value: 3 },
          "sum#1": { values: new AnyOrder([3, 3, 5]) },
          "third_addition#1": { add: null, value: 1 },
        },
      },
    ],
  ));

const linearCalls = { "double#1": { value: 3 }, "first_addition#1": { add: null, value: 1 }, "second_addition#1": { add: null, value: 6 } };

test("that is linear and returns intermediate outputs", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("first_addition", new AddFixedValue({ add: 2 }))
        .addComponent("second_addition", new AddFixedValue())
        .addComponent("double", new Double())
        .connect("first_addition", "double")
        .connect("double", "second_addition"),
    [
      {
        inputs: { first_addition: { value: 1 } },
        includeOutputsFrom: ["second_addition", "double", "first_addition"],
        expectedOutputs: { double: { value: 6 }, first_addition: { result: 3 }, second_addition: { result: 7 } },
        expectedCalls: linearCalls,
      },
      { inputs: { first_addition: { value: 1 } }, includeOutputsFrom: ["double"], expectedOutputs: { double: { value: 6 }, second_addition: { result: 7 } }, expectedCalls: linearCalls },
    ],
  ));

test("that has a loop and returns intermediate outputs from it", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 10 })
        .addComponent("add_one", new AddFixedValue({ add: 1 }))
        .addComponent("branch_joiner", new BranchJoiner({ type_: "int" }))
        .addComponent("below_10", new Threshold({ threshold: 10 }))
        .addComponent("below_5", new Threshold({ threshold: 5 }))
        .addComponent("add_three", new AddFixedValue({ add: 3 }))
        .addComponent("accumulator", new Accumulate())
        .addComponent("add_two", new AddFixedValue({ add: 2 }))
        .connect("add_one.result", "branch_joiner")
        .connect("branch_joiner.value", "below_10.value")
        .connect("below_10.below", "accumulator.value")
        .connect("accumulator.value", "below_5.value")
        .connect("below_5.above", "add_three.value")
        .connect("below_5.below", "branch_joiner")
        .connect("add_three.result", "branch_joiner")
        .connect("below_10.above", "add_two.value"),
    [
      {
        inputs: { add_one: { value: 3 } },
        includeOutputsFrom: ["add_two", "add_one", "branch_joiner", "below_10", "accumulator", "below_5", "add_three"],
        expectedOutputs: {
          add_two: { result: 13 },
          add_one: { result: 4 },
          branch_joiner: { value: 11 },
          below_10: { above: 11 },
          accumulator: { value: 8 },
          below_5: { above: 8 },
          add_three: { result: 11 },
        },
        expectedCalls: {
          "accumulator#1": { value: 4 },
          "accumulator#2": { value: 4 },
          "add_one#1": { add: null, value: 3 },
          "add_three#1": { add: null, value: 8 },
          "add_two#1": { add: null, value: 11 },
          "below_10#1": { threshold: null, value: 4 },
          "below_10#2": { threshold: null, value: 4 },
          "below_10#3": { threshold: null, value: 11 },
          "below_5#1": { threshold: null, value: 4 },
          "below_5#2": { threshold: null, value: 8 },
          "branch_joiner#1": { value: [4] },
          "branch_joiner#2": { value: [4] },
          "branch_joiner#3": { value: [11] },
        },
      },
    ],
  ));

test("that is linear and returns intermediate outputs from multiple sockets", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("first_addition", new AddFixedValue({ add: 2 }))
        .addComponent("second_addition", new AddFixedValue())
        .addComponent("double", componentOf({ value: socket(int) }, { value: int, original: int }, (i) => ({ value: i.value * 2, original: i.value })))
        .connect("first_addition", "double")
        .connect("double.value", "second_addition"),
    [
      {
        inputs: { first_addition: { value: 1 } },
        includeOutputsFrom: ["second_addition", "double", "first_addition"],
        expectedOutputs: { double: { original: 3, value: 6 }, first_addition: { result: 3 }, second_addition: { result: 7 } },
        expectedCalls: linearCalls,
      },
      { inputs: { first_addition: { value: 1 } }, includeOutputsFrom: ["double"], expectedOutputs: { double: { original: 3, value: 6 }, second_addition: { result: 7 } }, expectedCalls: linearCalls },
    ],
  ));

test("that has a component with default inputs that doesn't receive anything from its sender", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent(
          "router",
          new ConditionalRouter({
            routes: [
              { condition: "{{'reisen' in sentence}}", output: "German", output_name: "language_1", output_type: "str" },
              { condition: "{{'viajar' in sentence}}", output: "Spanish", output_name: "language_2", output_type: "str" },
            ],
          }),
        )
        .addComponent("pb", new PromptBuilder({ template: "Ok, I know, that's {{language}}" }))
        .connect("router.language_2", "pb.language"),
    [
      { inputs: { router: { sentence: "Wir mussen reisen" } }, expectedOutputs: { router: { language_1: "German" } }, expectedCalls: { "router#1": { sentence: "Wir mussen reisen" } } },
      {
        inputs: { router: { sentence: "Yo tengo que viajar" } },
        expectedOutputs: { pb: { prompt: "Ok, I know, that's Spanish" } },
        expectedCalls: { "pb#1": { language: "Spanish", template: null, template_variables: null }, "router#1": { sentence: "Yo tengo que viajar" } },
      },
    ],
  ));

const strs = v.array(v.string());
const fakeGenerator = () => componentOf({ prompt: socket(v.string()) }, { replies: strs }, (i) => ({ replies: [i.prompt.includes("no_answer") ? "There's simply no_answer to this question" : "Some SQL query"] }));

test("that has a component with default inputs that doesn't receive anything from its sender but receives input from user", () => {
  const columns = "Age, Absenteeism_time_in_hours, Days, Disciplinary_failure";
  const question = "This is a question with no_answer";
  return check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent(
          "prompt",
          new PromptBuilder({
            template: "Please generate an SQL query. The query should answer the following Question: {{ question }};\nIf the question cannot be answered given the provided table and columns, return 'no_answer'\nThe query is to be answered for the table is called 'absenteeism' with the following\nColumns: {{ columns }};\nAnswer:",
            required_variables: ["question", "columns"],
          }),
        )
        .addComponent("llm", fakeGenerator())
        .addComponent(
          "router",
          new ConditionalRouter({
            routes: [
              { condition: "{{'no_answer' not in replies[0]}}", output: "{{replies[0]}}", output_name: "sql", output_type: "str" },
              { condition: "{{'no_answer' in replies[0]}}", output: "{{question}}", output_name: "go_to_fallback", output_type: "str" },
            ],
          }),
        )
        .addComponent(
          "fallback_prompt",
          new PromptBuilder({
            template: "User entered a query that cannot be answered with the given table.\nThe query was: {{ question }} and the table had columns: {{ columns }}.\nLet the user know why the question cannot be answered",
            required_variables: ["question"],
          }),
        )
        .addComponent("fallback_llm", fakeGenerator())
        .addComponent("sql_querier", componentOf({ query: socket(v.string()) }, { results: v.string() }, (i) => ({ results: "This is the query result", query: i.query })))
        .connect("prompt", "llm")
        .connect("llm.replies", "router.replies")
        .connect("router.sql", "sql_querier.query")
        .connect("router.go_to_fallback", "fallback_prompt.question")
        .connect("fallback_prompt", "fallback_llm"),
    [
      {
        inputs: { prompt: { question, columns }, router: { question } },
        expectedOutputs: { fallback_llm: { replies: ["There's simply no_answer to this question"] } },
        expectedCalls: {
          "fallback_llm#1": { prompt: "User entered a query that cannot be answered with the given table.\nThe query was: This is a question with no_answer and the table had columns: .\nLet the user know why the question cannot be answered" },
          "fallback_prompt#1": { columns: "", question, template: null, template_variables: null },
          "llm#1": {
            prompt:
              "Please generate an SQL query. The query should answer the following Question: This is a question with no_answer;\nIf the question cannot be answered given the provided table and columns, return 'no_answer'\nThe query is to be answered for the table is called 'absenteeism' with the following\nColumns: Age, Absenteeism_time_in_hours, Days, Disciplinary_failure;\nAnswer:",
          },
          "prompt#1": { columns, question, template: null, template_variables: null },
          "router#1": { question, replies: ["There's simply no_answer to this question"] },
        },
      },
    ],
  );
});

const CX = `
You are an experienced and accurate Turkish CX speacialist that classifies customer comments into pre-defined categories below:\n
Negative experience labels:
- Late delivery
- Rotten/spoilt item
- Bad Courier behavior

Positive experience labels:
- Good courier behavior
- Thanks & appreciation
- Love message to courier
- Fast delivery
- Quality of products

Create a JSON object as a response. The fields are: 'positive_experience', 'negative_experience'.
Assign at least one of the pre-defined labels to the given customer comment under positive and negative experience fields.
If the comment has a positive experience, list the label under 'positive_experience' field.
If the comments has a negative_experience, list it under the 'negative_experience' field.
`;

test("that has a loop and a component with default inputs that doesn't receive anything from its sender but receives input from user", () => {
  const template =
    CX +
    "Here is the comment:\n{{ comment }}\n. Just return the category names in the list. If there aren't any, return an empty list.\n\n{%- if invalid_replies and error_message -%}\nYou already created the following output in a previous attempt: {{ invalid_replies }}\nHowever, this doesn't comply with the format requirements from above and triggered this Python exception: {{ error_message }}\nCorrect the output and try again. Just return the corrected output without any extra explanations.\n{%- endif -%}";
  const comment = "I loved the quality of the meal but the courier was rude";
  const first = CX + "Here is the comment:\nI loved the quality of the meal but the courier was rude\n. Just return the category names in the list. If there aren't any, return an empty list.";
  return check(
    () => {
      let called = false;
      return new Pipeline({ maxRunsPerComponent: 2 })
        .addComponent("prompt_builder", new PromptBuilder({ template, required_variables: null }))
        .addComponent("llm", componentOf({ prompt: socket(v.string()) }, { replies: strs }, () => ({ replies: ["This is a valid reply"] })))
        .addComponent(
          "output_validator",
          componentOf({ replies: socket(strs) }, { valid_replies: strs, invalid_replies: v.nullable(strs), error_message: v.nullable(v.string()) }, (i) => {
            if (!called) {
              called = true;
              return { invalid_replies: ["This is an invalid reply"], error_message: "this is an error message" };
            }
            return { valid_replies: i.replies };
          }),
        )
        .connect("prompt_builder.prompt", "llm.prompt")
        .connect("llm.replies", "output_validator.replies")
        .connect("output_validator.invalid_replies", "prompt_builder.invalid_replies")
        .connect("output_validator.error_message", "prompt_builder.error_message");
    },
    [
      {
        inputs: { prompt_builder: { template_variables: { comment } } },
        expectedOutputs: { output_validator: { valid_replies: ["This is a valid reply"] } },
        expectedCalls: {
          "llm#1": { prompt: first },
          "llm#2": {
            prompt:
              first +
              "You already created the following output in a previous attempt: ['This is an invalid reply']\nHowever, this doesn't comply with the format requirements from above and triggered this Python exception: this is an error message\nCorrect the output and try again. Just return the corrected output without any extra explanations.",
          },
          "output_validator#1": { replies: ["This is a valid reply"] },
          "output_validator#2": { replies: ["This is a valid reply"] },
          "prompt_builder#1": { comment: "", error_message: "", invalid_replies: "", template: null, template_variables: { comment } },
          "prompt_builder#2": { comment: "", error_message: "this is an error message", invalid_replies: ["This is an invalid reply"], template: null, template_variables: { comment } },
        },
      },
    ],
  );
});

test("that has multiple components with only default inputs and are added in a different order from the order of execution", () => {
  const doc = new Document({ content: "This is a document" });
  const docs = v.array(v.instance(Document));
  const generator = () => componentOf({ prompt: socket(v.string()), generation_kwargs: socket(v.nullable(v.record(v.string(), v.unknown())), { default: null }) }, { replies: strs, meta: v.record(v.string(), v.unknown()) }, () => ({ replies: ["This is a reply"], meta: { meta_key: "meta_value" } }));
  const reply = "\n    \n    This is a reply\n    \n    ";
  return check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("retriever", componentOf({ query: socket(v.string()), filters: socket(v.nullable(v.record(v.string(), v.unknown())), { default: null }), top_k: socket(v.nullable(int), { default: null }) }, { documents: docs }, () => ({ documents: [doc] })))
        .addComponent("ranker", componentOf({ query: socket(v.string()), documents: socket(docs), top_k: socket(v.nullable(int), { default: null }) }, { documents: docs }, (i) => ({ documents: i.documents })))
        .addComponent("prompt_builder2", new PromptBuilder({ template: "According to these documents:\n\n{% for doc in documents -%}\n{{ doc.content }}\n{%- endfor %}\n\nAnswer the given question: {{question}}\nAnswer:\n" }))
        .addComponent("prompt_builder1", new PromptBuilder({ template: "\n    You are a spellchecking system. Check the given query and fill in the corrected query.\n\n    Question: {{question}}\n    Corrected question:\n    " }))
        .addComponent("prompt_builder3", new PromptBuilder({ template: "\n    {% for ans in replies %}\n    {{ ans }}\n    {% endfor %}\n    " }))
        .addComponent("llm", generator())
        .addComponent("spellchecker", generator())
        .connect("prompt_builder1", "spellchecker")
        .connect("spellchecker.replies", "prompt_builder3")
        .connect("prompt_builder3", "retriever.query")
        .connect("prompt_builder3", "ranker.query")
        .connect("retriever.documents", "ranker.documents")
        .connect("ranker.documents", "prompt_builder2.documents")
        .connect("prompt_builder3", "prompt_builder2.question")
        .connect("prompt_builder2", "llm"),
    [
      {
        inputs: { prompt_builder1: { question: "Wha i Acromegaly?" } },
        expectedOutputs: { llm: { replies: ["This is a reply"], meta: { meta_key: "meta_value" } }, spellchecker: { meta: { meta_key: "meta_value" } } },
        expectedCalls: {
          "llm#1": { generation_kwargs: null, prompt: "According to these documents:\n\nThis is a document\n\nAnswer the given question: \n    \n    This is a reply\n    \n    \nAnswer:" },
          "prompt_builder1#1": { question: "Wha i Acromegaly?", template: null, template_variables: null },
          "prompt_builder2#1": { documents: [doc], question: reply, template: null, template_variables: null },
          "prompt_builder3#1": { replies: ["This is a reply"], template: null, template_variables: null },
          "ranker#1": { documents: [doc], query: reply, top_k: null },
          "retriever#1": { filters: null, query: reply, top_k: null },
          "spellchecker#1": { generation_kwargs: null, prompt: "\n    You are a spellchecking system. Check the given query and fill in the corrected query.\n\n    Question: Wha i Acromegaly?\n    Corrected question:\n    " },
        },
      },
    ],
  );
});

test("that is linear with conditional branching and multiple joins", () => {
  const doc1 = new Document({ content: "This is a document" });
  const doc2 = new Document({ content: "This is another document" });
  const docs = v.array(v.instance(Document));
  const fakeRetriever = () => componentOf({ query: socket(v.string()) }, { documents: docs }, (i) => ({ documents: i.query.includes("injection") ? [] : [doc1] }));
  // Haystack's MockTextEmbedder: a fixed embedding, usage counted in words.
  const mockEmbedder = () => componentOf({ text: socket(v.string()) }, { embedding: v.array(v.number()), meta: v.record(v.string(), v.unknown()) }, (i) => {
    const words = i.text.split(/\s+/).filter(Boolean).length;
    return { embedding: [1.0, 2.0, 3.0], meta: { model: "mock-model", usage: { prompt_tokens: words, total_tokens: words } } };
  });
  return check(
    () =>
      new Pipeline()
        .addComponent("router", componentOf({ query: socket(v.string()) }, { LEGIT: v.string(), INJECTION: v.string() }, (i) => (i.query.includes("injection") ? { INJECTION: i.query } : { LEGIT: i.query })))
        .addComponent("text_embedder", mockEmbedder())
        .addComponent("retriever", componentOf({ query_embedding: socket(v.array(v.number())) }, { documents: docs }, () => ({ documents: [doc2] })))
        .addComponent("emptyretriever", fakeRetriever())
        .addComponent("joinerfinal", new DocumentJoiner())
        .addComponent("joinerhybrid", new DocumentJoiner())
        .addComponent("ranker", componentOf({ query: socket(v.string()), documents: socket(docs) }, { documents: docs }, (i) => ({ documents: i.documents })))
        .addComponent("bm25retriever", fakeRetriever())
        .connect("router.INJECTION", "emptyretriever.query")
        .connect("router.LEGIT", "text_embedder.text")
        .connect("text_embedder", "retriever.query_embedding")
        .connect("router.LEGIT", "ranker.query")
        .connect("router.LEGIT", "bm25retriever.query")
        .connect("bm25retriever", "joinerhybrid.documents")
        .connect("retriever", "joinerhybrid.documents")
        .connect("joinerhybrid.documents", "ranker.documents")
        .connect("ranker", "joinerfinal.documents")
        .connect("emptyretriever", "joinerfinal.documents"),
    [
      {
        inputs: { router: { query: "I'm a legit question" } },
        expectedOutputs: { text_embedder: { meta: { model: "mock-model", usage: { prompt_tokens: 4, total_tokens: 4 } } }, joinerfinal: { documents: [doc1, doc2] } },
        expectedCalls: {
          "router#1": { query: "I'm a legit question" },
          "text_embedder#1": { text: "I'm a legit question" },
          "bm25retriever#1": { query: "I'm a legit question" },
          "retriever#1": { query_embedding: [1.0, 2.0, 3.0] },
          "joinerhybrid#1": { documents: new AnyOrder([[doc1], [doc2]]), top_k: null },
          "ranker#1": { query: "I'm a legit question", documents: [doc1, doc2] },
          "joinerfinal#1": { documents: [[doc1, doc2]], top_k: null },
        },
      },
      {
        inputs: { router: { query: "I'm a nasty prompt injection" } },
        expectedOutputs: { joinerfinal: { documents: [] } },
        expectedCalls: { "router#1": { query: "I'm a nasty prompt injection" }, "emptyretriever#1": { query: "I'm a nasty prompt injection" }, "joinerfinal#1": { documents: [[]], top_k: null } },
      },
    ],
  );
});

/** Haystack's ConditionalDocumentCreator: a document when asked, else `noop`. */
const creator = (content: string) =>
  componentOf({ create_document: socket(v.boolean(), { default: false }) }, { documents: v.array(v.instance(Document)), noop: v.null() }, (i) => (i.create_document ? { documents: [new Document({ id: content, content })] } : { noop: null }));

for (const [title, order] of [
  ["that has a variadic component that receives partial inputs", ["first", "second", "third"]],
  ["that has a variadic component that receives partial inputs in a different order", ["third", "first", "second"]],
] as const) {
  test(title, () => {
    const doc = (n: string) => new Document({ id: `${n} document`, content: `${n} document` });
    const [doc1, doc2, doc3] = [doc("First"), doc("Second"), doc("Third")];
    return check(
      () => {
        const p = new Pipeline({ maxRunsPerComponent: 1 });
        for (const name of order) p.addComponent(`${name}_creator`, creator(`${name[0]!.toUpperCase()}${name.slice(1)} document`));
        return p
          .addComponent("documents_joiner", new DocumentJoiner())
          .connect("first_creator.documents", "documents_joiner.documents")
          .connect("second_creator.documents", "documents_joiner.documents")
          .connect("third_creator.documents", "documents_joiner.documents");
      },
      [
        {
          inputs: { first_creator: { create_document: true }, third_creator: { create_document: true } },
          expectedOutputs: { second_creator: { noop: null }, documents_joiner: { documents: [doc1, doc3] } },
          expectedCalls: { "documents_joiner#1": { documents: [[doc1], [doc3]], top_k: null }, "first_creator#1": { create_document: true }, "second_creator#1": { create_document: false }, "third_creator#1": { create_document: true } },
        },
        {
          inputs: { first_creator: { create_document: true }, second_creator: { create_document: true } },
          expectedOutputs: { third_creator: { noop: null }, documents_joiner: { documents: [doc1, doc2] } },
          expectedCalls: { "documents_joiner#1": { documents: [[doc1], [doc2]], top_k: null }, "first_creator#1": { create_document: true }, "second_creator#1": { create_document: true }, "third_creator#1": { create_document: false } },
        },
      ],
    );
  });
}

test("that has a cycle that would get it stuck → PipelineComponentsBlockedError", () =>
  checkRaises(
    () => {
      let called = false;
      return new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent(
          "prompt_builder",
          new PromptBuilder({
            template:
              "Here is the comment: {{ comment }}\n\n{% if invalid_replies and error_message %}\nYou already created the following output in a previous attempt: {{ invalid_replies }}\nHowever, this doesn't comply with the format requirements from above and triggered this Python exception: {{ error_message }}\nCorrect the output and try again.\n{% endif %}",
            required_variables: ["comment", "invalid_replies", "error_message"],
          }),
        )
        .addComponent("llm", componentOf({ prompt: socket(v.string()) }, { replies: strs }, () => ({ replies: ["This is a valid reply"] })))
        .addComponent(
          "output_validator",
          componentOf({ replies: socket(strs) }, { valid_replies: strs, invalid_replies: strs, error_message: v.string() }, (i) => {
            if (!called) {
              called = true;
              return { invalid_replies: ["This is an invalid reply"], error_message: "this is an error message" };
            }
            return { valid_replies: i.replies };
          }),
        )
        .connect("prompt_builder.prompt", "llm.prompt")
        .connect("llm.replies", "output_validator.replies")
        .connect("output_validator.invalid_replies", "prompt_builder.invalid_replies")
        .connect("output_validator.error_message", "prompt_builder.error_message");
    },
    { prompt_builder: { comment: "I loved the quality of the meal but the courier was rude" } },
    "PipelineComponentsBlockedError",
  ));

test("that has a string variadic component", () => {
  const [q1, q2] = ["What's Natural Language Processing?", "What's is life?"];
  const joined = ["Builder 1: What's Natural Language Processing?", "Builder 2: What's is life?"];
  return check(
    () =>
      new Pipeline()
        .addComponent("prompt_builder_1", new PromptBuilder({ template: "Builder 1: {{query}}" }))
        .addComponent("prompt_builder_2", new PromptBuilder({ template: "Builder 2: {{query}}" }))
        // haystack.components.joiners.StringJoiner: a variadic `strings` socket, the strings as a list.
        .addComponent("string_joiner", componentOf({ strings: variadic(v.string()) }, { strings: strs }, (i) => ({ strings: i.strings })))
        .connect("prompt_builder_1.prompt", "string_joiner.strings")
        .connect("prompt_builder_2.prompt", "string_joiner.strings"),
    [
      {
        inputs: { prompt_builder_1: { query: q1 }, prompt_builder_2: { query: q2 } },
        expectedOutputs: { string_joiner: { strings: joined } },
        expectedCalls: {
          "prompt_builder_1#1": { query: q1, template: null, template_variables: null },
          "prompt_builder_2#1": { query: q2, template: null, template_variables: null },
          "string_joiner#1": { strings: new AnyOrder(joined) },
        },
      },
    ],
  );
});

const PARROT = "Parrot doesn't only parrot!";

test("with a component that has dynamic default inputs", () =>
  check(
    () => new Pipeline().addComponent("parrot", componentOf({ parrot: socket(v.string(), { default: PARROT }) }, { response: v.string() }, (i) => ({ response: i.parrot }))),
    [
      { inputs: { parrot: { parrot: "Are you a parrot?" } }, expectedOutputs: { parrot: { response: "Are you a parrot?" } }, expectedCalls: { "parrot#1": { parrot: "Are you a parrot?" } } },
      { inputs: {}, expectedOutputs: { parrot: { response: PARROT } }, expectedCalls: { "parrot#1": { parrot: PARROT } } },
    ],
  ));

test("with a component that has variadic dynamic default inputs", () =>
  check(
    () => new Pipeline({ maxRunsPerComponent: 1 }).addComponent("parrot", componentOf({ parrot: { ...variadic(v.string()), default: PARROT, optional: true } }, { response: strs }, (i) => ({ response: i.parrot }))),
    [
      { inputs: { parrot: { parrot: "Are you a parrot?" } }, expectedOutputs: { parrot: { response: ["Are you a parrot?"] } }, expectedCalls: { "parrot#1": { parrot: ["Are you a parrot?"] } } },
      { inputs: {}, expectedOutputs: { parrot: { response: [PARROT] } }, expectedCalls: { "parrot#1": { parrot: [PARROT] } } },
    ],
  ));

test("that has a loop in the middle", () => {
  const question = "What is the answer?";
  return check(
    () => {
      let firstRun = true;
      return new Pipeline({ maxRunsPerComponent: 2 })
        .addComponent("prompt_cleaner", componentOf({ prompt: socket(v.string()) }, { clean_prompt: v.string() }, (i) => ({ clean_prompt: i.prompt.trim() })))
        .addComponent("prompt_builder", new PromptBuilder({ template: "", variables: ["question", "invalid_replies"], required_variables: ["question"] }))
        .addComponent(
          "llm",
          componentOf({ prompt: socket(v.string()) }, { replies: strs }, () => {
            const reply = firstRun ? "No answer" : "42";
            firstRun = false;
            return { replies: [reply] };
          }),
        )
        .addComponent(
          "answer_validator",
          new ConditionalRouter({
            routes: [
              { condition: "{{ 'No answer' in replies }}", output: "{{ replies }}", output_name: "invalid_replies", output_type: "list[str]" },
              { condition: "{{ 'No answer' not in replies }}", output: "{{ replies }}", output_name: "valid_replies", output_type: "list[str]" },
            ],
          }),
        )
        .addComponent("answer_builder", new AnswerBuilder())
        .connect("prompt_cleaner.clean_prompt", "prompt_builder.template")
        .connect("prompt_builder.prompt", "llm.prompt")
        .connect("llm.replies", "answer_validator.replies")
        .connect("answer_validator.invalid_replies", "prompt_builder.invalid_replies")
        .connect("answer_validator.valid_replies", "answer_builder.replies");
    },
    [
      {
        inputs: { prompt_cleaner: { prompt: "Random template" }, prompt_builder: { question }, answer_builder: { query: question } },
        expectedOutputs: { answer_builder: { answers: [new GeneratedAnswer("42", question, [], { all_messages: ["42"] })] } },
        expectedCalls: {
          "answer_builder#1": { documents: null, meta: null, pattern: null, query: question, expand_reference_ranges: null, reference_pattern: null, replies: ["42"] },
          "answer_validator#1": { replies: ["No answer"] },
          "answer_validator#2": { replies: ["42"] },
          "llm#1": { prompt: "Random template" },
          "llm#2": { prompt: "" },
          "prompt_builder#1": { invalid_replies: "", question, template: "Random template", template_variables: null },
          "prompt_builder#2": { invalid_replies: ["No answer"], question, template: null, template_variables: null },
          "prompt_cleaner#1": { prompt: "Random template" },
        },
      },
    ],
  );
});

test("that has variadic component that receives a conditional input", () => {
  const docsSchema = v.array(v.instance(Document));
  const d = (id: string, content: string) => new Document({ id, content });
  const document = d("1000", "This document has so many, sentences. Like this one, or this one. Or even this other one.");
  const split = (from: number) => [d(`${from}`, "This document has so many"), d(`${from + 1}`, " sentences. Like this one"), d(`${from + 2}`, " or this one. Or even this other one.")];
  const cleaned = (from: number) => [d(`${from}`, "This document has so many"), d(`${from + 1}`, "sentences. Like this one"), d(`${from + 2}`, "or this one. Or even this other one.")];
  const noop = () => componentOf({ documents: socket(docsSchema) }, { documents: docsSchema }, (i) => ({ documents: i.documents }));
  return check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent(
          "conditional_router",
          new ConditionalRouter({
            routes: [
              { condition: "{{ documents|length > 1 }}", output: "{{ documents }}", output_name: "long", output_type: "list[haystack.dataclasses.Document]" },
              { condition: "{{ documents|length <= 1 }}", output: "{{ documents }}", output_name: "short", output_type: "list[haystack.dataclasses.Document]" },
            ],
            unsafe: true,
          }),
        )
        .addComponent("empty_lines_cleaner", new DocumentCleaner({ remove_empty_lines: true, remove_extra_whitespaces: false, keep_id: true }))
        .addComponent(
          "comma_splitter",
          componentOf({ documents: socket(docsSchema) }, { documents: docsSchema }, (i) => {
            let id = 0;
            return { documents: (i.documents as Document[]).flatMap((doc) => (doc.content === null ? [] : doc.content.split(",").map((content) => d(String(id++), content)))) };
          }),
        )
        .addComponent("document_cleaner", new DocumentCleaner({ keep_id: true }))
        .addComponent("document_joiner", new DocumentJoiner())
        .addComponent("noop2", noop())
        .addComponent("noop3", noop())
        .connect("noop2", "noop3")
        .connect("noop3", "conditional_router")
        .connect("conditional_router.long", "empty_lines_cleaner")
        .connect("empty_lines_cleaner", "document_joiner")
        .connect("comma_splitter", "document_cleaner")
        .connect("document_cleaner", "document_joiner")
        .connect("comma_splitter", "document_joiner"),
    [
      {
        inputs: { noop2: { documents: [document] }, comma_splitter: { documents: [document] } },
        expectedOutputs: { conditional_router: { short: [document] }, document_joiner: { documents: split(0) } },
        expectedCalls: {
          "comma_splitter#1": { documents: [document] },
          "conditional_router#1": { documents: [document] },
          "document_cleaner#1": { documents: split(0) },
          "document_joiner#1": { documents: [split(0), cleaned(0)], top_k: null },
          "noop2#1": { documents: [document] },
          "noop3#1": { documents: [document] },
        },
      },
      {
        inputs: { noop2: { documents: [document, document] }, comma_splitter: { documents: [document, document] } },
        expectedOutputs: { document_joiner: { documents: [...split(0), ...split(3), document] } },
        expectedCalls: {
          "comma_splitter#1": { documents: [document, document] },
          "conditional_router#1": { documents: [document, document] },
          "document_cleaner#1": { documents: [...split(0), ...split(3)] },
          "document_joiner#1": { documents: [[...split(0), ...split(3)], [...cleaned(0), ...cleaned(3)], [document, document]], top_k: null },
          "empty_lines_cleaner#1": { documents: [document, document] },
          "noop2#1": { documents: [document, document] },
          "noop3#1": { documents: [document, document] },
        },
      },
    ],
  );
});

// Skipped: "that has components returning dataframes" passes pandas DataFrames between components (Python-only).

test("where a single component connects multiple sockets to the same receiver socket", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("joiner", new BranchJoiner({ type_: "str" }))
        .addComponent(
          "router",
          new ConditionalRouter({
            routes: [
              { condition: "{{query == 'route_1'}}", output: "{{query}}", output_name: "route_1", output_type: "str" },
              { condition: "{{query == 'route_2'}}", output: "{{query}}", output_name: "route_2", output_type: "str" },
            ],
          }),
        )
        .connect("router.route_1", "joiner.value")
        .connect("router.route_2", "joiner.value"),
    [{ inputs: { router: { query: "route_1" } }, expectedOutputs: { joiner: { value: "route_1" } }, expectedCalls: { "router#1": { query: "route_1" }, "joiner#1": { value: ["route_1"] } } }],
  ));

test("where a component in a cycle provides inputs for a component outside the cycle in one iteration and no input in another iteration", () => {
  const it = (n: number) => "iteration".repeat(n);
  return check(
    () =>
      new Pipeline({ maxRunsPerComponent: 2 })
        .addComponent("joiner", new BranchJoiner({ type_: "str" }))
        .addComponent(
          "router",
          new ConditionalRouter({
            routes: [
              { condition: "{{query == 'iterationiterationiterationiteration'}}", output: "{{query}}", output_name: "exit", output_type: "str" },
              { condition: "{{query != 'iterationiterationiterationiteration'}}", output: "{{query}}", output_name: "continue", output_type: "str" },
            ],
          }),
        )
        .addComponent("builder", new PromptBuilder({ template: "{{query ~ query}}" }))
        .addComponent("outside_builder", new PromptBuilder({ template: "{{cycle_output ~ delayed_input}}", required_variables: ["cycle_output", "delayed_input"] }))
        .addComponent(
          "outside_router",
          new ConditionalRouter({
            routes: [
              { condition: "{{query == 'iterationiteration'}}", output: "{{query}}", output_name: "cycle_output", output_type: "str" },
              { condition: "{{query != 'iterationiteration'}}", output: "{{query}}", output_name: "no_output", output_type: "str" },
            ],
          }),
        )
        .connect("joiner.value", "builder.query")
        .connect("builder.prompt", "router.query")
        .connect("router.continue", "joiner.value")
        .connect("builder.prompt", "outside_router.query")
        .connect("outside_router.cycle_output", "outside_builder.cycle_output")
        .connect("router.exit", "outside_builder.delayed_input"),
    [
      {
        inputs: { joiner: { value: "iteration" } },
        expectedOutputs: { outside_builder: { prompt: it(6) }, outside_router: { no_output: it(4) } },
        expectedCalls: {
          "joiner#1": { value: [it(1)] },
          "builder#1": { query: it(1), template: null, template_variables: null },
          "router#1": { query: it(2) },
          "outside_router#1": { query: it(2) },
          "joiner#2": { value: [it(2)] },
          "builder#2": { query: it(2), template: null, template_variables: null },
          "router#2": { query: it(4) },
          "outside_router#2": { query: it(4) },
          "outside_builder#1": { cycle_output: it(2), template: null, template_variables: null, delayed_input: it(4) },
        },
      },
    ],
  );
});

test("that is blocked because not enough component inputs", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent(
          "router",
          new ConditionalRouter({
            routes: [
              { condition: "{{streams|length < 2}}", output: "{{query}}", output_type: "str", output_name: "query" },
              { condition: "{{streams|length >= 2}}", output: "{{streams}}", output_type: "list[int]", output_name: "streams" },
            ],
          }),
        )
        .addComponent("payload_builder", componentOf({ streams: socket(v.array(int)), query: socket(v.string()) }, { payload: v.record(v.string(), v.unknown()) }, (i) => ({ payload: { streams: i.streams, query: i.query } })))
        .connect("router.streams", "payload_builder.streams")
        .connect("router.query", "payload_builder.query"),
    [{ inputs: { router: { streams: [1, 2, 3], query: "Haystack" } }, expectedOutputs: {}, expectedCalls: { "router#1": { streams: [1, 2, 3], query: "Haystack" } } }],
  ));

test("that has a component with only default inputs", () => {
  const query = "What is the capital of France?";
  const paris = (meta?: Record<string, unknown>) => new Document({ id: "413dccdf51a54cca75b7ed2eddac04e6e58560bd2f0caf4106a3efc023fe3651", content: "Paris is the capital of France", score: 1.7780417596697045, ...(meta ? { meta } : {}) });
  const rome = (meta?: Record<string, unknown>) => new Document({ id: "a4a874fc2ef75015da7924d709fbdd2430e46a8e94add6e0f26cd32c1c03435d", content: "Rome is the capital of Italy", score: 1.3448247718197388, ...(meta ? { meta } : {}) });
  return check(
    () => {
      const store = new InMemoryDocumentStore({ shared: false });
      store.write_documents([new Document({ content: "Rome is the capital of Italy" }), new Document({ content: "Paris is the capital of France" })]);
      return new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("retriever", new InMemoryBM25Retriever({ document_store: store }))
        .addComponent("prompt_builder", new PromptBuilder({ template: "Given the following information, answer the question.\nContext:\n{% for document in documents %}    {{ document.content }}\n{% endfor %}Question: {{ query }}" }))
        .addComponent("generator", componentOf({ prompt: socket(v.string()) }, { replies: strs }, () => ({ replies: ["Paris"] })))
        .addComponent("answer_builder", new AnswerBuilder())
        .connect("retriever", "prompt_builder.documents")
        .connect("prompt_builder.prompt", "generator.prompt")
        .connect("generator.replies", "answer_builder.replies")
        .connect("retriever.documents", "answer_builder.documents");
    },
    [
      {
        inputs: { query },
        expectedOutputs: { answer_builder: { answers: [new GeneratedAnswer("Paris", query, [paris({ source_index: 1 }), rome({ source_index: 2 })], { all_messages: ["Paris"] })] } },
        expectedCalls: {
          "answer_builder#1": { documents: [paris(), rome()], meta: null, pattern: null, query, expand_reference_ranges: null, reference_pattern: null, replies: ["Paris"] },
          "generator#1": { prompt: "Given the following information, answer the question.\nContext:\n    Paris is the capital of France\n    Rome is the capital of Italy\nQuestion: What is the capital of France?" },
          "prompt_builder#1": { documents: [paris(), rome()], query, template: null, template_variables: null },
          "retriever#1": { filters: null, query, scale_score: null, top_k: null },
        },
      },
    ],
  );
});

test("that has a component with only default inputs as first to run and receives inputs from a loop", () => {
  const question = "What is the capital of Italy?";
  return check(
    () => {
      let called = false;
      return new Pipeline({ maxRunsPerComponent: 2 })
        .addComponent(
          "prompt_builder",
          new PromptBuilder({
            template: "Answer the following question.\n{% if previous_replies %}\nPreviously you replied incorrectly this:\n{% for reply in previous_replies %}\n - {{ reply }}\n{% endfor %}\n{% endif %}\nQuestion: {{ query }}",
            required_variables: ["query"],
          }),
        )
        .addComponent(
          "generator",
          componentOf({ prompt: socket(v.string()), generation_kwargs: socket(v.nullable(v.record(v.string(), v.unknown())), { default: null }) }, { replies: strs }, () => {
            const replies = called ? ["Rome"] : ["Paris"];
            called = true;
            return { replies };
          }),
        )
        .addComponent(
          "router",
          new ConditionalRouter({
            routes: [
              { condition: "{{ replies == ['Rome'] }}", output: "{{ replies }}", output_name: "correct_replies", output_type: "list[int]" },
              { condition: "{{ replies == ['Paris'] }}", output: "{{ replies }}", output_name: "incorrect_replies", output_type: "list[int]" },
            ],
          }),
        )
        .connect("prompt_builder.prompt", "generator.prompt")
        .connect("generator.replies", "router.replies")
        .connect("router.incorrect_replies", "prompt_builder.previous_replies");
    },
    [
      {
        inputs: { prompt_builder: { query: question } },
        expectedOutputs: { router: { correct_replies: ["Rome"] } },
        expectedCalls: {
          "generator#1": { generation_kwargs: null, prompt: "Answer the following question.\n\nQuestion: What is the capital of Italy?" },
          "generator#2": { generation_kwargs: null, prompt: "Answer the following question.\n\nPreviously you replied incorrectly this:\n\n - Paris\n\n\nQuestion: What is the capital of Italy?" },
          "prompt_builder#1": { previous_replies: "", query: question, template: null, template_variables: null },
          "prompt_builder#2": { previous_replies: ["Paris"], query: question, template: null, template_variables: null },
          "router#1": { replies: ["Paris"] },
          "router#2": { replies: ["Rome"] },
        },
      },
    ],
  );
});

test("that has a greedy and variadic component after a component with default input", () => {
  const doc = new Document({ id: "328f0cbb6722c5cfa290aa2b78bcda8dc5afa09f0e2c23092afc502ba89c85e7", content: "This is a simple document", score: 0.7192051811294521 });
  const query = "This is my question";
  return check(
    () => {
      const store = new InMemoryDocumentStore({ shared: false });
      store.write_documents([new Document({ content: "This is a simple document" })]);
      return new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("retriever", new InMemoryBM25Retriever({ document_store: store }))
        .addComponent("prompt_builder", new PromptBuilder({ template: "Given this documents: {{ documents|join(', ', attribute='content') }} Answer this question: {{ query }}" }))
        .addComponent("branch_joiner", new BranchJoiner({ type_: "list[haystack.dataclasses.Document]" }))
        .connect("retriever", "branch_joiner")
        .connect("branch_joiner", "prompt_builder.documents");
    },
    [
      {
        inputs: { query },
        expectedOutputs: { prompt_builder: { prompt: "Given this documents: This is a simple document Answer this question: This is my question" } },
        expectedCalls: {
          "branch_joiner#1": { value: [[doc]] },
          "prompt_builder#1": { documents: [doc], query, template: null, template_variables: null },
          "retriever#1": { filters: null, query, scale_score: null, top_k: null },
        },
      },
    ],
  );
});

test("that is linear and a component in the middle receives optional input from other components and input from the user", () => {
  const doc = (id: string, content: string, meta: Record<string, unknown>, score?: number) => new Document({ id, content, meta, ...(score === undefined ? {} : { score }) });
  const documents = [
    doc("doc1", "some publication about Alzheimer prevention research done over 2023 patients study", { year: 2022, disease: "Alzheimer", author: "Michael Butter" }),
    doc("doc2", "some text about investigation and treatment of Alzheimer disease", { year: 2023, disease: "Alzheimer", author: "John Bread" }),
    doc("doc3", "A study on the effectiveness of new therapies for Parkinson's disease", { year: 2022, disease: "Parkinson", author: "Alice Smith" }),
    doc("doc4", "An overview of the latest research on the genetics of Parkinson's disease and its implications for treatment", { year: 2023, disease: "Parkinson", author: "David Jones" }),
  ];
  const found = doc("doc2", "some text about investigation and treatment of Alzheimer disease", { year: 2023, disease: "Alzheimer", author: "John Bread" }, 4.148111588215998);
  const query = "publications 2023 Alzheimer's disease";
  return check(
    () => {
      const store = new InMemoryDocumentStore({ shared: false, bm25_algorithm: "BM25Plus" });
      store.write_documents(documents, "overwrite");
      return new Pipeline()
        .addComponent("builder", new PromptBuilder({ template: '{"disease": "Alzheimer", "year": 2023}' }))
        .addComponent(
          "metadata_extractor",
          componentOf({ prompt: socket(v.string()) }, { filters: v.record(v.string(), v.unknown()) }, (i) => ({
            filters: { operator: "AND", conditions: Object.entries(JSON.parse(i.prompt) as Record<string, unknown>).map(([key, value]) => ({ field: `meta.${key}`, operator: "==", value })) },
          })),
        )
        .addComponent("retriever", new InMemoryBM25Retriever({ document_store: store }))
        .addComponent("document_joiner", new DocumentJoiner())
        .connect("builder.prompt", "metadata_extractor.prompt")
        .connect("metadata_extractor.filters", "retriever.filters")
        .connect("retriever.documents", "document_joiner.documents");
    },
    [
      {
        inputs: { retriever: { query } },
        expectedOutputs: { document_joiner: { documents: [found] } },
        expectedCalls: {
          "builder#1": { template: null, template_variables: null },
          "document_joiner#1": { documents: [[found]], top_k: null },
          "metadata_extractor#1": { prompt: '{"disease": "Alzheimer", "year": 2023}' },
          "retriever#1": {
            filters: { conditions: [{ field: "meta.disease", operator: "==", value: "Alzheimer" }, { field: "meta.year", operator: "==", value: 2023 }], operator: "AND" },
            query,
            scale_score: null,
            top_k: null,
          },
        },
      },
    ],
  );
});

/** Haystack's FixedGenerator (features/conftest.py): the replies in turn, one per call, then again. */
const fixedGenerator = (replies: string[]) => {
  let idx = 0;
  return componentOf({ prompt: socket(v.string()) }, { replies: strs }, () => ({ replies: [replies[idx++ % replies.length]!] }));
};

test("that passes outputs that are consumed in cycle to outside the cycle", () => {
  const validResponse = "\ndef generate_santa_sleigh():\n    '''\n    Returns ASCII art of Santa Claus on his sleigh with Rudolph leading the way.\n    '''\n    # implementation goes here.\n    return art\n    ";
  const task = "Generate code to generate christmas ascii-art";
  const second = "Generate code to generate christmas ascii-art\ninvalid code\nFAIL";
  const expectedPrompt = "Generate code to generate christmas ascii-art\ninvalid code\nFAIL\ninvalid code\nFAIL, come on, try again.";
  const feedback = (code: string) => `\nCheck if this code is valid and can run: ${code}\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n    `;
  return check(
    () =>
      new Pipeline({ maxRunsPerComponent: 3 })
        .addComponent("concatenator", new OutputAdapter({ template: "{{code_prompt + '\n' + generated_code[0] + '\n' + feedback}}", output_type: "str" }))
        .addComponent("code_llm", fixedGenerator(["invalid code", "invalid code", validResponse]))
        .addComponent("code_prompt", new PromptBuilder({ template: "{{task}}" }))
        .addComponent("feedback_prompt", new PromptBuilder({ template: '\nCheck if this code is valid and can run: {{ code[0] }}\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n    ' }))
        .addComponent("feedback_llm", fixedGenerator(["FAIL", "FAIL, come on, try again.", "PASS"]))
        .addComponent(
          "router",
          new ConditionalRouter({
            routes: [
              { condition: "{{ 'FAIL' in replies[0] }}", output: "{{ replies[0] }}", output_name: "fail", output_type: "str" },
              { condition: "{{ 'PASS' in replies[0] }}", output: "{{ code }}", output_name: "pass", output_type: "list[str]" },
            ],
          }),
        )
        .addComponent("joiner", new BranchJoiner({ type_: "str" }))
        .addComponent(
          "answer_builder",
          componentOf({ replies: socket(strs), query: socket(v.string()), prompt: socket(v.nullable(v.string()), { default: null }) }, { answers: v.array(v.instance(GeneratedAnswer)) }, (i) => {
            const meta: Record<string, unknown> = { all_messages: i.replies };
            if (i.prompt !== null) meta.prompt = i.prompt;
            return { answers: [new GeneratedAnswer(i.replies[0], i.query, [], meta)] };
          }),
        )
        .connect("concatenator.output", "joiner.value")
        .connect("joiner.value", "code_prompt.task")
        .connect("code_prompt.prompt", "code_llm.prompt")
        .connect("code_prompt.prompt", "concatenator.code_prompt")
        .connect("code_llm.replies", "feedback_prompt.code")
        .connect("feedback_llm.replies", "router.replies")
        .connect("router.fail", "concatenator.feedback")
        .connect("feedback_prompt.prompt", "feedback_llm.prompt")
        .connect("router.pass", "answer_builder.replies")
        .connect("code_llm.replies", "router.code")
        .connect("code_llm.replies", "concatenator.generated_code")
        .connect("concatenator.output", "answer_builder.prompt"),
    [
      {
        inputs: { joiner: { value: task }, answer_builder: { query: task } },
        expectedOutputs: { answer_builder: { answers: [new GeneratedAnswer(validResponse, task, [], { prompt: expectedPrompt, all_messages: [validResponse] })] } },
        expectedCalls: {
          "answer_builder#1": { prompt: expectedPrompt, query: task, replies: [validResponse] },
          "code_llm#1": { prompt: task },
          "code_llm#2": { prompt: second },
          "code_llm#3": { prompt: expectedPrompt },
          "code_prompt#1": { task, template: null, template_variables: null },
          "code_prompt#2": { task: second, template: null, template_variables: null },
          "code_prompt#3": { task: expectedPrompt, template: null, template_variables: null },
          "concatenator#1": { code_prompt: task, feedback: "FAIL", generated_code: ["invalid code"] },
          "concatenator#2": { code_prompt: second, feedback: "FAIL, come on, try again.", generated_code: ["invalid code"] },
          "feedback_llm#1": { prompt: feedback("invalid code") },
          "feedback_llm#2": { prompt: feedback("invalid code") },
          "feedback_llm#3": { prompt: feedback(validResponse) },
          "feedback_prompt#1": { code: ["invalid code"], template: null, template_variables: null },
          "feedback_prompt#2": { code: ["invalid code"], template: null, template_variables: null },
          "feedback_prompt#3": { code: [validResponse], template: null, template_variables: null },
          "joiner#1": { value: [task] },
          "joiner#2": { value: [second] },
          "joiner#3": { value: [expectedPrompt] },
          "router#1": { code: ["invalid code"], replies: ["FAIL"] },
          "router#2": { code: ["invalid code"], replies: ["FAIL, come on, try again."] },
          "router#3": { code: [validResponse], replies: ["PASS"] },
        },
      },
    ],
  );
});

const FEEDBACK_TEMPLATE = '\nCheck if this code is valid and can run: {{ code[0] }}\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n    ';
const feedbackPrompt = (code: string) => `\nCheck if this code is valid and can run: ${code}\nReturn "PASS" if it passes and "FAIL" if it fails.\nProvide additional feedback on why it fails.\n    `;
const CODE_ROUTES = [
  { condition: "{{ 'FAIL' in replies[0] }}", output: "{{ replies[0] }}", output_name: "fail", output_type: "str" },
  { condition: "{{ 'PASS' in replies[0] }}", output: "{{ code }}", output_name: "pass", output_type: "list[str]" },
];

// The same loop, its components added in execution order, and (Haystack's second scenario) in a
// non-standard order with at most 2 runs each: the same calls and answer.
for (const [title, maxRuns, concatenatorFirst] of [
  ["that has a feedback loop", 100, false],
  ["created in a non-standard order that has a loop", 2, true],
] as const)
test(title, () => {
  const task = "Generate code to generate christmas ascii-art";
  const codePrompt = (feedback: string) => `\nGenerate code to solve the task: ${task}\n\n${feedback}\n    `;
  return check(
    () =>
    {
      const p = new Pipeline({ maxRunsPerComponent: maxRuns });
      const concatenator = () => p.addComponent("concatenator", new OutputAdapter({ template: "{{current_prompt[0] + '\n' + feedback[0]}}", output_type: "str" }));
      if (concatenatorFirst) concatenator();
      p.addComponent("code_llm", fixedGenerator(["invalid code", "valid code"]))
        .addComponent("code_prompt", new PromptBuilder({ template: "\nGenerate code to solve the task: {{ task }}\n\n{% if feedback %}\nHere is your initial attempt and some feedback:\n{{ feedback }}\n{% endif %}\n    ", required_variables: ["task"] }))
        .addComponent("feedback_prompt", new PromptBuilder({ template: FEEDBACK_TEMPLATE, required_variables: ["code"] }))
        .addComponent("feedback_llm", fixedGenerator(["FAIL", "PASS"]))
        .addComponent("router", new ConditionalRouter({ routes: CODE_ROUTES }));
      if (!concatenatorFirst) concatenator();
      p.addComponent("answer_builder", new AnswerBuilder());
      const connections: [string, string][] = [
        ["code_prompt.prompt", "code_llm.prompt"],
        ["code_llm.replies", "feedback_prompt.code"],
        ["feedback_llm.replies", "router.replies"],
        ["router.fail", "concatenator.feedback"],
        ["router.pass", "answer_builder.replies"],
        ["code_llm.replies", "router.code"],
        ["feedback_prompt.prompt", "feedback_llm.prompt"],
        ["code_llm.replies", "concatenator.current_prompt"],
        ["concatenator.output", "code_prompt.feedback"],
      ];
      // The non-standard scenario connects the loop's closing edge first.
      if (concatenatorFirst) connections.unshift(connections.pop()!);
      for (const [from, to] of connections) p.connect(from, to);
      return p;
    },
    [
      {
        inputs: { code_prompt: { task }, answer_builder: { query: task } },
        expectedOutputs: { answer_builder: { answers: [new GeneratedAnswer("valid code", task, [], { all_messages: ["valid code"] })] } },
        expectedCalls: {
          "answer_builder#1": { documents: null, meta: null, pattern: null, query: task, expand_reference_ranges: null, reference_pattern: null, replies: ["valid code"] },
          "code_llm#1": { prompt: codePrompt("") },
          "code_llm#2": { prompt: codePrompt("\nHere is your initial attempt and some feedback:\ninvalid code\nF\n") },
          "code_prompt#1": { feedback: "", task, template: null, template_variables: null },
          "code_prompt#2": { feedback: "invalid code\nF", task, template: null, template_variables: null },
          "concatenator#1": { current_prompt: ["invalid code"], feedback: "FAIL" },
          "feedback_llm#1": { prompt: feedbackPrompt("invalid code") },
          "feedback_llm#2": { prompt: feedbackPrompt("valid code") },
          "feedback_prompt#1": { code: ["invalid code"], template: null, template_variables: null },
          "feedback_prompt#2": { code: ["valid code"], template: null, template_variables: null },
          "router#1": { code: ["invalid code"], replies: ["FAIL"] },
          "router#2": { code: ["valid code"], replies: ["PASS"] },
        },
      },
    ],
  );
});

test.run();
