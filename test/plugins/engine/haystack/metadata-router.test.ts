/**
 * Haystack's MetadataRouter tests (test/components/routers/test_metadata_router.py), ported value
 * for value; `from_dict` is building the component from a dict's `init_parameters`, and Python's
 * `output_type == list[...]` is checked on what the outputs accept.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { ByteStream, Document, DocumentWriter, InMemoryDocumentStore, MetadataRouter, Pipeline } from "svc/engine";

const TYPE = "haystack.components.routers.metadata_router.MetadataRouter";
const range = (from: string, to: string) => ({
  operator: "AND",
  conditions: [
    { field: "meta.created_at", operator: ">=", value: from },
    { field: "meta.created_at", operator: "<", value: to },
  ],
});
const EDGE_1 = () => ({ edge_1: { operator: "AND", conditions: [{ field: "meta.created_at", operator: ">=", value: "2025-02-01" }] } });
const created = (created_at: string) => new Document({ meta: { created_at } });
/** What an output of the router accepts, as Python compares `output_type`. */
const accepts = (router: MetadataRouter, value: unknown) => v.is(router.outputSockets.unmatched!.schema!, value);

test("test_run", () => {
  const router = new MetadataRouter({ rules: { edge_1: range("2023-01-01", "2023-04-01"), edge_2: range("2023-04-01", "2023-07-01") } });
  const output = router.run({ documents: [created("2023-02-01"), created("2023-05-01"), created("2023-08-01")] });
  assert.is(output.edge_1![0]!.meta.created_at, "2023-02-01");
  assert.is(output.edge_2![0]!.meta.created_at, "2023-05-01");
  assert.is(output.unmatched![0]!.meta.created_at, "2023-08-01");
});

test("test_run_with_byte_stream", () => {
  const byt1 = ByteStream.fromString("What is this", null, { language: "en" });
  const byt2 = ByteStream.fromString("Berlin ist die Haupststadt von Deutschland.", null, { language: "de" });
  const router = new MetadataRouter({ rules: { en: { field: "meta.language", operator: "==", value: "en" } }, output_type: "list[haystack.dataclasses.byte_stream.ByteStream]" });
  const output = router.run({ documents: [byt1, byt2] });
  assert.instance(output.en![0], ByteStream);
  assert.instance(output.unmatched![0], ByteStream);
  assert.equal((output.en![0] as ByteStream).data, byt1.data);
  assert.equal((output.unmatched![0] as ByteStream).data, byt2.data);
});

test("test_run_with_mixed_documents_and_byte_streams", () => {
  const byt1 = ByteStream.fromString("What is this", null, { language: "en" });
  const byt2 = ByteStream.fromString("Berlin ist die Haupststadt von Deutschland.", null, { language: "de" });
  const doc1 = new Document({ content: "What is this", meta: { language: "en" } });
  const doc2 = new Document({ content: "Berlin ist die Haupststadt von Deutschland.", meta: { language: "de" } });
  const router = new MetadataRouter({ rules: { en: { field: "meta.language", operator: "==", value: "en" } }, output_type: "list[haystack.dataclasses.document.Document | haystack.dataclasses.byte_stream.ByteStream]" });
  const output = router.run({ documents: [byt1, byt2, doc1, doc2] });
  assert.instance(output.en![0], ByteStream);
  assert.instance(output.en![1], Document);
  assert.instance(output.unmatched![0], ByteStream);
  assert.instance(output.unmatched![1], Document);
  assert.equal((output.en![0] as ByteStream).data, byt1.data);
  assert.is((output.en![1] as Document).content, "What is this");
  assert.equal((output.unmatched![0] as ByteStream).data, byt2.data);
  assert.is((output.unmatched![1] as Document).content, "Berlin ist die Haupststadt von Deutschland.");
  assert.ok(accepts(router, output.en));
});

test("test_run_wrong_filter", () => {
  const rules = {
    edge_1: { field: "meta.created_at", operator: ">=", value: "2023-01-01" },
    wrong_filter: { wrong_value: "meta.created_at == 2023-04-01" },
  };
  assert.throws(() => new MetadataRouter({ rules }), /Invalid filter syntax/);
});

