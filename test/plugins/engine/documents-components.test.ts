import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join as joinPath } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { ChatMessage } from "../../../plugins/engine/dataclasses/chat-message.js";
import { ByteStream, Document } from "../../../plugins/engine/dataclasses/document.js";
import { GeneratedAnswer } from "../../../plugins/engine/dataclasses/generated-answer.js";
import { AnswerBuilder } from "../../../plugins/engine/components/answer-builder.js";
import { DocumentJoiner } from "../../../plugins/engine/components/document-joiner.js";
import { DocumentSplitter } from "../../../plugins/engine/components/document-splitter.js";
import { HTMLToDocument, extractText } from "../../../plugins/engine/components/html-to-document.js";

const ctx = () => ({ name: "x", signal: new AbortController().signal, tracer: NOOP_TRACER });
const split = (init: Record<string, unknown>, content: string, meta: Record<string, unknown> = {}) => new DocumentSplitter(init).run({ documents: [new Document({ content, meta })] }, ctx()).documents;
const close = (actual: number | null, expected: number) => assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);

// ---- DocumentSplitter ----

const TEXT = "This is a text with some words. There is a second sentence.";

test("splitter: words, with source_id, page_number, split_id and split_idx_start", () => {
  const source = new Document({ content: TEXT, meta: { origin: "test" } });
  const docs = new DocumentSplitter({ split_by: "word", split_length: 3 }).run({ documents: [source] }, ctx()).documents;
  assert.equal(docs.map((d) => d.content), ["This is a ", "text with some ", "words. There is ", "a second sentence."]);
  assert.equal(docs.map((d) => d.meta.split_idx_start), [0, 10, 25, 41]);
  assert.equal(docs.map((d) => d.meta.split_id), [0, 1, 2, 3]);
  assert.ok(docs.every((d) => d.meta.source_id === source.id && d.meta.page_number === 1 && d.meta.origin === "test" && !("_split_overlap" in d.meta)));
  assert.is(docs.map((d) => d.content).join(""), TEXT);
  assert.is(new DocumentSplitter().run({ documents: [source] }, ctx()).documents.length, 1, "defaults: 200 words");
});

test("splitter: overlap windows and _split_overlap ranges", () => {
  const docs = split({ split_by: "word", split_length: 3, split_overlap: 1 }, TEXT);
  assert.equal(docs.map((d) => d.content), ["This is a ", "a text with ", "with some words. ", "words. There is ", "is a second ", "second sentence."]);
  assert.equal(docs.map((d) => d.meta.split_idx_start), [0, 8, 15, 25, 38, 43]);
  assert.equal(docs[0]!.meta._split_overlap, [{ doc_id: docs[1]!.id, range: [0, 2] }]);
  assert.equal(docs[1]!.meta._split_overlap, [
    { doc_id: docs[0]!.id, range: [8, 10] },
    { doc_id: docs[2]!.id, range: [0, 5] },
  ]);
  for (const d of docs) assert.is(TEXT.slice(d.meta.split_idx_start as number).startsWith(d.content!), true);
});

test("splitter: threshold attaches a short tail; pages, passages, lines and periods", () => {
  assert.equal(split({ split_length: 3, split_threshold: 2 }, "one two three four").map((d) => d.content), ["one two three four"]);
  const pages = split({ split_by: "page", split_length: 1 }, "Page one\fPage two\fPage three");
  assert.equal(pages.map((d) => [d.content, d.meta.page_number, d.meta.split_idx_start]), [["Page one\f", 1, 0], ["Page two\f", 2, 9], ["Page three", 3, 18]]);
  const words = split({ split_by: "word", split_length: 2 }, "one two\fthree four five");
  assert.equal(words.map((d) => [d.content, d.meta.page_number]), [["one two\fthree ", 1], ["four five", 2]]);
  assert.equal(split({ split_by: "passage", split_length: 1 }, "Para one.\n\nPara two.").map((d) => d.content), ["Para one.\n\n", "Para two."]);
  assert.equal(split({ split_by: "line", split_length: 2 }, "a\nb\nc").map((d) => d.content), ["a\nb\n", "c"]);
  assert.equal(split({ split_by: "period", split_length: 1 }, "One. Two.").map((d) => d.content), ["One.", " Two."]);
  // Offsets count code points, as Python's len() does.
  assert.equal(split({ split_length: 1 }, "😀😀 next").map((d) => d.meta.split_idx_start), [0, 3]);
});

