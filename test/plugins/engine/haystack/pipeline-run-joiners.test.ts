/**
 * @module Haystack's pipeline scenarios from test/core/pipeline/features/test_run.py
 * (pipeline_run.feature) around the joiners and the file converters, ported value for value like
 * pipeline-run.test.ts: the same graph, inputs, outputs and every component call's inputs, one
 * component at a time and concurrently.
 */
import { test } from "uvu";
import * as v from "valibot";
import {
  AnswerBuilder, AnswerJoiner, BranchJoiner, ByteStream, ConditionalRouter, CSVToDocument, Document, DocumentJoiner, DocumentSplitter, FileTypeRouter, GeneratedAnswer,
  HTMLToDocument, JSONConverter, Pipeline, socket, TextFileToDocument,
} from "svc/engine";
import { ANY, AnyOrder, check, componentOf } from "./harness.js";

test("that has an answer joiner variadic component", () => {
  const query = "What's Natural Language Processing?";
  const [reply1, reply2] = ["This is a test answer", "This is a second test answer"];
  const answerOf = (reply: string) => new GeneratedAnswer(reply, query, [], { all_messages: [reply] });
  const builderCall = (reply: string) => ({ documents: null, meta: null, pattern: null, query, expand_reference_ranges: null, reference_pattern: null, replies: [reply] });
  return check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("answer_builder_1", new AnswerBuilder())
        .addComponent("answer_builder_2", new AnswerBuilder())
        .addComponent("answer_joiner", new AnswerJoiner())
        .connect("answer_builder_1.answers", "answer_joiner")
        .connect("answer_builder_2.answers", "answer_joiner"),
    [
      {
        inputs: { answer_builder_1: { query, replies: [reply1] }, answer_builder_2: { query, replies: [reply2] } },
        expectedOutputs: { answer_joiner: { answers: [answerOf(reply1), answerOf(reply2)] } },
        expectedCalls: {
          "answer_builder_1#1": builderCall(reply1),
          "answer_builder_2#1": builderCall(reply2),
          "answer_joiner#1": { answers: [[answerOf(reply1)], [answerOf(reply2)]], top_k: null },
        },
      },
    ],
  );
});

// ---- the file conversion pipelines ----

const HTML = "\n<html><body>Some content</body></html>\n    ";
const TXT = "Text file content";
const TXT_AND_HTML = () => [ByteStream.fromString(TXT, "text/plain", { file_type: "txt" }), ByteStream.fromString(HTML, "text/html", { file_type: "html" })];
const txtDoc = new Document({ content: TXT, meta: { file_type: "txt" } });
const htmlDoc = new Document({ content: "Some content", meta: { file_type: "html" } });
/** The one split a short document makes, pointing back at its source. */
const splitOf = (doc: Document) => new Document({ content: doc.content, meta: { ...doc.meta, source_id: doc.id, page_number: 1, split_id: 0, split_idx_start: 0 } });
/** The same document (same id) with more meta, as Haystack's `doc.meta = {...}` on a deepcopy. */
const withMeta = (doc: Document, meta: Record<string, unknown>) => Document.fromDict({ ...doc.toDict(false), meta: { ...doc.meta, ...meta } });

/** The router and the four converters every file conversion scenario starts with. */
function converters(maxRunsPerComponent: number, mimeTypes = ["text/csv", "text/plain", "application/json", "text/html"]) {
  const pipe = new Pipeline({ maxRunsPerComponent })
    .addComponent("router", new FileTypeRouter({ mime_types: mimeTypes }))
    .addComponent("splitter", new DocumentSplitter({ split_by: "word", split_length: 3, split_overlap: 0 }))
    .addComponent("txt_converter", new TextFileToDocument())
    .addComponent("csv_converter", new CSVToDocument())
    .addComponent("json_converter", new JSONConverter({ content_key: "content" }))
    .connect("router.text/plain", "txt_converter.sources")
    .connect("router.application/json", "json_converter.sources")
    .connect("router.text/csv", "csv_converter.sources");
  if (mimeTypes.includes("text/html")) pipe.addComponent("html_converter", new HTMLToDocument()).connect("router.text/html", "html_converter.sources");
  return pipe;
}