test("test_run_datetime_with_timezone", () => {
  const router = new MetadataRouter({ rules: EDGE_1() });
  const output = router.run({ documents: [created("2025-02-03T12:45:46.435816Z"), created("2025-02-01T12:45:46.435816Z"), created("2025-01-03T12:45:46.435816Z")] });
  assert.is(output.edge_1!.length, 2);
  assert.is(output.edge_1![0]!.meta.created_at, "2025-02-03T12:45:46.435816Z");
  assert.is(output.edge_1![1]!.meta.created_at, "2025-02-01T12:45:46.435816Z");
  assert.is(output.unmatched![0]!.meta.created_at, "2025-01-03T12:45:46.435816Z");
});

test("test_run_with_strict_datetime_comparison", () => {
  const router = new MetadataRouter({ rules: { matched: { field: "meta.created_at", operator: ">=", value: "2025-02-01" } }, strict_datetime_comparison: true });
  const document = created("2025-02-03T12:45:46Z");
  const output = router.run({ documents: [document] });
  assert.equal(output.matched, []);
  assert.equal(output.unmatched, [document]);
});

test("test_datetime_equality_and_ordering_are_consistent_for_mixed_timezone_awareness", () => {
  const rules = Object.fromEntries(["==", ">=", "<="].map((operator) => [operator, { field: "meta.created_at", operator, value: "2023-01-01T00:00:00+00:00" }]));
  const document = created("2023-01-01T00:00:00");
  const output = new MetadataRouter({ rules }).run({ documents: [document] });
  assert.equal(output["=="], [document]);
  assert.equal(output[">="], [document]);
  assert.equal(output["<="], [document]);
  assert.equal(output.unmatched, []);
});

test("test_to_dict", () => {
  assert.equal(new MetadataRouter({ rules: EDGE_1() }).toDict(), {
    type: TYPE,
    init_parameters: { rules: EDGE_1(), output_type: "list[haystack.dataclasses.document.Document]", strict_datetime_comparison: false },
  });
});

test("test_to_dict_with_parameters", () => {
  const output_type = "list[haystack.dataclasses.byte_stream.ByteStream | haystack.dataclasses.document.Document]";
  assert.equal(new MetadataRouter({ rules: EDGE_1(), output_type, strict_datetime_comparison: true }).toDict(), {
    type: TYPE,
    init_parameters: { rules: EDGE_1(), output_type, strict_datetime_comparison: true },
  });
});

test("test_from_dict", () => {
  const router = new MetadataRouter({ rules: EDGE_1(), output_type: "list[haystack.dataclasses.document.Document]" });
  assert.equal(router.initParameters.rules, EDGE_1());
  assert.ok(accepts(router, [new Document({ content: "a" })]));
  assert.not.ok(accepts(router, [ByteStream.fromString("a")]));
});

test("test_from_dict_with_parameters", () => {
  const router = new MetadataRouter({ rules: EDGE_1(), output_type: "list[typing.Union[haystack.dataclasses.document.Document, haystack.dataclasses.byte_stream.ByteStream]]" });
  assert.equal(router.initParameters.rules, EDGE_1());
  assert.ok(accepts(router, [new Document({ content: "a" }), ByteStream.fromString("b")]));
  assert.not.ok(accepts(router, ["c"]));
});

test("test_from_dict_no_output_type", () => {
  const router = new MetadataRouter({ rules: EDGE_1() });
  assert.equal(router.initParameters.rules, EDGE_1());
  assert.ok(accepts(router, [new Document({ content: "a" })]));
  assert.not.ok(accepts(router, [ByteStream.fromString("a")]));
});

test("test_metadata_router_in_pipeline", async () => {
  const store = new InMemoryDocumentStore({ shared: false });
  const docs = [
    new Document({ content: "Hello, welcome to the world of Haystack!", meta: { language: "en" } }),
    new Document({ content: "Hallo, willkommen in der Welt von Haystack!", meta: { language: "de" } }),
  ];
  const pipeline = new Pipeline()
    .addComponent("router", new MetadataRouter({ rules: { en: { field: "meta.language", operator: "==", value: "en" } } }))
    .addComponent("writer", new DocumentWriter({ document_store: store }))
    .connect("router.en", "writer.documents");
  await pipeline.run({ router: { documents: docs } });
  assert.equal(store.filter_documents(), [docs[0]]);
});

test.run();
