/**
 * Haystack's DocumentCleaner tests (test/components/preprocessors/test_document_cleaner.py),
 * ported value for value (the texts are Haystack's literals, escapes kept).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ByteStream, Document, DocumentCleaner } from "svc/engine";
import { loggedContext } from "../../../helpers/env.js";

// Haystack's multi-line literals, as Python reads them.
const TEXT_REPEATED = "First Page\f\fThis is a header.\n        Page  of\n        2\n        4\n        Lorem ipsum dolor sit amet\n        This is a footer number 1\n        This is footer number 2\fThis is a header.\n        Page  of\n        3\n        4\n        Sid ut perspiciatis unde\n        This is a footer number 1\n        This is footer number 2\fThis is a header.\n        Page  of\n        4\n        4\n        Sed do eiusmod tempor.\n        This is a footer number 1\n        This is footer number 2";
const EXPECTED_REPEATED = "First Page\f\f 2\n        4\n        Lorem ipsum dolor sit amet\f 3\n        4\n        Sid ut perspiciatis unde\f 4\n        4\n        Sed do eiusmod tempor.";
const TEXT_UNICODE = "        \uff71\uff72\uff73\uff74\uff75\n        Comment \u00e7a va\n        \u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645\n        em\u2003Space";
const EXPECTED_NFC = "        \uff71\uff72\uff73\uff74\uff75\n        Comment \u00e7a va\n        \u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645\n        em\u2003Space";
const EXPECTED_NFD = "        \uff71\uff72\uff73\uff74\uff75\n        Comment c\u0327a va\n        \u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645\n        em\u2003Space";
const EXPECTED_NFKC = "        \u30a2\u30a4\u30a6\u30a8\u30aa\n        Comment \u00e7a va\n        \u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645\n        em Space";
const EXPECTED_NFKD = "        \u30a2\u30a4\u30a6\u30a8\u30aa\n        Comment c\u0327a va\n        \u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645\n        em Space";
const TEXT_ASCII = "        \uff71\uff72\uff73\uff74\uff75\n        Comment \u00e7a va\n        \u00c1\n        \u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645\n        em\u2003Space";
const EXPECTED_ASCII = "        \n        Comment ca va\n        A\n         \n        em Space";
const MARKDOWN = "\n\n# Header\n\nThis is a paragraph.\n\n- Item 1\n- Item 2\n\n";
const EXPECTED_MARKDOWN = "# Header\n\nThis is a paragraph.\n\n- Item 1\n- Item 2";

const clean = (init: Record<string, unknown>, documents: Document[]) => {
  const logged = loggedContext("cleaner");
  const result = new DocumentCleaner(init).run({ documents }, logged.ctx) as { documents: Document[] };
  return { ...result, warnings: logged.warnings };
};
const cleanOne = (init: Record<string, unknown>, content: string) => clean(init, [new Document({ content })]).documents[0]!.content;

test("test_init", () => {
  const p = new DocumentCleaner().initParameters;
  assert.is(p.remove_empty_lines, true);
  assert.is(p.remove_extra_whitespaces, true);
  assert.is(p.remove_repeated_substrings, false);
  assert.is(p.remove_substrings, null);
  assert.is(p.remove_regex, null);
  assert.is(p.keep_id, false);
});

test("test_non_text_document", () => {
  assert.match(clean({}, [new Document()]).warnings.join("\n"), /DocumentCleaner only cleans text documents but document\.content for document ID/);
});

test("test_single_document", () => {
  assert.throws(() => new DocumentCleaner().run({ documents: new Document() as never }, loggedContext("c").ctx), (e: Error) => e instanceof TypeError && /DocumentCleaner expects a List of Documents as input\./.test(e.message));
});

test("test_empty_list", () => {
  assert.equal(clean({}, []).documents, []);
});

test("test_remove_empty_lines", () => {
  const result = clean({ remove_extra_whitespaces: false }, [new Document({ content: "This is a text with some words. \f" + "" + "There is a second sentence. " + "" + "And there is a third sentence." })]);
  assert.is(result.documents.length, 1);
  assert.is(result.documents[0]!.content, "This is a text with some words. \fThere is a second sentence. And there is a third sentence.");
});

test("test_remove_whitespaces", () => {
  const result = clean({ remove_empty_lines: false }, [new Document({ content: " This is a text with some words. " + "" + "There is a second sentence.  " + "" + "And there  is a third sentence.\f " })]);
  assert.is(result.documents.length, 1);
  assert.is(result.documents[0]!.content, "This is a text with some words. There is a second sentence. And there is a third sentence.\f");
});

test("test_remove_substrings", () => {
  assert.is(cleanOne({ remove_substrings: ["This", "A", "words", "\u{1FAB2}"] }, "This is a text with some words.\f\u{1FAB2}"), " is a text with some .\f");
});

test("test_remove_regex", () => {
  assert.is(cleanOne({ remove_regex: "\\s\\s+" }, "This is a  text \f with   some words."), "This is a text\fwith some words.");
});

test("test_remove_repeated_substrings", () => {
  const text = TEXT_REPEATED;
  assert.is(cleanOne({ remove_empty_lines: false, remove_extra_whitespaces: false, remove_repeated_substrings: true }, text), EXPECTED_REPEATED);
});

test("test_remove_repeated_substrings_preserves_unique_middle_page", () => {
  const text = "PAGE ONE\fThe quick brown fox jumps high\fPAGE THREE";
  const content = cleanOne({ remove_empty_lines: false, remove_extra_whitespaces: false, remove_repeated_substrings: true }, text)!;
  assert.is(content.split("\f")[1], "The quick brown fox jumps high");
  assert.equal(content.split("\f"), ["PAGE ONE", "The quick brown fox jumps high", "PAGE THREE"]);
  assert.is(content, text);
});

test("test_copy_metadata", () => {
  const documents = [new Document({ content: "Text. ", meta: { name: "doc 0" } }), new Document({ content: "Text. ", meta: { name: "doc 1" } })];
  const result = clean({}, documents).documents;
  assert.is(result.length, 2);
  assert.is.not(result[0]!.id, result[1]!.id);
  documents.forEach((doc, i) => {
    assert.equal(result[i]!.meta, doc.meta);
    assert.is(result[i]!.content, "Text.");
  });
});

test("test_keep_id_does_not_alter_document_ids", () => {
  const result = clean({ keep_id: true }, [new Document({ content: "Text. ", id: "1" }), new Document({ content: "Text. ", id: "2" })]).documents;
  assert.equal(result.map((d) => d.id), ["1", "2"]);
});

test("test_unicode_normalization", () => {
  const text = TEXT_UNICODE;
  const expected: Record<string, string> = { NFC: EXPECTED_NFC, NFD: EXPECTED_NFD, NFKC: EXPECTED_NFKC, NFKD: EXPECTED_NFKD };
  for (const form of ["NFC", "NFD", "NFKC", "NFKD"]) assert.is(cleanOne({ unicode_normalization: form, remove_extra_whitespaces: false }, text), expected[form], form);
});

test("test_ascii_only", () => {
  assert.is(cleanOne({ ascii_only: true, remove_extra_whitespaces: false, remove_empty_lines: false }, TEXT_ASCII), EXPECTED_ASCII);
});

test("test_other_document_fields_are_not_lost", () => {
  const document = new Document({
    content: "This is a text with some words. \nThere is a second sentence. \nAnd there is a third sentence.\n",
    blob: ByteStream.fromString("some_data"),
    meta: { data: 1 },
    score: 0.1,
    embedding: [0.1, 0.2, 0.3],
    sparse_embedding: { indices: [0, 2], values: [0.1, 0.3] },
  });
  const result = clean({ keep_id: true }, [document]);
  const out = result.documents[0]!;
  assert.is(out.id, document.id);
  assert.is(out.content, "This is a text with some words. There is a second sentence. And there is a third sentence.");
  assert.equal(out.blob, document.blob);
  assert.equal(out.meta, document.meta);
  assert.is(out.score, document.score);
  assert.equal(out.embedding, document.embedding);
  assert.equal(out.sparse_embedding, document.sparse_embedding);
});

test("test_strip_whitespaces", () => {
  assert.is(cleanOne({ remove_empty_lines: false, remove_extra_whitespaces: false, strip_whitespaces: true }, "   \n\nHello World\n\n  Some text here  \n\n   "), "Hello World\n\n  Some text here");
});

test("test_strip_whitespaces_preserves_internal_formatting", () => {
  assert.is(cleanOne({ remove_empty_lines: false, remove_extra_whitespaces: false, strip_whitespaces: true }, MARKDOWN), EXPECTED_MARKDOWN);
});

test("test_replace_regexes_single_pattern", () => {
  assert.is(cleanOne({ remove_empty_lines: false, remove_extra_whitespaces: false, replace_regexes: { "\\n\\n+": "\n" } }, "Line 1\n\n\n\nLine 2\n\nLine 3"), "Line 1\nLine 2\nLine 3");
});

test("test_replace_regexes_multiple_patterns", () => {
  assert.is(cleanOne({ remove_empty_lines: false, remove_extra_whitespaces: false, replace_regexes: { "\\n\\n+": "\n", "\\s{2,}": " " } }, "Hello    World\n\n\nGoodbye"), "Hello World\nGoodbye");
});

test("test_replace_regexes_custom_replacement", () => {
  const init = { remove_empty_lines: false, remove_extra_whitespaces: false, replace_regexes: { "\\[REDACTED\\]": "***", "(\\d{4})-(\\d{2})-(\\d{2})": "\\2/\\3/\\1" } };
  assert.is(cleanOne(init, "Name: [REDACTED], Date: 2024-01-15"), "Name: ***, Date: 01/15/2024");
});

test("test_strip_whitespaces_and_replace_regexes_combined", () => {
  assert.is(cleanOne({ remove_empty_lines: false, remove_extra_whitespaces: false, strip_whitespaces: true, replace_regexes: { "\\n\\n+": "\n" } }, "\n\n  Hello\n\n\nWorld  \n\n"), "Hello\nWorld");
});

test("test_init_with_new_params", () => {
  const p = new DocumentCleaner({ strip_whitespaces: true, replace_regexes: { "\\n+": "\n" } }).initParameters;
  assert.is(p.strip_whitespaces, true);
  assert.equal(p.replace_regexes, { "\\n+": "\n" });
});

test("test_replace_regexes_with_page_breaks", () => {
  assert.is(cleanOne({ remove_empty_lines: false, remove_extra_whitespaces: false, replace_regexes: { "Page \\d+": "" } }, "Page 1 content.\fPage 2 content."), " content.\f content.");
});

test.run();
