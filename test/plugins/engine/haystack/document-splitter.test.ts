/**
 * Haystack's DocumentSplitter tests (test/components/preprocessors/test_document_splitter.py),
 * ported value for value. Each `test` names the Haystack case(s) it ports.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { Document } from "../../../../plugins/engine/dataclasses/document.js";
import { DocumentSplitter, sentencesToKeep } from "../../../../plugins/engine/components/document-splitter.js";

const ctx = () => ({ name: "splitter", signal: new AbortController().signal, tracer: NOOP_TRACER });
const run = (init: Record<string, unknown>, ...docs: Document[]) => new DocumentSplitter(init).run({ documents: docs }, ctx()).documents;
const splitText = (init: Record<string, unknown>, text: string) => run(init, new Document({ content: text }));
/** [content, split_id, split_idx_start] per split; the start must be where the content is in the text (Haystack's `text.index`). */
function checkSplits(docs: Document[], text: string, expected: string[], pages?: number[]) {
  assert.equal(docs.map((d) => d.content), expected);
  docs.forEach((d, i) => {
    assert.is(d.meta.split_id, i);
    assert.is(d.meta.split_idx_start, text.indexOf(d.content!));
    if (pages) assert.is(d.meta.page_number, pages[i], `page of split ${i}`);
  });
}
const pagesOf = (docs: Document[]) => docs.map((d) => d.meta.page_number);
const THREE = "This is a text with some words. There is a second sentence. And there is a third sentence.";

test("test_non_text_document, test_single_doc, test_empty_list", () => {
  assert.throws(() => run({}, new Document()), /DocumentSplitter only works with text documents but content for document ID/);
  assert.throws(() => new DocumentSplitter().run({ documents: new Document() as never }, ctx()), (e: Error) => e instanceof TypeError && /DocumentSplitter expects a List of Documents as input\./.test(e.message));
  assert.equal(new DocumentSplitter().run({ documents: [] }, ctx()), { documents: [] });
});

test("test_unsupported_split_by, test_undefined_function, test_unsupported_split_length, test_unsupported_split_overlap, test_split_overlap_not_less_than_split_length", () => {
  assert.throws(() => new DocumentSplitter({ split_by: "unsupported" }), /split_by must be one of /);
  assert.throws(() => new DocumentSplitter({ split_by: "function", splitting_function: null }), /When 'split_by' is set to 'function', a valid 'splitting_function'/);
  assert.throws(() => new DocumentSplitter({ split_length: 0 }), /split_length must be greater than 0\./);
  assert.throws(() => new DocumentSplitter({ split_overlap: -1 }), /split_overlap must be greater than or equal to 0\./);
  assert.throws(() => new DocumentSplitter({ split_length: 3, split_overlap: 3 }), /split_overlap must be less than split_length\./);
  assert.throws(() => new DocumentSplitter({ split_length: 3, split_overlap: 5 }), /split_overlap must be less than split_length\./);
});

test("test_split_by_word", () => checkSplits(splitText({ split_by: "word", split_length: 10 }, THREE), THREE, ["This is a text with some words. There is a ", "second sentence. And there is a third sentence."]));

test("test_split_by_word_with_threshold", () => assert.equal(splitText({ split_by: "word", split_length: 15, split_threshold: 10 }, THREE).map((d) => d.content), [THREE]));

test("test_split_by_word_with_threshold_and_overlap_does_not_duplicate_overlap", () => {
  const text = "a b c d e f";
  const contents = splitText({ split_by: "word", split_length: 3, split_overlap: 1, split_threshold: 3 }, text).map((d) => d.content!);
  for (const c of contents) assert.ok(text.includes(c), `chunk ${JSON.stringify(c)} is not in the source text`);
  assert.equal(contents, ["a b c ", "c d e f"]);
});