test("splitter: sentences keep their whitespace; abbreviations, numbering and line breaks do not end one", () => {
  const docs = split({ split_by: "sentence", split_length: 2 }, "Mr. Smith went to Washington. He left! Then? Maybe.");
  assert.equal(docs.map((d) => d.content), ["Mr. Smith went to Washington. He left! ", "Then? Maybe."]);
  assert.equal(docs.map((d) => d.meta.split_idx_start), [0, 39]);
  const one = (text: string) => split({ split_by: "sentence", split_length: 1 }, text).map((d) => d.content);
  assert.equal(one("A title\nwithout a stop. Next one."), ["A title\nwithout a stop. ", "Next one."]);
  assert.equal(one("Steps:\n1. Mix. 2. Bake."), ["Steps:\n1. Mix. ", "2. Bake."]);
  assert.equal(one("First, e.g. this one. Second (really). (Third) one."), ["First, e.g. this one. ", "Second (really). (Third) one."]);
  assert.equal(split({ split_by: "sentence", split_length: 1, use_split_rules: false }, "Second (really). (Third) one.").length, 2);
  assert.equal(split({ split_by: "sentence", split_length: 1, language: "not a_language!" }, "One. Two.").length, 2, "an unknown language falls back to English");
});

test("splitter: respect_sentence_boundary groups whole sentences up to split_length words", () => {
  const text = "One two three. Four five six. Seven eight. Nine.";
  const docs = split({ split_by: "word", split_length: 5, respect_sentence_boundary: true }, text);
  assert.equal(docs.map((d) => [d.content, d.meta.split_idx_start]), [["One two three. ", 0], ["Four five six. Seven eight. ", 15], ["Nine.", 43]]);
  const overlapping = split({ split_by: "word", split_length: 5, split_overlap: 2, respect_sentence_boundary: true }, text);
  assert.equal(overlapping.map((d) => [d.content, d.meta.split_idx_start]), [["One two three. ", 0], ["Four five six. Seven eight. ", 15], ["Seven eight. Nine.", 30]]);
});

test("splitter: validation, empty and None content, a function splitter", () => {
  assert.throws(() => new DocumentSplitter({ split_length: 0 }), /split_length must be greater than 0/);
  assert.throws(() => new DocumentSplitter({ split_overlap: -1 }), /split_overlap must be greater than or equal to 0/);
  assert.throws(() => new DocumentSplitter({ split_length: 2, split_overlap: 2 }), /split_overlap must be less than split_length/);
  assert.throws(() => new DocumentSplitter({ split_by: "chapter" }), /split_by must be one of/);
  assert.throws(() => new DocumentSplitter({ split_by: "function" }), /splitting_function/);
  assert.is(new DocumentSplitter({ split_by: "line", respect_sentence_boundary: true }).initParameters.respect_sentence_boundary, false, "warned and turned off, as Haystack");
  const splitter = new DocumentSplitter({ split_length: 2 });
  assert.equal(splitter.run({ documents: [new Document({ content: "" })] }, ctx()).documents, []);
  assert.is(new DocumentSplitter({ skip_empty_documents: false }).run({ documents: [new Document({ content: "" })] }, ctx()).documents.length, 1);
  assert.throws(() => splitter.run({ documents: [new Document({ content: null })] }, ctx()), /content for document ID .* is None/);
  const fn = new DocumentSplitter({ split_by: "function", splitting_function: (t: string) => t.split("|") });
  const parts = fn.run({ documents: [new Document({ id: "src", content: "a|b" })] }, ctx()).documents;
  assert.equal(parts.map((d) => [d.content, d.meta.source_id]), [["a", "src"], ["b", "src"]]);
  assert.equal(new DocumentSplitter({ split_by: "sentence", split_length: 3 }).toDict(), { type: "haystack.components.preprocessors.document_splitter.DocumentSplitter", init_parameters: {
      split_by: "sentence",
      split_length: 3,
      split_overlap: 0,
      split_threshold: 0,
      respect_sentence_boundary: false,
      language: "en",
      use_split_rules: true,
      extend_abbreviations: true,
      skip_empty_documents: true,
    },
  });
});

// ---- DocumentJoiner ----

