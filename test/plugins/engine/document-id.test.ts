import { createHash } from "node:crypto";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ByteStream, Document } from "../../../plugins/engine/dataclasses/document.js";
import { pyFloatRepr, pyJsonDumps } from "../../../plugins/engine/dataclasses/document-id.js";
import { DocumentSplitter } from "../../../plugins/engine/components/document-splitter.js";

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

/*
 * Haystack 3 (haystack/dataclasses/document.py, `_create_id`) hashes
 *   f"{text}{dataframe}{blob!r}{mime_type}{meta}{embedding}{sparse_embedding}"
 * with text = content or None, dataframe = None, blob!r = repr(bytes) or None, mime_type or None,
 * meta = json.dumps(meta, sort_keys=True, default=str) or "{}", embedding = repr(list) or None,
 * sparse_embedding = repr(asdict(sparse)) or "". Each expected string below is that f-string
 * written out by hand; the ids Haystack's own tests assert are checked too.
 */

test("an empty Document has Haystack's id (test_document.py::test_init)", () => {
  const expected = sha256("NoneNoneNoneNone{}None");
  assert.is(expected, "d4675c57fcfe114db0b95f1da46eea3c5d6f5729c17d01fb5251ae19830a3455");
  assert.is(new Document().id, expected);
  assert.is(new Document({ content: "" }).id, expected, "empty content counts as None");
});

test("content only: the content, then the None fields and an empty sparse embedding", () => {
  assert.is(new Document({ content: "x" }).id, sha256("xNoneNoneNone{}None"));
});

test("every field (test_document.py::test_init_with_parameters)", () => {
  const doc = new Document({
    content: "test text",
    blob: new ByteStream(Buffer.from("some bytes"), {}, "text/markdown"),
    meta: { text: "test text" },
    score: 0.812,
    embedding: [0.1, 0.2, 0.3],
    sparse_embedding: { indices: [0, 2, 4], values: [0.1, 0.2, 0.3] },
  });
  const expected = sha256(`test textNoneb'some bytes'text/markdown{"text": "test text"}[0.1, 0.2, 0.3]{'indices': [0, 2, 4], 'values': [0.1, 0.2, 0.3]}`);
  assert.is(expected, "c31efd4986b1f2424e5058482c6f668ccad2309043c2346524cd81d255e159fe");
  assert.is(doc.id, expected);
});

test("meta is sorted JSON, whatever the key order (test_init_with_legacy_fields)", () => {
  const expected = sha256(`test textNoneNoneNone{"date": "10-10-2023", "type": "article"}[0.1, 0.2, 0.3]`);
  assert.is(expected, "dcd4914f727544e89ce8082f6f2e298d244dd0803a4dc167f19d24e7d43b28ac");
  assert.is(new Document({ content: "test text", embedding: [0.1, 0.2, 0.3], meta: { type: "article", date: "10-10-2023" } }).id, expected);
  assert.is(new Document({ content: "test text", embedding: [0.1, 0.2, 0.3] }).id, "18fc2c114825872321cf5009827ca162f54d3be50ab9e9ffa027824b6ec223af");
});

test("nested meta, numbers, booleans, null and non-ASCII text as json.dumps writes them", () => {
  const meta = { z: { b: 2, a: [1, 2.5, true, null] }, "é": "naïve 🙂", page: 3, ratio: 1e-7, big: 1e16 };
  const json = `{"big": 10000000000000000, "page": 3, "ratio": 1e-07, "z": {"a": [1, 2.5, true, null], "b": 2}, "\\u00e9": "na\\u00efve \\ud83d\\ude42"}`;
  assert.is(pyJsonDumps(meta), json);
  assert.is(new Document({ content: "x", meta }).id, sha256(`xNoneNoneNone${json}None`));
});

test("embedding values are written as Python floats", () => {
  assert.equal([1, 0.5, 1e-5, 1e16, 123456789.125, -0.0001].map(pyFloatRepr), ["1.0", "0.5", "1e-05", "1e+16", "123456789.125", "-0.0001"]);
  assert.is(new Document({ content: "v", embedding: [1, 0] }).id, sha256("vNoneNoneNone{}[1.0, 0.0]"));
});

test("a blob's bytes use Python's bytes repr (quotes and escapes)", () => {
  const doc = new Document({ blob: new ByteStream(Buffer.from([0x69, 0x27, 0x6d, 0x0a, 0x00, 0xff, 0x5c]), {}, null) });
  assert.is(doc.id, sha256(`NoneNoneb"i'm\\n\\x00\\xff\\\\"None{}None`));
});

test("the splitter's source_id is the parent's Haystack id", () => {
  const parent = new Document({ content: "one two three four", meta: { name: "a.txt" } });
  assert.is(parent.id, sha256(`one two three fourNoneNoneNone{"name": "a.txt"}None`));
  const splitter = new DocumentSplitter({ split_by: "word", split_length: 2, split_overlap: 0 });
  const { documents } = splitter.run({ documents: [parent] }) as { documents: Document[] };
  assert.ok(documents.length === 2 && documents.every((d) => d.meta.source_id === parent.id));
  // Each chunk's own id hashes its meta too (source_id, page_number, split_id, split_idx_start).
  const first = documents[0]!;
  assert.is(first.id, sha256(`one two NoneNoneNone${pyJsonDumps(first.meta)}None`));
  assert.ok(pyJsonDumps(first.meta).startsWith(`{"name": "a.txt", "page_number": 1, "source_id": "${parent.id}", "split_id": 0, "split_idx_start": 0}`));
});

test.run();