/** csv and html to a page splitter, txt and json to a word splitter, then one joiner (or none). */
const threeJoiners = (maxRuns: number) =>
  converters(maxRuns)
    .addComponent("joiner", new DocumentJoiner())
    .addComponent("DocumentJoiner_1", new DocumentJoiner())
    .addComponent("DocumentJoiner_2", new DocumentJoiner())
    .addComponent("page_splitter", new DocumentSplitter({ split_by: "page", split_length: 1, split_overlap: 0 }))
    .connect("txt_converter.documents", "joiner.documents")
    .connect("json_converter.documents", "joiner.documents")
    .connect("csv_converter.documents", "DocumentJoiner_1.documents")
    .connect("html_converter.documents", "DocumentJoiner_1.documents")
    .connect("joiner.documents", "splitter.documents")
    .connect("DocumentJoiner_1.documents", "page_splitter.documents")
    .connect("splitter.documents", "DocumentJoiner_2.documents")
    .connect("page_splitter.documents", "DocumentJoiner_2.documents");

const convertedCalls = (sources: ByteStream[]) => ({
  "router#1": { sources, meta: null },
  "html_converter#1": { sources: [sources[1]], meta: null, extraction_kwargs: null },
  "txt_converter#1": { sources: [sources[0]], meta: null },
});

test("that is a file conversion pipeline with two joiners", () => {
  const csv = "\nsome,header,row\n0,1,0\n    ";
  const txt = "Text file content for testing this.";
  const sources = [ByteStream.fromString(csv, "text/csv", { file_type: "csv" }), ByteStream.fromString(txt, "text/plain", { file_type: "txt" }), ByteStream.fromString('{"content": "Some test content"}', "application/json", { file_type: "json" })];
  const preSplit = [new Document({ content: "Some test content", meta: { file_type: "json" } }), new Document({ content: txt, meta: { file_type: "txt" } })];
  const split = (content: string, file_type: string, source_id: string, split_id: number, split_idx_start: number) => new Document({ content, meta: { file_type, source_id, page_number: 1, split_id, split_idx_start } });
  // Haystack's literal source ids: svc's document ids must be the same.
  const splits = [
    split("Some test content", "json", "7eead7200d4ecead81a174a1da6512d8955f3a23acdc3f8431885d4793a63a74", 0, 0),
    split("Text file content ", "txt", "696d5c046b58b24bf806ff94f6b529fb3a08f068b6bf39e572683537736a0c27", 0, 0),
    split("for testing this.", "txt", "696d5c046b58b24bf806ff94f6b529fb3a08f068b6bf39e572683537736a0c27", 1, 18),
  ];
  const csvDocs = [new Document({ content: csv, meta: { file_type: "csv" } })];
  return check(
    () =>
      converters(1, ["text/csv", "text/plain", "application/json"])
        .addComponent("b_joiner", new DocumentJoiner())
        .addComponent("a_joiner", new DocumentJoiner())
        .connect("txt_converter.documents", "b_joiner.documents")
        .connect("json_converter.documents", "b_joiner.documents")
        .connect("csv_converter.documents", "a_joiner.documents")
        .connect("b_joiner.documents", "splitter.documents")
        .connect("splitter.documents", "a_joiner.documents"),
    [
      {
        inputs: { router: { sources } },
        expectedOutputs: { a_joiner: { documents: [...csvDocs, ...splits] } },
        expectedCalls: {
          "router#1": { sources, meta: null },
          "csv_converter#1": { sources: [sources[0]], meta: null, content_column: null },
          "txt_converter#1": { sources: [sources[1]], meta: null },
          "json_converter#1": { sources: [sources[2]], meta: null },
          "b_joiner#1": { documents: new AnyOrder([[preSplit[0]], [preSplit[1]]]), top_k: null },
          "splitter#1": { documents: preSplit },
          "a_joiner#1": { documents: new AnyOrder([csvDocs, splits]), top_k: null },
        },
      },
    ],
  );
});

test("that is a file conversion pipeline with three joiners", () => {
  const sources = TXT_AND_HTML();
  return check(
    () => threeJoiners(1),
    [
      {
        inputs: { router: { sources } },
        expectedOutputs: { DocumentJoiner_2: { documents: new AnyOrder([splitOf(htmlDoc), splitOf(txtDoc)]) } },
        expectedCalls: {
          ...convertedCalls(sources),
          "joiner#1": { documents: [[txtDoc]], top_k: null },
          "DocumentJoiner_1#1": { documents: [[htmlDoc]], top_k: null },
          "DocumentJoiner_2#1": { documents: new AnyOrder([[splitOf(htmlDoc)], [splitOf(txtDoc)]]), top_k: null },
          "splitter#1": { documents: [txtDoc] },
          "page_splitter#1": { documents: [htmlDoc] },
        },
      },
    ],
  );
});