const A = [new Document({ id: "a", content: "a", score: 0.9 }), new Document({ id: "b", content: "b", score: 0.5 }), new Document({ id: "c", content: "c", score: 0.1 })];
const B = [new Document({ id: "b", content: "b", score: 0.8 }), new Document({ id: "d", content: "d", score: 0.6 }), new Document({ id: "a", content: "a", score: 0.2 })];
const join = (init: Record<string, unknown>, lists = [A, B], top_k?: number) => new DocumentJoiner(init).run({ documents: lists, top_k }, ctx()).documents;
const byId = (docs: Document[]) => Object.fromEntries(docs.map((d) => [d.id, d.score]));

test("joiner: concatenate keeps the best-scored copy per id, sorted by score", () => {
  const docs = join({});
  assert.equal(docs.map((d) => [d.id, d.score]), [["a", 0.9], ["b", 0.8], ["d", 0.6], ["c", 0.1]]);
  assert.equal(join({ sort_by_score: false }).map((d) => d.id), ["a", "b", "c", "d"]);
  assert.equal(join({ top_k: 2 }).map((d) => d.id), ["a", "b"]);
  assert.equal(join({ top_k: 2 }, [A, B], 3).map((d) => d.id), ["a", "b", "d"]);
  const unscored = [new Document({ id: "n", content: "n" }), new Document({ id: "z", content: "z", score: 0 })];
  assert.equal(join({}, [unscored, A]).map((d) => d.id), ["a", "b", "c", "z", "n"], "a None score sorts as -inf");
  assert.equal(join({}, []), []);
});

test("joiner: merge sums weighted scores", () => {
  const even = byId(join({ join_mode: "merge" }));
  [["a", 0.55], ["b", 0.65], ["c", 0.05], ["d", 0.3]].forEach(([id, s]) => close(even[id as string]!, s as number));
  const weighted = join({ join_mode: "merge", weights: [3, 1] });
  assert.equal(weighted.map((d) => d.id), ["a", "b", "d", "c"]);
  close(weighted[0]!.score, 0.725);
  assert.is(A[0]!.score, 0.9, "inputs are not mutated");
});

test("joiner: reciprocal rank fusion and distribution-based rank fusion", () => {
  const rrf = join({ join_mode: "reciprocal_rank_fusion" });
  assert.equal(rrf.map((d) => d.id), ["b", "a", "d", "c"]);
  const r = byId(rrf);
  close(r.a!, 0.9841269841269842);
  close(r.b!, 0.9919354838709679);
  close(r.c!, 0.4841269841269841);
  close(r.d!, 0.4919354838709677);
  const dbsf = join({ join_mode: "distribution_based_rank_fusion" });
  assert.equal(dbsf.map((d) => d.id), ["a", "b", "d", "c"]);
  const s = byId(dbsf);
  close(s.a!, 0.7041241452319315);
  close(s.b!, 0.6781741612749496);
  close(s.c!, 0.29587585476806844);
  close(s.d!, 0.5445435403187374);
  assert.equal(byId(join({ join_mode: "distribution_based_rank_fusion" }, [[new Document({ id: "x", content: "x", score: 3 })], []])), { x: 0 });
  assert.throws(() => new DocumentJoiner({ join_mode: "zip" }), /Unknown join mode 'zip'/);
  const joiner = new DocumentJoiner();
  assert.is(joiner.inputSockets.documents!.kind, "lazyVariadic");
  assert.is(DocumentJoiner.type, "haystack.components.joiners.document_joiner.DocumentJoiner");
});

// ---- AnswerBuilder and GeneratedAnswer ----

const SOURCES = [new Document({ content: "Berlin is the capital of Germany." }), new Document({ content: "Paris is the capital of France.", meta: { k: 1 } }), new Document({ content: "Rome is the capital of Italy." })];