test("test_split_by_word_multiple_input_docs", () => {
  const text2 = "This is a different text with some words. There is a second sentence. And there is a third sentence. And there is a fourth sentence.";
  const docs = run({ split_by: "word", split_length: 10 }, new Document({ content: THREE }), new Document({ content: text2 }));
  checkSplits(docs.slice(0, 2), THREE, ["This is a text with some words. There is a ", "second sentence. And there is a third sentence."]);
  checkSplits(docs.slice(2), text2, ["This is a different text with some words. There is ", "a second sentence. And there is a third sentence. And ", "there is a fourth sentence."]);
});

test("test_split_by_period", () => checkSplits(splitText({ split_by: "period", split_length: 1 }, THREE), THREE, ["This is a text with some words.", " There is a second sentence.", " And there is a third sentence."]));

test("test_split_by_passage", () => {
  const text = "This is a text with some words. There is a second sentence.\n\nAnd there is a third sentence.\n\n And another passage.";
  checkSplits(splitText({ split_by: "passage", split_length: 1 }, text), text, ["This is a text with some words. There is a second sentence.\n\n", "And there is a third sentence.\n\n", " And another passage."]);
});

test("test_split_by_page", () => {
  const text = "This is a text with some words. There is a second sentence.\f And there is a third sentence.\f And another passage.";
  checkSplits(splitText({ split_by: "page", split_length: 1 }, text), text, ["This is a text with some words. There is a second sentence.\f", " And there is a third sentence.\f", " And another passage."], [1, 2, 3]);
});

test("test_split_by_function", () => {
  const byPeriod = run({ split_by: "function", splitting_function: (s: string) => s.split(".") }, new Document({ id: "1", content: "This.Is.A.Test", meta: { key: "value" } }));
  assert.equal(byPeriod.map((d) => [d.content, d.meta]), ["This", "Is", "A", "Test"].map((c) => [c, { key: "value", source_id: "1" }]));
  const bySpaces = run({ split_by: "function", splitting_function: (s: string) => s.split(/[\s]{2,}/) }, new Document({ id: "1", content: "This       Is\n  A  Test", meta: { key: "value" } }));
  assert.equal(bySpaces.map((d) => [d.content, d.meta]), ["This", "Is", "A", "Test"].map((c) => [c, { key: "value", source_id: "1" }]));
});

test("test_split_by_word_with_overlap", () => {
  const docs = splitText({ split_by: "word", split_length: 10, split_overlap: 2 }, THREE);
  checkSplits(docs, THREE, ["This is a text with some words. There is a ", "is a second sentence. And there is a third sentence."]);
  assert.equal((docs[0]!.meta._split_overlap as any)[0].range, [0, 5]);
  assert.equal((docs[1]!.meta._split_overlap as any)[0].range, [38, 43]);
  assert.is(docs[0]!.content!.slice(38, 43), "is a ");
});

test("test_split_by_line", () => {
  const text = "This is a text with some words.\nThere is a second sentence.\nAnd there is a third sentence.";
  checkSplits(splitText({ split_by: "line", split_length: 1 }, text), text, ["This is a text with some words.\n", "There is a second sentence.\n", "And there is a third sentence."]);
});

test("test_source_id_stored_in_metadata, test_copy_metadata", () => {
  const doc1 = new Document({ content: "This is a text with some words." });
  const doc2 = new Document({ content: "This is a different text with some words." });
  assert.equal(run({ split_by: "word", split_length: 10 }, doc1, doc2).map((d) => d.meta.source_id), [doc1.id, doc2.id]);
  const docs = run({ split_by: "word", split_length: 10 }, new Document({ content: "Text.", meta: { name: "doc 0" } }), new Document({ content: "Text.", meta: { name: "doc 1" } }));
  assert.is(docs.length, 2);
  assert.is.not(docs[0]!.id, docs[1]!.id);
  assert.equal(docs.map((d) => [d.meta.name, d.content]), [["doc 0", "Text."], ["doc 1", "Text."]]);
});

