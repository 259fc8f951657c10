/**
 * Haystack's JSONConverter tests (test/components/converters/test_json.py), ported value for value.
 * `from_dict` is building the component from `init_parameters`; `extra_meta_fields` is a list (a
 * Python set has no JSON form). jq's own error texts differ between jq versions ("Cannot index array
 * with string …"): the port checks the warning up to jq's words. Skipped:
 * `test_init_with_jq_schema_and_missing_dependency` (Python's optional `jq` import; svc ships jq).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ByteStream, JSONConverter } from "svc/engine";
import { loggedContext } from "../../../helpers/env.js";
import { rejects } from "../../../helpers/rejects.js";

const TEST_DATA = [
  { year: "1997", category: "literature", laureates: [{ id: "674", firstname: "Dario", surname: "Fokin", motivation: "who emulates the jesters of the Middle Ages in scourging authority and upholding the dignity of the downtrodden", share: "1" }] },
  {
    year: "1986",
    category: "medicine",
    laureates: [
      { id: "434", firstname: "Stanley", surname: "Cohen", motivation: "for their discoveries of growth factors", share: "2" },
      { id: "435", firstname: "Rita", surname: "Levi-Montalcini", motivation: "for their discoveries of growth factors", share: "2" },
    ],
  },
  {
    year: "1938",
    category: "physics",
    laureates: [{ id: "46", firstname: "Enrico", surname: "Fermi", motivation: "for his demonstrations of the existence of new radioactive elements produced by neutron irradiation, and for his related discovery of nuclear reactions brought about by slow neutrons", share: "1" }],
  },
];
const MOTIVATIONS = [TEST_DATA[0]!.laureates[0]!, ...TEST_DATA[1]!.laureates, TEST_DATA[2]!.laureates[0]!].map((l) => l.motivation);
const FULL_NAMES = ["Dario Fokin", "Stanley Cohen", "Rita Levi-Montalcini", "Enrico Fermi"].map((name, i) => `${name} ${MOTIVATIONS[i]}`);
const NAME_FILTER = '.laureates[] | .firstname + " " + .surname + " " + .motivation';
const FILES = ["first_test_file.json", "second_test_file.json", "first_test_file.json", "second_test_file.json"];
const PER_DOC_FILE = [{ file_path: "first_test_file.json" }, { file_path: "second_test_file.json" }, { file_path: "second_test_file.json" }, {}];

/** Haystack's three sources: two files (the first given as a string path) and a ByteStream without a path. */
async function withSources(fn: (sources: (string | ByteStream)[], dir: string) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), "svc-json-"));
  try {
    await writeFile(join(dir, FILES[0]!), JSON.stringify(TEST_DATA[0]));
    await writeFile(join(dir, FILES[1]!), JSON.stringify(TEST_DATA[1]));
    await fn([join(dir, FILES[0]!), join(dir, FILES[1]!), ByteStream.fromString(JSON.stringify(TEST_DATA[2]))], dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
async function convert(converter: JSONConverter, sources: (string | ByteStream)[], meta?: unknown) {
  const { ctx, warnings } = loggedContext("converter");
  await converter.warmUp();
  const result = await converter.run({ sources, ...(meta === undefined ? {} : { meta }) } as never, ctx);
  assert.equal(Object.keys(result), ["documents"]);
  return { documents: result.documents, warnings };
}
const contents = (docs: { content: string | null }[]) => docs.map((d) => d.content);
const metas = (docs: { meta: Record<string, unknown> }[]) => docs.map((d) => d.meta);

test("test_init_without_jq_schema_and_content_key", () => {
  assert.throws(() => new JSONConverter(), /No `jq_schema` nor `content_key` specified\. Set either or both to extract data\./);
});

test("test_init_without_jq_schema_and_missing_dependency", () => {
  assert.equal(new JSONConverter({ content_key: "foo" }).initParameters, { jq_schema: null, content_key: "foo", extra_meta_fields: null, store_full_path: false });
});

test("test_init_with_jq_schema", () => {
  assert.equal(new JSONConverter({ jq_schema: "." }).initParameters, { jq_schema: ".", content_key: null, extra_meta_fields: null, store_full_path: false });
});

test("test_to_dict", () => {
  assert.equal(new JSONConverter({ jq_schema: ".laureates[]", content_key: "motivation", extra_meta_fields: ["firstname", "surname"] }).toDict(), {
    type: "haystack.components.converters.json.JSONConverter",
    init_parameters: { jq_schema: ".laureates[]", content_key: "motivation", extra_meta_fields: ["firstname", "surname"], store_full_path: false },
  });
});

test("test_from_dict", () => {
  const converter = new JSONConverter({ content_key: "motivation", jq_schema: ".laureates[]", extra_meta_fields: ["firstname", "surname"], store_full_path: true });
  assert.equal(converter.initParameters, { jq_schema: ".laureates[]", content_key: "motivation", extra_meta_fields: ["firstname", "surname"], store_full_path: true });
});

for (const [name, init] of [["test_run", {}], ["test_run_with_store_full_path_false", { store_full_path: false }]] as const) {
  test(name, () =>
    withSources(async (sources) => {
      const { documents } = await convert(new JSONConverter({ jq_schema: NAME_FILTER, ...init }), sources);
      assert.equal(contents(documents), FULL_NAMES);
      assert.equal(metas(documents), PER_DOC_FILE);
    }),
  );
}

async function oneWarning(converter: JSONConverter, source: string | ByteStream, expected: RegExp) {
  const { documents, warnings } = await convert(converter, [source]);
  assert.equal(documents, []);
  assert.is(warnings.length, 1, warnings.join("\n"));
  assert.match(warnings[0]!, expected);
}
const withFile = async (name: string, data: string | Buffer, fn: (path: string) => Promise<void>) => {
  const dir = await mkdtemp(join(tmpdir(), "svc-json-"));
  try {
    await writeFile(join(dir, name), data);
    await fn(join(dir, name));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);

test("test_run_with_non_json_file", () =>
  withFile("test_file.md", "This is not a JSON file.", (path) =>
    oneWarning(new JSONConverter({ jq_schema: ".laureates | .motivation" }), path, new RegExp(`^Failed to extract text from ${escaped(path)}\\. Skipping it\\. Error: parse error: Invalid numeric literal at line 1, column 5$`)),
  ));

test("test_run_with_bad_filter", () =>
  withFile("test_file.json", JSON.stringify(TEST_DATA[0]), (path) =>
    oneWarning(new JSONConverter({ jq_schema: ".laureates | .motivation" }), path, new RegExp(`^Failed to extract text from ${escaped(path)}\\. Skipping it\\. Error: Cannot index array with string \\(?"motivation"\\)?$`)),
  ));

test("test_run_with_bad_encoding", () =>
  withFile("test_file.json", utf16(JSON.stringify(TEST_DATA[0])), (path) =>
    oneWarning(new JSONConverter({ jq_schema: ".laureates" }), path, new RegExp(`^Failed to extract text from ${escaped(path)}\\. Skipping it\\. Error: 'utf-8' codec can't decode byte`)),
  ));

test("test_run_with_malformed_json_and_content_key", () =>
  withFile("test_file.json", "This is not valid JSON.", (path) =>
    oneWarning(new JSONConverter({ content_key: "motivation" }), path, new RegExp(`^Failed to extract text from ${escaped(path)}\\. Skipping it\\. Error:`)),
  ));

test("test_run_with_bad_filter_and_bytestream_without_file_path", () =>
  oneWarning(new JSONConverter({ jq_schema: ".laureates | .motivation" }), new ByteStream(Buffer.from(JSON.stringify(TEST_DATA[0]))), /^Failed to extract text from unknown\. Skipping it\. Error:/));

test("test_run_with_bad_encoding_and_bytestream_without_file_path", () =>
  oneWarning(new JSONConverter({ jq_schema: ".laureates" }), new ByteStream(utf16(JSON.stringify(TEST_DATA[0]))), /^Failed to extract text from unknown\. Skipping it\. Error:/));

test("test_run_with_malformed_json_and_bytestream_without_file_path", () =>
  oneWarning(new JSONConverter({ content_key: "motivation" }), new ByteStream(Buffer.from("This is not valid JSON.")), /^Failed to extract text from unknown\. Skipping it\. Error:/));

test("test_run_with_single_meta", () =>
  withSources(async (sources) => {
    const { documents } = await convert(new JSONConverter({ jq_schema: NAME_FILTER }), sources, { creation_date: "1945-05-25T00:00:00" });
    assert.equal(contents(documents), FULL_NAMES);
    assert.equal(metas(documents), PER_DOC_FILE.map((m) => ({ ...m, creation_date: "1945-05-25T00:00:00" })));
  }));

test("test_run_with_meta_list", () =>
  withSources(async (sources) => {
    const dates = ["1945-05-25T00:00:00", "1943-09-03T00:00:00", "1989-11-09T00:00:00"];
    const { documents } = await convert(new JSONConverter({ jq_schema: NAME_FILTER }), sources, dates.map((creation_date) => ({ creation_date })));
    assert.equal(contents(documents), FULL_NAMES);
    assert.equal(metas(documents), [0, 1, 1, 2].map((source, i) => ({ ...PER_DOC_FILE[i], creation_date: dates[source] })));
  }));

test("test_run_with_meta_list_of_differing_length", async () => {
  await rejects(() => convert(new JSONConverter({ jq_schema: "." }), ["random_file.json"], [{}, {}]), /The length of the metadata list must match the number of sources\./);
});

test("test_run_with_jq_schema_and_content_key", () =>
  withSources(async (sources) => {
    const { documents } = await convert(new JSONConverter({ jq_schema: ".laureates[]", content_key: "motivation" }), sources);
    assert.equal(contents(documents), MOTIVATIONS);
    assert.equal(metas(documents), PER_DOC_FILE);
  }));

test("test_run_with_jq_schema_content_key_and_extra_meta_fields", () =>
  withSources(async (sources) => {
    const { documents } = await convert(new JSONConverter({ jq_schema: ".laureates[]", content_key: "motivation", extra_meta_fields: ["firstname", "surname"] }), sources);
    assert.equal(contents(documents), MOTIVATIONS);
    const names = [["Dario", "Fokin"], ["Stanley", "Cohen"], ["Rita", "Levi-Montalcini"], ["Enrico", "Fermi"]];
    assert.equal(metas(documents), names.map(([firstname, surname], i) => ({ ...PER_DOC_FILE[i], firstname, surname })));
  }));

test("test_run_with_content_key", () =>
  withSources(async (sources) => {
    const { documents } = await convert(new JSONConverter({ content_key: "category" }), sources);
    assert.equal(contents(documents), ["literature", "medicine", "physics"]);
    assert.equal(metas(documents), [{ file_path: "first_test_file.json" }, { file_path: "second_test_file.json" }, {}]);
  }));

test("test_run_with_content_key_and_extra_meta_fields", () =>
  withSources(async (sources) => {
    const { documents } = await convert(new JSONConverter({ content_key: "category", extra_meta_fields: ["year"] }), sources);
    assert.equal(contents(documents), ["literature", "medicine", "physics"]);
    assert.equal(metas(documents), [{ file_path: "first_test_file.json", year: "1997" }, { file_path: "second_test_file.json", year: "1986" }, { year: "1938" }]);
  }));

test("test_run_with_jq_schema_content_key_and_extra_meta_fields_literal", () =>
  withSources(async (sources) => {
    const { documents } = await convert(new JSONConverter({ jq_schema: ".laureates[]", content_key: "motivation", extra_meta_fields: "*" }), sources);
    assert.equal(contents(documents), MOTIVATIONS);
    const people = [["674", "Dario", "Fokin", "1"], ["434", "Stanley", "Cohen", "2"], ["435", "Rita", "Levi-Montalcini", "2"], ["46", "Enrico", "Fermi", "1"]];
    assert.equal(metas(documents), people.map(([id, firstname, surname, share], i) => ({ ...PER_DOC_FILE[i], id, firstname, surname, share })));
  }));

test("svc: a filter that does not compile fails warm-up (Haystack: the constructor)", async () => {
  await rejects(() => new JSONConverter({ jq_schema: ".a |||" }).warmUp(), /Invalid jq_schema "\.a \|\|\|": syntax error/);
});

test.run();
