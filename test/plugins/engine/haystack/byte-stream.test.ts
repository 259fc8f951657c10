/**
 * Haystack's test/dataclasses/test_byte_stream.py, ported value for value (files in a fresh temp
 * directory). Skipped, Python-only: `str(ByteStream)` truncation (Python's repr), the
 * `dataclasses.replace` mutation warning and its no-warning twin.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ByteStream, ValueError } from "svc/engine";

const dir = mkdtempSync(join(tmpdir(), "bytestream-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test("test_from_file_path", () => {
  const path = join(dir, "test_from_file_path");
  writeFileSync(path, "Hello, world!\n");
  const b = ByteStream.fromFilePath(path);
  assert.equal([b.data.toString(), b.mimeType], ["Hello, world!\n", null]);
  assert.is(ByteStream.fromFilePath(path, { mimeType: "text/plain" }).mimeType, "text/plain");
  assert.equal(ByteStream.fromFilePath(path, { meta: { foo: "bar" } }).meta, { foo: "bar" });
});

const GUESSES: [string, string[]][] = [
  ["spam.jpeg", ["image/jpeg"]],
  ["spam.jpg", ["image/jpeg"]],
  ["spam.png", ["image/png"]],
  ["spam.gif", ["image/gif"]],
  ["spam.svg", ["image/svg+xml"]],
  ["spam.js", ["text/javascript", "application/javascript"]],
  ["spam.txt", ["text/plain"]],
  ["spam.html", ["text/html"]],
  ["spam.htm", ["text/html"]],
  ["spam.css", ["text/css"]],
  ["spam.csv", ["text/csv"]],
  ["spam.md", ["text/markdown"]],
  ["spam.markdown", ["text/markdown"]],
  ["spam.msg", ["application/vnd.ms-outlook"]],
  ["spam.pdf", ["application/pdf"]],
  ["spam.xml", ["application/xml", "text/xml"]],
  ["spam.json", ["application/json"]],
  ["spam.doc", ["application/msword"]],
  ["spam.docx", ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"]],
  ["spam.xls", ["application/vnd.ms-excel"]],
  ["spam.xlsx", ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"]],
  ["spam.ppt", ["application/vnd.ms-powerpoint"]],
  ["spam.pptx", ["application/vnd.openxmlformats-officedocument.presentationml.presentation"]],
];

for (const [name, expected] of GUESSES) {
  test(`test_from_file_path_guess_mime_type[${name}]`, () => {
    const path = join(dir, name);
    writeFileSync(path, "");
    const mime = ByteStream.fromFilePath(path, { guessMimeType: true }).mimeType;
    assert.ok(expected.includes(mime!), `${name}: ${mime}`);
  });
}

test("test_explicit_mime_type_is_not_overwritten_by_guessing", () => {
  const path = join(dir, "sample.md");
  writeFileSync(path, "");
  assert.is(ByteStream.fromFilePath(path, { mimeType: "text/x-rst", guessMimeType: true }).mimeType, "text/x-rst");
});

test("test_from_string, test_to_string", () => {
  const b = ByteStream.fromString("Hello, world!");
  assert.equal([b.data.toString(), b.mimeType], ["Hello, world!", null]);
  assert.is(ByteStream.fromString("Hello, world!", "text/plain").mimeType, "text/plain");
  assert.equal(ByteStream.fromString("Hello, world!", null, { foo: "bar" }).meta, { foo: "bar" });
  assert.is(b.toString(), "Hello, world!");
});

test("test_to_from_string_encoding, test_to_string_encoding_error", () => {
  const text = "Hello Baščaršija!";
  assert.throws(() => ByteStream.fromString(text, null, {}, "ISO-8859-1"), (e: Error) => e instanceof ValueError && /can't encode character 'š'/.test(e.message));
  const bs = ByteStream.fromString(text);
  assert.is.not(bs.toString("ISO-8859-1"), text);
  assert.is(bs.toString("utf-8"), text);
  assert.throws(() => ByteStream.fromString("Hello, world!").toString("utf-16"), "13 bytes are not UTF-16 text");
});

test("test_to_file", () => {
  const path = join(dir, "test_to_file");
  new ByteStream(Buffer.from("Hello, world!\n")).toFile(path);
  assert.is(readFileSync(path, "utf8"), "Hello, world!\n");
});

test("test_to_dict, test_to_trace_dict, test_from_dict", () => {
  const b = ByteStream.fromString("Hello, world!", "text/plain", { foo: "bar" });
  const d = b.toDict();
  assert.equal(d, { data: [...Buffer.from("Hello, world!")], mime_type: "text/plain", meta: { foo: "bar" } });
  assert.equal(new ByteStream(Buffer.from("Hello, world!"), { foo: "bar" }, "text/plain").toTraceDict(), { data: "Binary data (13 bytes)", mime_type: "text/plain", meta: { foo: "bar" } });
  const b2 = ByteStream.fromDict(d);
  assert.equal([b2.data, b2.mimeType, b2.meta], [b.data, b.mimeType, b.meta]);
});

test.run();
