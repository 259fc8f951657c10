/**
 * Haystack's TextFileToDocument tests (test/components/converters/test_textfile_to_document.py),
 * ported value for value; the three text files are written with the content of Haystack's
 * test_files/txt/doc_1.txt, doc_2.txt and doc_3.txt.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { ByteStream, TextFileToDocument } from "svc/engine";

const warnings: string[] = [];
const ctx = () => ({ name: "converter", signal: new AbortController().signal, tracer: NOOP_TRACER, log: { warn: (m: string) => void warnings.push(m), info() {}, error() {}, debug() {} } as never });
const FILES = {
  "doc_1.txt": "Some text for testing.\nTwo lines in here.\n",
  "doc_2.txt": "This is a test line.\n123 456 789\n987 654 321.\n",
  "doc_3.txt": "That's yet another file!\n\nit contains\n\n\n\n\nmany\n\n\nempty lines.\n",
};

async function withFiles(fn: (dir: string) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), "svc-txt-"));
  try {
    for (const [name, text] of Object.entries(FILES)) await writeFile(join(dir, name), text);
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
const doc3Stream = (dir: string) => new ByteStream(Buffer.from(FILES["doc_3.txt"]), { file_path: join(dir, "doc_3.txt"), key: "value" });

test("test_run", () =>
  withFiles(async (dir) => {
    const docs = (await new TextFileToDocument().run({ sources: [join(dir, "doc_1.txt"), join(dir, "doc_2.txt"), doc3Stream(dir)] }, ctx())).documents;
    assert.is(docs.length, 3);
    assert.ok(docs[0]!.content!.includes("Some text for testing."));
    assert.ok(docs[1]!.content!.includes("This is a test line."));
    assert.ok(docs[2]!.content!.includes("That's yet another file!"));
    assert.equal([docs[0]!.meta.file_path, docs[1]!.meta.file_path], ["doc_1.txt", "doc_2.txt"]);
    assert.equal(docs[2]!.meta, { file_path: "doc_3.txt", key: "value" });
  }));

test("test_run_with_store_full_path", () =>
  withFiles(async (dir) => {
    const docs = (await new TextFileToDocument({ store_full_path: false }).run({ sources: [join(dir, "doc_1.txt"), doc3Stream(dir)] }, ctx())).documents;
    assert.equal(docs.map((d) => d.meta.file_path), ["doc_1.txt", "doc_3.txt"]);
    assert.ok(docs[1]!.content!.includes("That's yet another file!"));
  }));

test("test_run_error_handling", () =>
  withFiles(async (dir) => {
    warnings.length = 0;
    const docs = (await new TextFileToDocument().run({ sources: [join(dir, "doc_1.txt"), "non_existing_file.txt", join(dir, "doc_3.txt")] }, ctx())).documents;
    assert.match(warnings.join("\n"), /non_existing_file\.txt/);
    assert.equal(docs.map((d) => d.meta.file_path), ["doc_1.txt", "doc_3.txt"]);
  }));

test("test_encoding_override", async () => {
  const stream = new ByteStream(Buffer.from(FILES["doc_1.txt"]), { key: "value" });
  const converter = new TextFileToDocument({ encoding: "utf-16" });
  const asUtf16 = (await converter.run({ sources: [stream] }, ctx())).documents;
  assert.not.ok(asUtf16[0]?.content?.includes("Some text for testing."));
  stream.meta.encoding = "utf-8";
  assert.ok((await converter.run({ sources: [stream] }, ctx())).documents[0]!.content!.includes("Some text for testing."));
});

test("test_run_with_meta", async () => {
  const docs = (await new TextFileToDocument().run({ sources: [new ByteStream(Buffer.from("test"), { author: "test_author", language: "en" })], meta: [{ language: "it" }] }, ctx())).documents;
  assert.equal(docs[0]!.meta, { author: "test_author", language: "it" });
});

test.run();
