/**
 * Haystack's MarkdownToDocument tests (test/components/converters/test_markdown_to_document.py),
 * ported value for value with Haystack's test files (test/fixtures/haystack-files). The two cases
 * that patch Python functions (`normalize_metadata`, `MarkdownIt.render`) check what the patch
 * observed: the meta given for every source, merged over each ByteStream's own.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ByteStream, MarkdownToDocument, type Document } from "svc/engine";
import { repoRoot } from "../../../helpers/cli.js";
import { loggedContext } from "../../../helpers/env.js";

const FILES = join(repoRoot, "test/fixtures/haystack-files");
const SAMPLE = join(FILES, "markdown", "sample.md");
const convert = async (converter: MarkdownToDocument, sources: unknown[], meta: unknown = null) => {
  const logged = loggedContext("converter");
  const out = (await converter.run({ sources: sources as never, meta: meta as never }, logged.ctx)) as { documents: Document[] };
  return { documents: out.documents, warnings: logged.warnings.join("\n") };
};
const sampleContent = (doc: Document) => {
  assert.ok(doc.content!.includes("What to build with Haystack"));
  assert.ok(doc.content!.includes("# git clone https://github.com/deepset-ai/haystack.git"));
};

test("test_init_params_default", () => {
  const p = new MarkdownToDocument().initParameters;
  assert.is(p.table_to_single_line, false);
  assert.is(p.progress_bar, true);
  assert.is(p.encoding, "utf-8");
  assert.is(p.extract_frontmatter, false);
});

test("test_init_params_custom", () => {
  const p = new MarkdownToDocument({ table_to_single_line: true, progress_bar: false, store_full_path: false }).initParameters;
  assert.is(p.table_to_single_line, true);
  assert.is(p.progress_bar, false);
  assert.is(p.store_full_path, false);
});

test("test_run", async () => {
  const { documents } = await convert(new MarkdownToDocument(), [SAMPLE]);
  assert.is(documents.length, 1);
  documents.forEach(sampleContent);
});

test("test_run_with_store_full_path_false", async () => {
  const { documents } = await convert(new MarkdownToDocument({ store_full_path: false }), [SAMPLE]);
  assert.is(documents.length, 1);
  documents.forEach(sampleContent);
  assert.is(documents[0]!.meta.file_path, "sample.md");
});

test("test_run_calls_normalize_metadata", async () => {
  const bytestream = new ByteStream(Buffer.from("test"), { author: "test_author", language: "en" });
  const { documents } = await convert(new MarkdownToDocument(), [bytestream, SAMPLE], { language: "it" });
  assert.equal(documents.map((d) => d.meta.language), ["it", "it"]);
});

test("test_run_with_meta", async () => {
  const bytestream = new ByteStream(Buffer.from("test"), { author: "test_author", language: "en" });
  const { documents } = await convert(new MarkdownToDocument(), [bytestream, SAMPLE], { language: "it" });
  assert.is(documents[0]!.meta.author, "test_author");
  assert.is(documents[0]!.meta.language, "it");
  assert.is(documents[1]!.meta.language, "it");
});

test("test_run_extracts_yaml_frontmatter_into_metadata", async () => {
  const data = "---\nticker: AAPL\ndate: 2026-06-12\nrating_score: 4\nsource: earnings_call\ntags:\n  - guidance\n---\n# Thesis\nRevenue guidance improved.\n";
  const { documents } = await convert(new MarkdownToDocument({ progress_bar: false, extract_frontmatter: true }), [new ByteStream(Buffer.from(data), { file_path: "/tmp/aapl.md" })]);
  const doc = documents[0]!;
  assert.ok(doc.content!.includes("Revenue guidance improved."));
  assert.not.ok(doc.content!.includes("ticker: AAPL"));
  assert.is(doc.meta.ticker, "AAPL");
  assert.is(doc.meta.date, "2026-06-12");
  assert.is(doc.meta.rating_score, 4);
  assert.is(doc.meta.source, "earnings_call");
  assert.equal(doc.meta.tags, ["guidance"]);
  assert.is(doc.meta.file_path, "aapl.md");
});

test("test_run_keeps_frontmatter_as_content_by_default", async () => {
  const { documents } = await convert(new MarkdownToDocument({ progress_bar: false }), [new ByteStream(Buffer.from("---\nticker: AAPL\n---\n# Thesis\n"))]);
  assert.ok(documents[0]!.content!.includes("ticker: AAPL"));
  assert.not.ok("ticker" in documents[0]!.meta);
});

test("test_run_meta_overrides_frontmatter_metadata", async () => {
  const bytestream = new ByteStream(Buffer.from("---\nticker: AAPL\nsource: filing\n---\n# Thesis\n"), { source: "bytestream" });
  const { documents } = await convert(new MarkdownToDocument({ progress_bar: false, extract_frontmatter: true }), [bytestream], { ticker: "MSFT" });
  assert.is(documents[0]!.meta.ticker, "MSFT");
  assert.is(documents[0]!.meta.source, "filing");
});

test("test_run_keeps_malformed_frontmatter_as_content_and_logs_warning", async () => {
  const { documents, warnings } = await convert(new MarkdownToDocument({ progress_bar: false, extract_frontmatter: true }), [new ByteStream(Buffer.from("---\nticker: [AAPL\n---\n# Thesis\n"))]);
  assert.ok(documents[0]!.content!.includes("ticker: [AAPL"));
  assert.not.ok("ticker" in documents[0]!.meta);
  assert.match(warnings, /Could not parse YAML frontmatter/);
});

test("test_run_keeps_unserializable_frontmatter_as_content_and_logs_warning", async () => {
  const { documents, warnings } = await convert(new MarkdownToDocument({ progress_bar: false, extract_frontmatter: true }), [new ByteStream(Buffer.from("---\ncycle: &cycle\n  - *cycle\n---\n# Thesis\n"))]);
  assert.ok(documents[0]!.content!.includes("cycle:"));
  assert.not.ok("cycle" in documents[0]!.meta);
  assert.match(warnings, /Could not convert YAML frontmatter/);
});

test("test_run_wrong_file_type", async () => {
  const { documents, warnings } = await convert(new MarkdownToDocument(), [join(FILES, "audio", "answer.wav")]);
  assert.match(warnings, /codec can't decode byte/);
  assert.equal(documents, []);
});

test("test_run_error_handling", async () => {
  const { documents, warnings } = await convert(new MarkdownToDocument(), ["non_existing_file.md"]);
  assert.match(warnings, /Could not read non_existing_file\.md/);
  assert.equal(documents, []);
});

test("test_mixed_sources_run", async () => {
  const { documents } = await convert(new MarkdownToDocument(), [SAMPLE, SAMPLE, new ByteStream(await readFile(SAMPLE))]);
  assert.is(documents.length, 3);
  documents.forEach(sampleContent);
});

test("test_bytestream_encoding_from_meta", async () => {
  const { documents } = await convert(new MarkdownToDocument({ progress_bar: false }), [new ByteStream(Buffer.from("# caf\xe9", "latin1"), { encoding: "latin-1" })]);
  assert.is(documents.length, 1);
  assert.ok(documents[0]!.content!.includes("café"));
});

test("test_bytestream_encoding_from_init", async () => {
  const { documents } = await convert(new MarkdownToDocument({ encoding: "latin-1", progress_bar: false }), [new ByteStream(Buffer.from("# caf\xe9", "latin1"))]);
  assert.is(documents.length, 1);
  assert.ok(documents[0]!.content!.includes("café"));
});

test.run();
