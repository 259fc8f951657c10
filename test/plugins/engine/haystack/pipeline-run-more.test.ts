/**
 * More of Haystack's pipeline behaviour scenarios (test/core/pipeline/features/test_run.py and
 * pipeline_run.feature), ported value for value like pipeline-run.test.ts: same graphs, inputs,
 * expected outputs and component calls, one at a time and concurrently.
 */
import { test } from "uvu";
import * as v from "valibot";
import { AddFixedValue, BranchJoiner, ConditionalRouter, Document, DocumentJoiner, Double, Pipeline, PromptBuilder, Sum, Threshold, socket } from "svc/engine";
import { Accumulate, AnyOrder, Remainder, check, componentOf } from "./harness.js";

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
  const mockEmbedder = componentOf({ text: socket(v.string()) }, { embedding: v.array(v.number()), meta: v.record(v.string(), v.unknown()) }, (i) => {
    const words = i.text.split(/\s+/).filter(Boolean).length;
    return { embedding: [1.0, 2.0, 3.0], meta: { model: "mock-model", usage: { prompt_tokens: words, total_tokens: words } } };
  });
  return check(
    () =>
      new Pipeline()
        .addComponent("router", componentOf({ query: socket(v.string()) }, { LEGIT: v.string(), INJECTION: v.string() }, (i) => (i.query.includes("injection") ? { INJECTION: i.query } : { LEGIT: i.query })))
        .addComponent("text_embedder", mockEmbedder)
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

test.run();