const TWO_PAGES = "This is some text.\f This text is on another page.";
const PAGE_BREAKS = "This content has two.\f\f page brakes.";
const PASSAGES = "This is a text with some words.\f There is a second sentence.\n\nAnd there is a third sentence.\n\nAnd more passages.\n\n\f And another passage.";
const PAGES = "This is a text with some words. There is a second sentence.\f And there is a third sentence.\f And another passage.";

test("test_add_page_number_to_metadata_with_no_overlap_{word,period,passage,page}_split", () => {
  const docs = (init: Record<string, unknown>, ...texts: string[]) => pagesOf(run(init, ...texts.map((content) => new Document({ content }))));
  assert.equal(docs({ split_by: "word", split_length: 2 }, TWO_PAGES, PAGE_BREAKS), [1, 1, 2, 2, 2, 1, 1, 3]);
  assert.equal(docs({ split_by: "period", split_length: 1 }, TWO_PAGES, PAGE_BREAKS), [1, 1, 1, 1]);
  assert.equal(docs({ split_by: "passage", split_length: 1 }, PASSAGES), [1, 2, 2, 2]);
  assert.equal(docs({ split_by: "page", split_length: 1 }, PAGES), [1, 2, 3]);
  assert.equal(docs({ split_by: "page", split_length: 2 }, PAGES), [1, 3]);
});

test("test_add_page_number_to_metadata_with_overlap_{word,period,passage,page}_split", () => {
  const docs = (init: Record<string, unknown>, ...texts: string[]) => pagesOf(run(init, ...texts.map((content) => new Document({ content }))));
  assert.equal(docs({ split_by: "word", split_length: 3, split_overlap: 1 }, "This is some text. And\f this text is on another page.", PAGE_BREAKS), [1, 1, 1, 2, 2, 1, 1, 3]);
  assert.equal(docs({ split_by: "period", split_length: 2, split_overlap: 1 }, "This is some text. And this is more text.\f This text is on another page. End.", "This content has two.\f\f page brakes. More text."), [1, 1, 1, 2, 1, 1, 3]);
  assert.equal(docs({ split_by: "passage", split_length: 2, split_overlap: 1 }, PASSAGES), [1, 2, 2]);
  assert.equal(docs({ split_by: "page", split_length: 2, split_overlap: 1 }, PAGES), [1, 2]);
});

test("test_add_split_overlap_information (and merge_documents rebuilds the text)", () => {
  const text = "This is a text with some words. There is a second sentence. And a third sentence.";
  const docs = splitText({ split_length: 10, split_overlap: 5, split_by: "word" }, text);
  checkSplits(docs, text, ["This is a text with some words. There is a ", "some words. There is a second sentence. And a third ", "second sentence. And a third sentence."]);
  const ranges = docs.map((d) => (d.meta._split_overlap as { range: number[] }[]).map((o) => o.range));
  assert.equal(ranges, [[[0, 23]], [[20, 43], [0, 29]], [[23, 52]]]);
  // merge_documents: concatenate, dropping what overlaps.
  let merged = "";
  let end = 0;
  for (const d of [...docs].sort((a, b) => (a.meta.split_idx_start as number) - (b.meta.split_idx_start as number))) {
    const start = d.meta.split_idx_start as number;
    merged += d.content!.slice(Math.max(start, end) - start);
    end = start + d.content!.length;
  }
  assert.is(merged, text);
});

