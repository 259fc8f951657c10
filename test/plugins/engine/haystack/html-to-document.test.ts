/**
 * Haystack's HTMLToDocument tests (test/components/converters/test_html_to_document.py), ported
 * value for value with Haystack's HTML test files (test/fixtures/haystack-files). Skipped:
 * `test_run_with_extraction_kwargs`, which patches trafilatura's `extract` to see the keyword
 * arguments it is given (svc extracts with html-to-text; `extraction_kwargs` are accepted for
 * Haystack YAML and not used).
 */
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ByteStream, HTMLToDocument, type Document } from "svc/engine";
import { repoRoot } from "../../../helpers/cli.js";
import { loggedContext } from "../../../helpers/env.js";

const FILES = join(repoRoot, "test/fixtures/haystack-files");
const HAYSTACK_HTML = join(FILES, "html", "what_is_haystack.html");
const convert = async (converter: HTMLToDocument, sources: unknown[], meta: unknown = null) => {
  const logged = loggedContext("converter");
  const out = (await converter.run({ sources: sources as never, meta: meta as never }, logged.ctx)) as { documents: Document[] };
  return { documents: out.documents, warnings: logged.warnings.join("\n") };
};
const haystackStream = async (meta: Record<string, unknown> = {}) => new ByteStream(await readFile(HAYSTACK_HTML), meta);

test("test_run", async () => {
  const { documents } = await convert(new HTMLToDocument(), [HAYSTACK_HTML], { test: "TEST" });
  assert.is(documents.length, 1);
  assert.ok(documents[0]!.content!.includes("Haystack"));
  assert.is(documents[0]!.meta.test, "TEST");
});

test("test_run_doc_metadata", async () => {
  const { documents } = await convert(new HTMLToDocument(), [HAYSTACK_HTML], [{ file_name: "what_is_haystack.html" }]);
  assert.is(documents.length, 1);
  assert.ok(documents[0]!.content!.includes("Haystack"));
  assert.is(documents[0]!.meta.file_name, "what_is_haystack.html");
});

test("test_run_with_store_full_path", async () => {
  let { documents } = await convert(new HTMLToDocument({ store_full_path: true }), [HAYSTACK_HTML]);
  assert.is(documents.length, 1);
  assert.ok(documents[0]!.content!.includes("Haystack"));
  assert.is(documents[0]!.meta.file_path, HAYSTACK_HTML);
  ({ documents } = await convert(new HTMLToDocument({ store_full_path: false }), [HAYSTACK_HTML]));
  assert.is(documents.length, 1);
  assert.ok(documents[0]!.content!.includes("Haystack"));
  assert.is(documents[0]!.meta.file_path, "what_is_haystack.html");
});

test("test_incorrect_meta", async () => {
  const meta = [{ file_name: "what_is_haystack.html" }, { file_name: "haystack.html" }];
  try {
    await convert(new HTMLToDocument(), [HAYSTACK_HTML], meta);
    assert.unreachable("should have thrown");
  } catch (error) {
    assert.match((error as Error).message, "The length of the metadata list must match the number of sources.");
  }
});

test("test_run_bytestream_metadata", async () => {
  const { documents } = await convert(new HTMLToDocument(), [await haystackStream({ content_type: "text/html", url: "test_url" })]);
  assert.is(documents.length, 1);
  assert.ok(documents[0]!.content!.includes("Haystack"));
  assert.equal(documents[0]!.meta, { content_type: "text/html", url: "test_url" });
});

test("test_run_bytestream_and_doc_metadata", async () => {
  const stream = await haystackStream({ content_type: "text/html", url: "test_url" });
  const { documents } = await convert(new HTMLToDocument(), [stream], [{ file_name: "what_is_haystack.html" }]);
  assert.is(documents.length, 1);
  assert.ok(documents[0]!.content!.includes("Haystack"));
  assert.equal(documents[0]!.meta, { file_name: "what_is_haystack.html", content_type: "text/html", url: "test_url" });
});

test("test_run_bytestream_doc_overlapping_metadata", async () => {
  const stream = await haystackStream({ content_type: "text/html", url: "test_url_correct" });
  const { documents } = await convert(new HTMLToDocument(), [stream], [{ file_name: "what_is_haystack.html", url: "test_url_new" }]);
  assert.is(documents.length, 1);
  assert.ok(documents[0]!.content!.includes("Haystack"));
  // The caller's "url" overwrites the ByteStream's.
  assert.equal(documents[0]!.meta, { file_name: "what_is_haystack.html", content_type: "text/html", url: "test_url_new" });
});

test("test_run_wrong_file_type", async () => {
  const { documents, warnings } = await convert(new HTMLToDocument(), [join(FILES, "audio", "answer.wav")]);
  assert.match(warnings, /Failed to extract text from/);
  assert.equal(documents, []);
});

test("test_run_error_handling", async () => {
  const { documents, warnings } = await convert(new HTMLToDocument(), ["non_existing_file.html"]);
  assert.match(warnings, /Could not read non_existing_file\.html/);
  assert.equal(documents, []);
});

test("test_run_empty_bytestream", async () => {
  const { documents, warnings } = await convert(new HTMLToDocument(), [new ByteStream(Buffer.alloc(0), {}, "text/html")]);
  assert.equal(documents, []);
  assert.match(warnings, /because it is empty/);
});

test("test_mixed_sources_run", async () => {
  const sources = [HAYSTACK_HTML, resolve(HAYSTACK_HTML), await haystackStream()];
  const { documents } = await convert(new HTMLToDocument(), sources);
  assert.is(documents.length, 3);
  for (const doc of documents) assert.ok(doc.content!.includes("Haystack"));
});

const LATIN1_HTML = Buffer.from("<html><body><p>caf\xe9</p></body></html>", "latin1");

test("test_bytestream_encoding_from_meta", async () => {
  const { documents } = await convert(new HTMLToDocument(), [new ByteStream(LATIN1_HTML, { encoding: "latin-1" })]);
  assert.is(documents.length, 1);
  assert.ok(documents[0]!.content!.includes("café"));
});

test("test_bytestream_encoding_from_init", async () => {
  const { documents } = await convert(new HTMLToDocument({ encoding: "latin-1" }), [new ByteStream(LATIN1_HTML)]);
  assert.is(documents.length, 1);
  assert.ok(documents[0]!.content!.includes("café"));
});

test("test_serde", () => {
  const converter = new HTMLToDocument({ encoding: "latin-1" });
  const again = new HTMLToDocument(converter.toDict().init_parameters);
  assert.equal(again.initParameters.extraction_kwargs, converter.initParameters.extraction_kwargs);
  assert.is(again.initParameters.encoding, converter.initParameters.encoding);
  // svc validates the encoding when the component is made.
  assert.throws(() => new HTMLToDocument({ encoding: "no-such-codec" }), /unknown encoding/);
});

test("test_run_difficult_html", async () => {
  const { documents } = await convert(new HTMLToDocument(), [join(FILES, "html", "paul_graham_superlinear.html")]);
  assert.is(documents.length, 1);
  assert.ok(documents[0]!.content!.includes("Superlinear"));
});

test.run();
