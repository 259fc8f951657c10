/**
 * Haystack's data class tests (haystack test/dataclasses: test_document.py, test_byte_stream.py,
 * test_chat_message.py serialization cases, test_answer.py), ported value for value.
 * Not ported, Python-only: `repr`/`str` text, NumPy embeddings, dataclass `replace` and the
 * in-place-mutation warnings, Pydantic's `model_dump` (its output form is ported by hand below).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ByteStream, ChatMessage, Document, GeneratedAnswer, ValueError } from "svc/engine";

const SPARSE = { indices: [0, 2, 4], values: [0.1, 0.2, 0.3] };
const bytes = (s: string) => [...Buffer.from(s)];
const same = (a: Document, b: Document) => assert.ok(a.equals(b), `${JSON.stringify(a.toDict(false))} != ${JSON.stringify(b.toDict(false))}`);

test("Document: init defaults and Haystack's id", () => {
  const doc = new Document();
  assert.is(doc.id, "d4675c57fcfe114db0b95f1da46eea3c5d6f5729c17d01fb5251ae19830a3455");
  assert.equal([doc.content, doc.blob, doc.meta, doc.score, doc.embedding, doc.sparse_embedding], [null, null, {}, null, null, null]);
  const full = new Document({
    content: "test text",
    blob: new ByteStream(Buffer.from("some bytes"), {}, "text/markdown"),
    meta: { text: "test text" },
    score: 0.812,
    embedding: [0.1, 0.2, 0.3],
    sparse_embedding: SPARSE,
  });
  assert.is(full.id, "c31efd4986b1f2424e5058482c6f668ccad2309043c2346524cd81d255e159fe");
});

test("Document: legacy fields are dropped (same id), content_type is a property", () => {
  for (const [legacy, meta, id] of [
    [{ content_type: "text", id_hash_keys: ["content"], dataframe: "placeholder" }, {}, "18fc2c114825872321cf5009827ca162f54d3be50ab9e9ffa027824b6ec223af"],
    [{ content_type: "text", id_hash_keys: ["content"] }, { date: "10-10-2023", type: "article" }, "dcd4914f727544e89ce8082f6f2e298d244dd0803a4dc167f19d24e7d43b28ac"],
  ] as const) {
    const doc = Document.fromDict({ content: "test text", score: 0.812, embedding: [0.1, 0.2, 0.3], meta, ...legacy });
    same(doc, new Document({ content: "test text", score: 0.812, embedding: [0.1, 0.2, 0.3], meta: { ...meta } }));
    assert.is(doc.id, id);
    assert.is(doc.contentType, "text");
    assert.not.ok("id_hash_keys" in doc || "dataframe" in doc);
  }
  assert.throws(() => new Document().contentType, /Content is not set/);
});

test("Document: non-string content is a ValueError", () => {
  for (const content of [123, 0, []]) {
    assert.throws(() => new Document({ content: content as never }), (e: Error) => e instanceof ValueError && /must be a string or None/.test(e.message));
    assert.throws(() => Document.fromDict({ content }), /must be a string or None/);
  }
});

test("Document: equality over all fields and meta; id independent of meta key order", () => {
  assert.not.ok(new Document({ content: "test text" }).equals("test text"));
  same(new Document({ content: "test text" }), new Document({ content: "test text" }));
  assert.not.ok(new Document({ id: "1234", content: "test text" }).equals(new Document({ id: "5678", content: "test text" })));
  const d1 = new Document({ id: "same_id", content: "hello", meta: { id: "different1" } });
  assert.not.ok(d1.equals(new Document({ id: "same_id", content: "hello", meta: { id: "different2" } })));
  same(d1, new Document({ id: "same_id", content: "hello", meta: { id: "different1" } }));
  assert.is(new Document({ content: "hello", meta: { a: 1, b: 2 } }).id, new Document({ content: "hello", meta: { b: 2, a: 1 } }).id);
  assert.is(new Document({ content: "hello", meta: { outer: { a: 1, b: 2 } } }).id, new Document({ content: "hello", meta: { outer: { b: 2, a: 1 } } }).id);
});

test("Document.to_dict: flattened by default, nested with flatten=false, colliding meta keys kept nested", () => {
  const empty = new Document();
  assert.equal(empty.toDict(), { id: empty.id, content: null, blob: null, score: null, embedding: null, sparse_embedding: null });
  assert.equal(empty.toDict(false), { id: empty.id, content: null, blob: null, meta: {}, score: null, embedding: null, sparse_embedding: null });
  const doc = new Document({
    content: "test text",
    blob: new ByteStream(Buffer.from("some bytes"), { foo: "bar" }, "application/pdf"),
    meta: { some: "values", test: 10 },
    score: 0.99,
    embedding: [10.0, 10.0],
    sparse_embedding: SPARSE,
  });
  assert.equal(doc.toDict(), {
    id: doc.id,
    content: "test text",
    blob: { data: bytes("some bytes"), mime_type: "application/pdf", meta: { foo: "bar" } },
    some: "values",
    test: 10,
    score: 0.99,
    embedding: [10.0, 10.0],
    sparse_embedding: SPARSE,
  });
  assert.equal(doc.toDict(false).meta, { some: "values", test: 10 });
  const colliding = new Document({ content: "from-content", score: 0.9, meta: { content: "from-meta", score: 0.5, source: "web" } });
  assert.equal(colliding.toDict(), { id: colliding.id, content: "from-content", blob: null, score: 0.9, embedding: null, sparse_embedding: null, source: "web", meta: { content: "from-meta", score: 0.5 } });
  assert.equal(JSON.parse(JSON.stringify(doc)), doc.toDict(), "JSON answers carry to_dict");
});

test("Document.from_dict: parameters, flat meta, flat and nested meta, legacy dataframe, no mutation, round-trips", () => {
  same(Document.fromDict({}), new Document());
  same(
    Document.fromDict({ content: "test text", blob: { data: bytes("some bytes"), mime_type: "text/markdown", meta: { text: "test text" } }, meta: { text: "test text" }, score: 0.812, embedding: [0.1, 0.2, 0.3], sparse_embedding: SPARSE }),
    new Document({ content: "test text", blob: new ByteStream(Buffer.from("some bytes"), { text: "test text" }, "text/markdown"), meta: { text: "test text" }, score: 0.812, embedding: [0.1, 0.2, 0.3], sparse_embedding: SPARSE }),
  );
  const flat = { content: "test text", blob: { data: bytes("some bytes"), mime_type: "text/markdown" }, score: 0.812, embedding: [0.1, 0.2, 0.3], sparse_embedding: SPARSE, date: "10-10-2023", type: "article" };
  const before = structuredClone(flat);
  same(
    Document.fromDict(flat),
    new Document({ content: "test text", blob: new ByteStream(Buffer.from("some bytes"), {}, "text/markdown"), score: 0.812, embedding: [0.1, 0.2, 0.3], sparse_embedding: SPARSE, meta: { date: "10-10-2023", type: "article" } }),
  );
  assert.equal(flat, before, "the input is not mutated");
  const mixed = Document.fromDict({ ...flat, meta: { test: 10 } });
  assert.equal(mixed.meta, { test: 10, date: "10-10-2023", type: "article" });
  for (const meta of [{ meta: "value" }, { meta: { nested: "value" }, author: "Alice" }, { id: "meta-id", content: "meta-content", source: "web" }, { dataframe: "not-a-dataframe" }]) {
    const doc = new Document({ content: "hello", meta });
    const restored = Document.fromDict(doc.toDict());
    same(restored, doc);
    assert.equal(restored.meta, meta);
  }
  const legacy = Document.fromDict({ id: "my_id", content: "my_content", dataframe: null, blob: null, meta: { key: "value" }, score: null, embedding: null, sparse_embedding: null });
  assert.equal([legacy.id, legacy.content, legacy.meta, legacy.score, legacy.embedding, legacy.sparse_embedding], ["my_id", "my_content", { key: "value" }, null, null, null]);
});

test("ByteStream: to_dict/from_dict (data as byte values), from_string and to_string", () => {
  const b = ByteStream.fromString("Hello, world!", "text/plain", { foo: "bar" });
  assert.equal(b.toDict(), { data: bytes("Hello, world!"), meta: { foo: "bar" }, mime_type: "text/plain" });
  const b2 = ByteStream.fromDict(b.toDict());
  assert.equal([b2.data, b2.mimeType, b2.meta], [b.data, b.mimeType, b.meta]);
  assert.is(ByteStream.fromString("héllo").toString(), "héllo");
  assert.equal(ByteStream.fromDict({ data: bytes("x") }).toDict(), { data: [120], meta: {}, mime_type: null });
});

const TOOL_CALL = { id: "123", tool_name: "mytool", arguments: { a: 1 }, extra: { call_id: "123" } };

test("ChatMessage: to_dict / from_dict round-trip over text, tool call, tool result, image and reasoning parts", () => {
  const message = new ChatMessage(
    "assistant",
    [
      { text: "Hello" },
      { tool_call: TOOL_CALL },
      { tool_call_result: { result: "result", origin: TOOL_CALL, error: false } },
      { image: { base64_image: "aGVsbG8=", mime_type: "image/png", detail: "auto", meta: { key: "value" }, validation: true } },
      { reasoning: { reasoning_text: "Let me think about it...", extra: { key: "value" } } },
    ],
    null,
    { some: "info" },
  );
  const serialized = message.toDict();
  assert.equal(serialized, {
    content: [
      { text: "Hello" },
      { tool_call: TOOL_CALL },
      { tool_call_result: { result: "result", error: false, origin: TOOL_CALL } },
      { image: { base64_image: "aGVsbG8=", mime_type: "image/png", detail: "auto", meta: { key: "value" }, validation: true } },
      { reasoning: { reasoning_text: "Let me think about it...", extra: { key: "value" } } },
    ],
    role: "assistant",
    name: null,
    meta: { some: "info" },
  });
  assert.equal(ChatMessage.fromDict(serialized).toDict(), serialized);
  assert.equal(JSON.parse(JSON.stringify(message)), serialized, "JSON answers carry to_dict");
});

test("ChatMessage.from_dict: invalid parts, missing role, missing content", () => {
  assert.throws(() => ChatMessage.fromDict({ role: "assistant", content: [{ text: "Hello" }, "invalid"] }), /Unsupported content part.*'text', 'image', 'file'/s);
  assert.throws(() => ChatMessage.fromDict({ role: "assistant", content: [{ text: "Hello" }, { invalid: "invalid" }] }), /Unsupported content part/);
  assert.throws(() => ChatMessage.fromDict({ content: [{ text: "Hello" }], meta: {} }), /The `role` field is required/);
  assert.throws(() => ChatMessage.fromDict({ role: "user", name: "some_name", meta: { some: "info" } }), /Missing 'content' or '_content'/);
});

test("ChatMessage.from_dict: pre-2.9 (string content) and 2.9–2.11 (_role, _content) forms, fields missing", () => {
  const pre29 = ChatMessage.fromDict({ role: "user", content: "This is a message", name: "some_name", meta: { some: "info" } });
  assert.equal([pre29.role, pre29.content, pre29.name, pre29.meta], ["user", [{ text: "This is a message" }], "some_name", { some: "info" }]);
  const pre29Min = ChatMessage.fromDict({ role: "user", content: "This is a message" });
  assert.equal([pre29Min.name, pre29Min.meta], [null, {}]);
  const pre212 = ChatMessage.fromDict({ _role: "user", _content: [{ text: "This is a message" }], _name: "some_name", _meta: { some: "info" } });
  assert.equal([pre212.role, pre212.content, pre212.name, pre212.meta], ["user", [{ text: "This is a message" }], "some_name", { some: "info" }]);
  const pre212Min = ChatMessage.fromDict({ _role: "user", _content: [{ text: "This is a message" }] });
  assert.equal([pre212Min.name, pre212Min.meta], [null, {}]);
  const current = ChatMessage.fromDict({ role: "user", content: [{ text: "This is a message" }] });
  assert.equal([current.role, current.content, current.name, current.meta], ["user", [{ text: "This is a message" }], null, {}]);
});

test("ChatMessage.from_dict: Pydantic's dump (raw fields, unwrapped parts)", () => {
  const cases = [
    ChatMessage.fromUser("What is the answer?", { some: "info" }, "virginia"),
    ChatMessage.fromAssistant(null, { toolCalls: [TOOL_CALL] }),
    ChatMessage.fromTool("42", { tool_name: "mytool", arguments: { a: 1 }, id: "123", extra: null }),
    ChatMessage.fromAssistant("Answer", { reasoning: { reasoning_text: "Thinking...", extra: { key: "value" } } }),
  ];
  for (const message of cases) {
    const d = message.toDict();
    // What Pydantic writes: the dataclass's own fields, each part without its key.
    const dump = { _role: d.role, _name: d.name, _meta: d.meta, _content: d.content.map((p) => Object.values(p)[0] as object).map((x, i) => ("text" in d.content[i]! ? { text: x } : x)) };
    assert.equal(ChatMessage.fromDict(dump).toDict(), d);
  }
});

test("GeneratedAnswer: flat to_dict (documents unflattened), the 2.x envelope still loads, the input is not mutated", () => {
  const doc = new Document({ content: "c", meta: { m: 1 } });
  const answer = new GeneratedAnswer("Paris", "capital?", [doc], { all_messages: [ChatMessage.fromAssistant("Paris")] });
  const d = answer.toDict();
  assert.equal(d, { data: "Paris", query: "capital?", documents: [doc.toDict(false)], meta: { all_messages: [ChatMessage.fromAssistant("Paris").toDict()] } });
  const before = structuredClone(d);
  const back = GeneratedAnswer.fromDict(d);
  assert.equal(d, before);
  assert.instance((back.meta.all_messages as unknown[])[0], ChatMessage);
  assert.is(GeneratedAnswer.fromDict({ type: GeneratedAnswer.type, init_parameters: d }).data, "Paris");
});

test.run();
