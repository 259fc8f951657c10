/**
 * Haystack's test/dataclasses/test_document.py: the cases dataclasses.test.ts does not hold yet
 * (that file holds init, legacy fields, non-string content, equality, id and meta-key order,
 * to_dict flat/nested/colliding, from_dict forms, the flatten round-trips and the 2.10 dataframe
 * form). Skipped, Python-only: `str(Document)` (Python's repr, 3 cases), NumPy embeddings, the
 * `dataclasses.replace` mutation warning and its no-warning twin.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ByteStream, Document, ValueError } from "svc/engine";

const SE = { indices: [0, 2, 4], values: [0.1, 0.2, 0.3] };
const same = (a: Document, b: Document) => assert.ok(a.equals(b), `${JSON.stringify(a.toDict(false))} != ${JSON.stringify(b.toDict(false))}`);

test("test_init_with_wrong_parameters", () => {
  assert.throws(() => new Document({ text: "" } as never), (e: Error) => e instanceof TypeError && /unexpected keyword argument 'text'/.test(e.message));
});

test("test_init_with_parameters", () => {
  const doc = new Document({ content: "test text", blob: new ByteStream(Buffer.from("some bytes"), {}, "text/markdown"), meta: { text: "test text" }, score: 0.812, embedding: [0.1, 0.2, 0.3], sparse_embedding: SE });
  assert.equal([doc.content, doc.blob!.data, doc.blob!.mimeType, doc.meta, doc.score, doc.embedding, doc.sparse_embedding], ["test text", Buffer.from("some bytes"), "text/markdown", { text: "test text" }, 0.812, [0.1, 0.2, 0.3], SE]);
  assert.is(doc.id, "c31efd4986b1f2424e5058482c6f668ccad2309043c2346524cd81d255e159fe");
});

test("test_to_dict_with_custom_parameters_without_flattening", () => {
  const doc = new Document({ content: "test text", blob: new ByteStream(Buffer.from("some bytes"), {}, "application/pdf"), meta: { some: "values", test: 10 }, score: 0.99, embedding: [10.0, 10.0], sparse_embedding: SE });
  assert.equal(doc.toDict(false), {
    id: doc.id,
    content: "test text",
    blob: { data: [...Buffer.from("some bytes")], mime_type: "application/pdf", meta: {} },
    meta: { some: "values", test: 10 },
    score: 0.99,
    embedding: [10.0, 10.0],
    sparse_embedding: SE,
  });
});

test("test_from_dict_does_not_mutate_input[nested meta]", () => {
  const data = { content: "test text", meta: { date: "10-10-2023", type: "article" }, score: 0.812 };
  const before = structuredClone(data);
  Document.fromDict(data);
  assert.equal(data, before);
});

test("test_from_dict_with_legacy_fields, test_from_dict_with_legacy_field_and_flat_meta (legacy fields also accepted, and dropped, by the constructor)", () => {
  const legacy = { content_type: "text", id_hash_keys: ["content"] };
  same(Document.fromDict({ content: "test text", ...legacy, score: 0.812, embedding: [0.1, 0.2, 0.3] }), new Document({ content: "test text", ...legacy, score: 0.812, embedding: [0.1, 0.2, 0.3] } as never));
  same(
    Document.fromDict({ content: "test text", ...legacy, score: 0.812, embedding: [0.1, 0.2, 0.3], date: "10-10-2023", type: "article" }),
    new Document({ content: "test text", ...legacy, score: 0.812, embedding: [0.1, 0.2, 0.3], meta: { date: "10-10-2023", type: "article" } } as never),
  );
});

test("test_content_type", () => {
  assert.is(new Document({ content: "text" }).contentType, "text");
  assert.throws(() => new Document().contentType, (e: Error) => e instanceof ValueError);
});

test.run();