test("answer builder: patterns extract the answer; all documents without a reference pattern", () => {
  const builder = new AnswerBuilder({ pattern: "Answer: (.*)" });
  const [answer] = builder.run({ query: "q?", replies: ["This is an argument. Answer: This is the answer."], documents: SOURCES }, ctx()).answers;
  assert.instance(answer, GeneratedAnswer);
  assert.is(answer!.data, "This is the answer.");
  assert.is(answer!.query, "q?");
  assert.equal(answer!.documents.map((d) => d.meta.source_index), [1, 2, 3]);
  assert.ok(answer!.documents.every((d) => !("referenced" in d.meta)));
  assert.equal(answer!.meta, { all_messages: ["This is an argument. Answer: This is the answer."] });
  assert.is(SOURCES[1]!.meta.source_index, undefined, "the input documents are not modified");
  const run = (reply: string, pattern?: string) => new AnswerBuilder().run({ query: "q", replies: [reply], pattern }, ctx()).answers[0]!.data;
  assert.is(run("this is an argument.\nthis is an answer", "[^\\n]+$"), "this is an answer");
  assert.is(run("no answer here", "Answer: (.*)"), "");
  assert.is(run("plain reply"), "plain reply");
  assert.throws(() => new AnswerBuilder({ pattern: "(a)(b)" }), /contains multiple capture groups/);
  assert.throws(() => new AnswerBuilder().run({ query: "q", replies: ["x"], pattern: "(a)(b)" }, ctx()), /multiple capture groups/);
});

test("answer builder: references select documents, mark them, and expand ranges", () => {
  const replies = ["The capital of France is Paris [2]. See also [9]."];
  const only = new AnswerBuilder({ reference_pattern: "\\[(\\d+)\\]" }).run({ query: "q", replies, documents: SOURCES }, ctx()).answers[0]!;
  assert.equal(only.documents.map((d) => [d.content, d.meta.source_index, d.meta.referenced, d.meta.k]), [["Paris is the capital of France.", 2, true, 1]]);
  assert.is(only.documents[0]!.id, SOURCES[1]!.id);
  const all = new AnswerBuilder({ reference_pattern: "\\[(\\d+)\\]", return_only_referenced_documents: false }).run({ query: "q", replies, documents: SOURCES }, ctx()).answers[0]!;
  assert.equal(all.documents.map((d) => d.meta.referenced), [false, true, false]);
  const ranges = new AnswerBuilder({ reference_pattern: "\\[(\\d+)\\]", expand_reference_ranges: true });
  const expanded = ranges.run({ query: "q", replies: ["See [1-2,3] and [3-1]."], documents: SOURCES }, ctx()).answers[0]!;
  assert.equal(expanded.documents.map((d) => d.meta.source_index), [1, 2, 3]);
  const runtime = new AnswerBuilder().run({ query: "q", replies: ["Rome <3>"], documents: SOURCES, reference_pattern: "<(\\d)>" }, ctx()).answers[0]!;
  assert.equal(runtime.documents.map((d) => d.meta.source_index), [3]);
});

test("answer builder: ChatMessage replies, meta, last_message_only; GeneratedAnswer round-trips", () => {
  const replies = [ChatMessage.fromAssistant("first", { meta: { model: "m", a: 1 } }), ChatMessage.fromAssistant("second", { meta: { model: "m" } })];
  const answers = new AnswerBuilder().run({ query: "q", replies, meta: [{ a: 2 }, { b: 3 }] }, ctx()).answers;
  assert.equal(answers.map((a) => [a.data, a.meta.model, a.meta.a, a.meta.b]), [["first", "m", 2, undefined], ["second", "m", undefined, 3]]);
  assert.is(answers[0]!.meta.all_messages, replies);
  const last = new AnswerBuilder({ last_message_only: true }).run({ query: "q", replies, meta: [{ a: 2 }, { b: 3 }] }, ctx()).answers;
  assert.equal(last.map((a) => [a.data, a.meta.b]), [["second", 3]]);
  assert.throws(() => new AnswerBuilder().run({ query: "q", replies, meta: [{}] }, ctx()), /Number of replies \(2\), and metadata \(1\) must match/);
  assert.is(new AnswerBuilder().run({ query: "q", replies: [ChatMessage.fromAssistant(null)] }, ctx()).answers[0]!.data, "");

  const answer = new GeneratedAnswer("Paris", "q", [SOURCES[1]!], { all_messages: replies, model: "m" });
  const dict = answer.toDict();
  // Haystack 3: flat, documents unflattened; the 2.x envelope still loads.
  assert.equal(Object.keys(dict), ["data", "query", "documents", "meta"]);
  assert.equal(dict.documents[0], SOURCES[1]!.toDict(false));
  assert.equal((dict.meta.all_messages as unknown[])[0], replies[0]!.toDict());
  assert.is(GeneratedAnswer.fromDict({ type: GeneratedAnswer.type, init_parameters: dict }).data, "Paris");
  const back = GeneratedAnswer.fromDict(JSON.parse(JSON.stringify(dict)));
  assert.is(back.data, "Paris");
  assert.is(back.documents[0]!.id, SOURCES[1]!.id);
  assert.instance((back.meta.all_messages as unknown[])[0], ChatMessage);
  assert.is(GeneratedAnswer.fromDict({ data: "x", query: "y", documents: [], meta: {} }).data, "x");
});

