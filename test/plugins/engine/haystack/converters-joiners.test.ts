/**
 * Haystack's BranchJoiner tests (test/components/joiners/test_branch_joiner.py) and the
 * HTMLToDocument cases that need no test files (test/components/converters/test_html_to_document.py),
 * ported value for value.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { BranchJoiner } from "../../../../plugins/engine/components/branch-joiner.js";
import { HTMLToDocument } from "../../../../plugins/engine/components/html-to-document.js";
import { ByteStream } from "../../../../plugins/engine/dataclasses/document.js";

const warnings: string[] = [];
const ctx = () => ({ name: "c", signal: new AbortController().signal, tracer: NOOP_TRACER, log: { warn: (m: string) => void warnings.push(m), info() {}, error() {}, debug() {} } as never });

test("BranchJoiner: test_one_value, test_one_value_of_wrong_type, test_one_value_of_none_type (no type check at run)", () => {
  const joiner = new BranchJoiner({ type_: "int" });
  assert.equal(joiner.run({ value: [2] }), { value: 2 });
  assert.equal(joiner.run({ value: ["hello"] }), { value: "hello" });
  assert.equal(joiner.run({ value: [null] }), { value: null });
});

test("BranchJoiner: test_more_values_of_expected_type, test_no_values", () => {
  const joiner = new BranchJoiner({ type_: "int" });
  assert.throws(() => joiner.run({ value: [2, 3, 4] }), /BranchJoiner expects only one input, but 3 were received\./);
  assert.throws(() => joiner.run({ value: [] }), /BranchJoiner expects only one input, but 0 were received\./);
});

test("BranchJoiner: to_dict writes type_ (Haystack 3); `type_` is required; svc's older `type` still loads", () => {
  assert.equal(new BranchJoiner({ type_: "list[str]" }).toDict(), { type: "haystack.components.joiners.branch.BranchJoiner", init_parameters: { type_: "list[str]" } });
  assert.equal(new BranchJoiner({ type: "int" }).toDict().init_parameters, { type_: "int" });
  assert.throws(() => new BranchJoiner({}), /type_/);
});

test("HTMLToDocument: test_run_wrong_file_type (bytes that are not text are skipped with a warning)", async () => {
  warnings.length = 0;
  const wav = new ByteStream(Buffer.from([0x52, 0x49, 0x46, 0x46, 0x24, 0x08, 0x00, 0x00, 0x57, 0x41, 0x56, 0x45, 0xff, 0xfe, 0x80, 0x81]));
  assert.equal((await new HTMLToDocument().run({ sources: [wav] }, ctx())).documents, []);
  assert.match(warnings.join("\n"), /Failed to extract text from/);
});

test("HTMLToDocument: test_run_error_handling", async () => {
  warnings.length = 0;
  assert.equal((await new HTMLToDocument().run({ sources: ["non_existing_file.html"] }, ctx())).documents, []);
  assert.match(warnings.join("\n"), /Could not read non_existing_file\.html/);
});

test("HTMLToDocument: test_run_empty_bytestream", async () => {
  warnings.length = 0;
  assert.equal((await new HTMLToDocument().run({ sources: [new ByteStream(Buffer.alloc(0), {}, "text/html")] }, ctx())).documents, []);
  assert.match(warnings.join("\n"), /because it is empty/);
});

const LATIN1_HTML = Buffer.from("<html><body><p>caf\xe9</p></body></html>", "latin1");

test("HTMLToDocument: test_bytestream_encoding_from_meta, test_bytestream_encoding_from_init", async () => {
  const fromMeta = await new HTMLToDocument().run({ sources: [new ByteStream(LATIN1_HTML, { encoding: "latin-1" })] }, ctx());
  assert.is(fromMeta.documents.length, 1);
  assert.ok(fromMeta.documents[0]!.content!.includes("café"));
  const fromInit = await new HTMLToDocument({ encoding: "latin-1" }).run({ sources: [new ByteStream(LATIN1_HTML)] }, ctx());
  assert.is(fromInit.documents.length, 1);
  assert.ok(fromInit.documents[0]!.content!.includes("café"));
});

test("HTMLToDocument: test_serde (encoding and extraction_kwargs survive to_dict / from_dict); an unknown encoding is refused", () => {
  const serialized = new HTMLToDocument({ encoding: "latin-1" }).toDict();
  const again = new HTMLToDocument(serialized.init_parameters);
  assert.is(again.initParameters.encoding, "latin-1");
  assert.equal(again.initParameters.extraction_kwargs, null);
  assert.throws(() => new HTMLToDocument({ encoding: "no-such-codec" }), /unknown encoding/);
});

test.run();