test("test_to_dict, test_from_dict, test_roundtrip_serialization", () => {
  const serialized = new DocumentSplitter({ split_by: "word", split_length: 10, split_overlap: 2, split_threshold: 5 }).toDict();
  assert.is(serialized.type, "haystack.components.preprocessors.document_splitter.DocumentSplitter");
  const p = serialized.init_parameters;
  assert.equal([p.split_by, p.split_length, p.split_overlap, p.split_threshold, p.skip_empty_documents], ["word", 10, 2, 5, true]);
  assert.not.ok("splitting_function" in p);
  const fromDict = new DocumentSplitter({ split_by: "word", split_length: 10, split_overlap: 2, split_threshold: 5, skip_empty_documents: false }).initParameters;
  assert.equal([fromDict.split_by, fromDict.split_length, fromDict.split_overlap, fromDict.split_threshold, fromDict.splitting_function, fromDict.skip_empty_documents], ["word", 10, 2, 5, null, false]);
  const again = new DocumentSplitter(p).initParameters;
  assert.equal([again.split_by, again.split_length, again.split_overlap, again.split_threshold], ["word", 10, 2, 5]);
});

test("test_run_empty_document_with_skip_empty_documents_{true,false}, test_run_document_only_whitespaces", () => {
  assert.equal(run({}, new Document({ content: "" })), []);
  assert.equal(run({ skip_empty_documents: false }, new Document({ content: "" })).map((d) => d.content), [""]);
  assert.is(run({}, new Document({ content: "  " }))[0]!.content, "  ");
});

test("test_number_of_sentences_to_keep (5 parametrized cases), test_number_of_sentences_to_keep_split_overlap_zero", () => {
  const cases: [string[], number][] = [
    [["The sun set.", "Moonlight shimmered softly, wolves howled nearby, night enveloped everything."], 0],
    [["The sun set.", "It was a dark night ..."], 0],
    [["The sun set.", " The moon was full."], 1],
    [["The sun.", " The moon."], 1],
    [["Sun", "Moon"], 1],
  ];
  for (const [sentences, expected] of cases) assert.is(sentencesToKeep(sentences, 5, 2), expected, JSON.stringify(sentences));
  assert.is(sentencesToKeep(["Moonlight shimmered softly, wolves howled nearby, night enveloped everything.", " It was a dark night ...", " The moon was full."], 5, 0), 0);
});

const SENTENCE = { split_overlap: 0, split_threshold: 0, language: "en", extend_abbreviations: true };
const ON_PAGES = "Sentence on page 1.\fSentence on page 2. \fSentence on page 3. \f\f Sentence on page 5.";
const REPEATED = "This is a test sentence with many many words that exceeds the split length and should not be repeated. This is another test sentence. (This is a third test sentence.) This is the last test sentence.";

test("test_run_split_by_sentence_1", () => {
  const text = "Moonlight shimmered softly, wolves howled nearby, night enveloped everything. It was a dark night ... The moon was full.";
  assert.equal(splitText({ ...SENTENCE, split_by: "sentence", split_length: 2, use_split_rules: true }, text).map((d) => d.content), ["Moonlight shimmered softly, wolves howled nearby, night enveloped everything. It was a dark night ... ", "The moon was full."]);
});

test("test_run_split_by_sentence_2", () => {
  checkSplits(splitText({ ...SENTENCE, split_by: "sentence", split_length: 1, use_split_rules: false }, REPEATED), REPEATED, ["This is a test sentence with many many words that exceeds the split length and should not be repeated. ", "This is another test sentence. ", "(This is a third test sentence.) ", "This is the last test sentence."], [1, 1, 1, 1]);
});

test("test_run_split_by_sentence_3", () => {
  checkSplits(splitText({ ...SENTENCE, split_by: "sentence", split_length: 1, use_split_rules: true }, ON_PAGES), ON_PAGES, ["Sentence on page 1.\f", "Sentence on page 2. \f", "Sentence on page 3. \f\f ", "Sentence on page 5."], [1, 2, 3, 5]);
});

test("test_run_split_by_sentence_4", () => {
  checkSplits(splitText({ ...SENTENCE, split_by: "sentence", split_length: 2, split_overlap: 1, use_split_rules: true }, ON_PAGES), ON_PAGES, ["Sentence on page 1.\fSentence on page 2. \f", "Sentence on page 2. \fSentence on page 3. \f\f ", "Sentence on page 3. \f\f Sentence on page 5."], [1, 2, 3]);
});