// ---- HTMLToDocument ----

const PAGE = `<!doctype html><html><head><title>T</title><style>.x{color:red}</style><script>var secret = 1;</script></head>
<body><header><a href="/">Site logo</a></header><nav><ul><li><a href="/a">Home</a></li><li>About</li></ul></nav>
<main><article><h1>Main Title</h1><p>First paragraph with <a href="https://example.com">a link</a> &amp; an entity.</p>
<ul><li>Item one</li><li>Item two</li></ul><form><input value="x"><button>Send</button></form>
<table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table><p>Second   paragraph.</p></article>
<aside>Related links</aside></main><footer>Copyright 2026</footer><script>alert(1)</script></body></html>`;

test("HTMLToDocument: main text only, one block per line, no scripts, styles, navigation or chrome", () => {
  const text = extractText(PAGE);
  for (const expected of ["Main Title", "First paragraph with a link & an entity.", "- Item one", "- Item two", "Second paragraph."]) assert.ok(text.includes(expected), `${expected} in ${text}`);
  for (const absent of ["secret", "alert", "color:red", "Site logo", "Home", "About", "Send", "Related links", "Copyright", "https://example.com"]) assert.not.ok(text.includes(absent), `${absent} in ${text}`);
  assert.not.ok(/\n\n/.test(text));
  assert.ok(text.startsWith("Main Title\nFirst paragraph"));
  // Without <main>/<article> the body is used, minus its header and footer.
  assert.is(extractText("<body><header>Brand</header><div><p>Only body text.</p></div><footer>f</footer></body>"), "Only body text.");
  assert.is(extractText("<p>Fragment without body</p>"), "Fragment without body");
  assert.is(extractText("<main></main><p>Shell page text</p>"), "Shell page text", "an empty <main> falls back to the body");
});

test("HTMLToDocument: files and ByteStreams, meta merging, file_path basename, unreadable sources skipped", async () => {
  const dir = await mkdtemp(joinPath(tmpdir(), "svc-html-"));
  try {
    const file = joinPath(dir, "page.html");
    await writeFile(file, PAGE);
    await writeFile(joinPath(dir, "latin1.html"), Buffer.from("<p>Caf\xe9 cr\xe8me</p>", "latin1"));
    const stream = new ByteStream(Buffer.from("<p>From a stream</p>"), { url: "https://example.com/x", content_type: "text/html" }, "text/html");
    const converter = new HTMLToDocument();
    const { documents } = await converter.run({ sources: [file, stream, joinPath(dir, "missing.html"), joinPath(dir, "latin1.html")], meta: { lang: "en" } }, ctx());
    assert.is(documents.length, 2, "the missing file and the non-UTF-8 one are skipped, as Haystack's strict decoding does");
    assert.equal(documents[0]!.meta, { file_path: "page.html", lang: "en" });
    assert.ok(documents[0]!.content!.includes("Main Title"));
    assert.equal(documents[1]!.meta, { url: "https://example.com/x", content_type: "text/html", lang: "en" });
    assert.is(documents[1]!.content, "From a stream");
    const latin1 = await new HTMLToDocument({ encoding: "latin-1" }).run({ sources: [joinPath(dir, "latin1.html")] }, ctx());
    assert.is(latin1.documents[0]!.content, "Café crème", "`encoding` decodes it");
    const full = await new HTMLToDocument({ store_full_path: true }).run({ sources: [file], meta: [{ i: 1 }] }, ctx());
    assert.equal(full.documents[0]!.meta, { file_path: file, i: 1 });
    let error: Error | undefined;
    await converter.run({ sources: [file, file], meta: [{}] }, ctx()).catch((e: Error) => (error = e));
    assert.match(error?.message ?? "", /The length of the metadata list must match the number of sources/);
    assert.is(HTMLToDocument.type, "haystack.components.converters.html.HTMLToDocument");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