test("that is a file conversion pipeline with three joiners and a loop", () => {
  const sources = TXT_AND_HTML();
  const docs = () => v.array(v.instance(Document));
  /** Haystack's FakeDataExtractor: sorts by file type and stamps the next of `metas` on every document. */
  const fakeDataExtractor = (metas: Record<string, unknown>[]) => {
    let current = 0;
    return componentOf({ documents: socket(docs()) }, { documents: docs() }, ({ documents }: { documents: Document[] }) => {
      const sorted = [...documents].sort((a, b) => String(a.meta.file_type).localeCompare(String(b.meta.file_type)));
      if (current >= sorted.length) current = 0;
      const stamped = sorted.map((doc) => withMeta(doc, metas[current]!));
      current++;
      return { documents: stamped };
    });
  };
  const route = (iteration: number, output_name: string) => ({ condition: `{{documents[0].meta['iteration'] == ${iteration}}}`, output_name, output: "{{documents}}", output_type: "list[haystack.dataclasses.Document]" });
  const expected = [splitOf(htmlDoc), splitOf(txtDoc)];
  const iteration = (n: number) => expected.map((doc) => withMeta(doc, { iteration: n }));
  return check(
    () =>
      threeJoiners(2)
        .addComponent("metadata_generator", fakeDataExtractor([{ iteration: 1 }, { iteration: 2 }]))
        .addComponent("extraction_router", new ConditionalRouter({ routes: [route(1, "continue"), route(2, "stop")], unsafe: true }))
        .addComponent("branch_joiner", new BranchJoiner({ type_: "list[haystack.dataclasses.Document]" }))
        .connect("DocumentJoiner_2.documents", "branch_joiner.value")
        .connect("branch_joiner.value", "metadata_generator.documents")
        .connect("metadata_generator.documents", "extraction_router.documents")
        .connect("extraction_router.continue", "branch_joiner.value"),
    [
      {
        inputs: { router: { sources } },
        expectedOutputs: { extraction_router: { stop: iteration(2) } },
        expectedCalls: {
          ...convertedCalls(sources),
          "joiner#1": { documents: [[txtDoc]], top_k: null },
          "DocumentJoiner_1#1": { documents: [[htmlDoc]], top_k: null },
          "DocumentJoiner_2#1": { documents: ANY, top_k: null },
          "splitter#1": { documents: [txtDoc] },
          "page_splitter#1": { documents: [htmlDoc] },
          "branch_joiner#1": { value: ANY },
          "metadata_generator#1": { documents: ANY },
          "extraction_router#1": { documents: iteration(1) },
          "branch_joiner#2": { value: [iteration(1)] },
          "metadata_generator#2": { documents: iteration(1) },
          "extraction_router#2": { documents: iteration(2) },
        },
      },
    ],
  );
});

test("that is a file conversion pipeline with three auto joiners", () => {
  const sources = TXT_AND_HTML();
  return check(
    () =>
      converters(1)
        .addComponent("writer", componentOf({ documents: socket(v.array(v.instance(Document))) }, { documents_written: v.pipe(v.number(), v.integer()) }, (i) => ({ documents_written: i.documents.length })))
        .addComponent("page_splitter", new DocumentSplitter({ split_by: "page", split_length: 1, split_overlap: 0 }))
        .connect("txt_converter.documents", "splitter.documents")
        .connect("json_converter.documents", "splitter.documents")
        .connect("csv_converter.documents", "page_splitter.documents")
        .connect("html_converter.documents", "page_splitter.documents")
        .connect("splitter.documents", "writer.documents")
        .connect("page_splitter.documents", "writer.documents"),
    [
      {
        inputs: { router: { sources } },
        expectedOutputs: { writer: { documents_written: 2 } },
        expectedCalls: {
          ...convertedCalls(sources),
          "writer#1": { documents: new AnyOrder([splitOf(txtDoc), splitOf(htmlDoc)]) },
          "splitter#1": { documents: [txtDoc] },
          "page_splitter#1": { documents: [htmlDoc] },
        },
      },
    ],
  );
});

test.run();