test("test_run_split_by_word_respect_sentence_boundary", () => {
  const text = "Moonlight shimmered softly, wolves howled nearby, night enveloped everything. It was a dark night.\fThe moon was full.";
  checkSplits(splitText({ split_by: "word", split_length: 3, split_overlap: 0, split_threshold: 0, language: "en", respect_sentence_boundary: true }, text), text, ["Moonlight shimmered softly, wolves howled nearby, night enveloped everything. ", "It was a dark night.\f", "The moon was full."], [1, 1, 2]);
});

test("test_run_split_by_word_respect_sentence_boundary_no_repeats", () => {
  const docs = splitText({ split_by: "word", split_length: 13, split_overlap: 3, split_threshold: 0, language: "en", respect_sentence_boundary: true, use_split_rules: false, extend_abbreviations: false }, REPEATED);
  assert.is(docs.length, 3);
  assert.is(docs[0]!.content, "This is a test sentence with many many words that exceeds the split length and should not be repeated. ");
  for (const d of docs.slice(1)) assert.not.ok(d.content!.includes("This is a test sentence with many many words"));
});

test("test_run_split_by_word_respect_sentence_boundary_with_split_overlap_and_page_breaks", () => {
  const text = "Sentence on page 1. Another on page 1.\fSentence on page 2. Another on page 2.\fSentence on page 3. Another on page 3.\f\f Sentence on page 5.";
  checkSplits(
    splitText({ split_by: "word", split_length: 8, split_overlap: 1, split_threshold: 0, language: "en", use_split_rules: true, extend_abbreviations: true, respect_sentence_boundary: true }, text),
    text,
    ["Sentence on page 1. Another on page 1.\f", "Another on page 1.\fSentence on page 2. ", "Sentence on page 2. Another on page 2.\f", "Another on page 2.\fSentence on page 3. ", "Sentence on page 3. Another on page 3.\f\f ", "Another on page 3.\f\f Sentence on page 5."],
    [1, 1, 2, 2, 3, 3],
  );
});

test("test_respect_sentence_boundary_checks: the wrong split_by warns and turns the option off", () => {
  const warn = console.warn;
  const warnings: string[] = [];
  console.warn = (m: string) => void warnings.push(m);
  try {
    const splitter = new DocumentSplitter({ split_by: "sentence", split_length: 10, respect_sentence_boundary: true });
    assert.is(splitter.initParameters.respect_sentence_boundary, false);
    assert.is(splitter.toDict().init_parameters.respect_sentence_boundary, false);
  } finally {
    console.warn = warn;
  }
  assert.match(warnings.join("\n"), /only supported for `split_by='word'`/);
});

test("test_sentence_serialization, test_nltk_serialization_roundtrip, test_respect_sentence_boundary_serialization", () => {
  const sentence = new DocumentSplitter(new DocumentSplitter({ split_by: "sentence", language: "de", use_split_rules: false, extend_abbreviations: false, respect_sentence_boundary: false }).toDict().init_parameters).initParameters;
  assert.equal([sentence.split_by, sentence.language, sentence.use_split_rules, sentence.extend_abbreviations, sentence.respect_sentence_boundary], ["sentence", "de", false, false, false]);
  const words = new DocumentSplitter(new DocumentSplitter({ split_by: "word", respect_sentence_boundary: true, language: "de" }).toDict().init_parameters).initParameters;
  assert.equal([words.respect_sentence_boundary, words.language], [true, "de"]);
});

test("test_duplicate_pages_get_different_doc_id", () => {
  const docs = splitText({ split_by: "page", split_length: 1 }, "This is some text.\fThis is some text.\fThis is some text.\fThis is some text.");
  assert.is(new Set(docs.map((d) => d.id)).size, 4);
});

test.run();
