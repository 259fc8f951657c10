/**
 * Haystack's FileTypeRouter tests (test/components/routers/test_file_router.py), ported value for
 * value. Haystack's test files are under test/fixtures/haystack-files (the text, Markdown and PDF
 * ones); the audio, image and Outlook files, which the router classifies by extension only, are
 * written as placeholders with Haystack's names. Paths come back as the strings given (Haystack:
 * `Path`s).
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { ByteStream, Component, FileTypeRouter, Pipeline, PyPDFToDocument, TextFileToDocument, createRegistry, dumpPipelineYaml, loadPipelineYaml, output, socket } from "svc/engine";
import { repoRoot } from "../../../helpers/cli.js";
import { loggedContext } from "../../../helpers/env.js";
import { rejects } from "../../../helpers/rejects.js";

let files: string;
test.before(async () => {
  files = await mkdtemp(join(tmpdir(), "svc-router-"));
  await cp(join(repoRoot, "test/fixtures/haystack-files"), files, { recursive: true });
  for (const [dir, name] of [["audio", "the context for this answer is here.wav"], ["audio", "this is the content of the document.wav"], ["images", "apple.jpg"], ["msg", "sample.msg"]]) {
    await mkdir(join(files, dir!), { recursive: true });
    await writeFile(join(files, dir!, name!), `placeholder for Haystack's ${name}`);
  }
});
test.after(() => rm(files, { recursive: true, force: true }));

const path = (...parts: string[]) => join(files, ...parts);
const DOC1 = () => path("txt", "doc_1.txt");
const DOC2 = () => path("txt", "doc_2.txt");
const WAV = () => path("audio", "the context for this answer is here.wav");
const JPG = () => path("images", "apple.jpg");
const DOCX = { "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx" };
const route = (router: FileTypeRouter, sources: unknown[], meta: unknown = null) => {
  const logged = loggedContext("router");
  return router.run({ sources: sources as never, meta: meta as never }, logged.ctx).then((out) => Object.assign(out, { __warnings: logged.warnings }));
};
const outputs = (out: Record<string, unknown>) => Object.fromEntries(Object.entries(out).filter(([k]) => k !== "__warnings")) as Record<string, unknown[]>;

test("test_init", () => {
  const router = new FileTypeRouter({ mime_types: ["text/plain", "audio/x-wav", "image/jpeg"] });
  assert.equal(router.initParameters.mime_types, ["text/plain", "audio/x-wav", "image/jpeg"]);
  assert.is(router.initParameters.additional_mimetypes, null);
  const withExtra = new FileTypeRouter({ mime_types: ["text/plain"], additional_mimetypes: DOCX });
  assert.equal(withExtra.initParameters.additional_mimetypes, DOCX);
});

test("test_init_fail_wo_mime_types", () => {
  assert.throws(() => new FileTypeRouter({ mime_types: [] }), /The list of mime types cannot be empty/);
});

test("test_to_dict", () => {
  assert.equal(new FileTypeRouter({ mime_types: ["text/plain", "audio/x-wav", "image/jpeg"], additional_mimetypes: DOCX }).toDict(), {
    type: "haystack.components.routers.file_type_router.FileTypeRouter",
    init_parameters: { mime_types: ["text/plain", "audio/x-wav", "image/jpeg"], additional_mimetypes: DOCX, raise_on_failure: false },
  });
});

const fromDict = (data: unknown) => loadPipelineYaml(JSON.stringify({ components: { router: data }, connections: [] }), createRegistry()).getComponent("router") as FileTypeRouter;

test("test_from_dict", () => {
  const loaded = fromDict({ type: "haystack.components.routers.file_type_router.FileTypeRouter", init_parameters: { mime_types: ["text/plain", "audio/x-wav", "image/jpeg"], additional_mimetypes: DOCX } });
  assert.equal(loaded.initParameters.mime_types, ["text/plain", "audio/x-wav", "image/jpeg"]);
  assert.equal(loaded.initParameters.additional_mimetypes, DOCX);
});

test("test_run", async () => {
  const out = outputs(await route(new FileTypeRouter({ mime_types: ["text/plain", "audio/x-wav", "image/jpeg", "application/vnd.ms-outlook"] }), [DOC1(), DOC2(), WAV(), JPG(), path("msg", "sample.msg")]));
  assert.is(out["text/plain"]!.length, 2);
  assert.is(out["audio/x-wav"]!.length, 1);
  assert.is(out["image/jpeg"]!.length, 1);
  assert.is(out["application/vnd.ms-outlook"]!.length, 1);
  assert.not.ok(out.unclassified);
});

test("test_run_with_single_meta", async () => {
  const out = outputs(await route(new FileTypeRouter({ mime_types: ["text/plain", "audio/x-wav"] }), [DOC1(), DOC2(), WAV()], { meta_field: "meta_value" }));
  assert.is(out["text/plain"]!.length, 2);
  assert.is(out["audio/x-wav"]!.length, 1);
  assert.not.ok(out.unclassified);
  for (const el of Object.values(out).flat()) {
    assert.instance(el, ByteStream);
    assert.is((el as ByteStream).meta.meta_field, "meta_value");
  }
});

test("test_run_with_meta_list", async () => {
  const meta = [{ key1: "value1" }, { key2: "value2" }, { key3: "value3" }];
  const out = outputs(await route(new FileTypeRouter({ mime_types: ["text/plain", "audio/x-wav", "image/jpeg"] }), [DOC1(), JPG(), WAV()], meta));
  assert.is(out["text/plain"]!.length, 1);
  assert.is(out["audio/x-wav"]!.length, 1);
  assert.is(out["image/jpeg"]!.length, 1);
  assert.not.ok(out.unclassified);
  Object.values(out).forEach((elements, i) => {
    for (const el of elements) {
      assert.instance(el, ByteStream);
      const [key, value] = Object.entries(meta[i]!)[0]!;
      assert.is((el as ByteStream).meta[key], value);
    }
  });
});

test("test_run_with_meta_and_bytestreams", async () => {
  const bs = ByteStream.fromString("Haystack!", "text/plain", { foo: "bar" });
  const out = outputs(await route(new FileTypeRouter({ mime_types: ["text/plain"] }), [bs], { another_key: "another_value" }));
  assert.is(out["text/plain"]!.length, 1);
  assert.not.ok(out.unclassified);
  const routed = out["text/plain"]![0] as ByteStream;
  assert.instance(routed, ByteStream);
  assert.is(routed.meta.foo, "bar");
  assert.is(routed.meta.another_key, "another_value");
});

test("test_run_fails_if_meta_length_does_not_match_sources", async () => {
  await rejects(() => route(new FileTypeRouter({ mime_types: ["text/plain"] }), [DOC1()], [{ key1: "value1" }, { key2: "value2" }, { key3: "value3" }]), /meta/i);
});

test("test_run_with_bytestreams", async () => {
  const paths = [DOC1(), DOC2(), WAV(), JPG()];
  const types = ["text/plain", "text/plain", "audio/x-wav", "image/jpeg"];
  const streams = await Promise.all(paths.map(async (p, i) => new ByteStream(await readFile(p), {}, types[i])));
  const unclassified = new ByteStream(Buffer.from("unclassified content"));
  unclassified.meta.content_type = "unknown_type";
  const out = outputs(await route(new FileTypeRouter({ mime_types: ["text/plain", "audio/x-wav", "image/jpeg"] }), [...streams, unclassified]));
  assert.is(out["text/plain"]!.length, 2);
  assert.is(out["audio/x-wav"]!.length, 1);
  assert.is(out["image/jpeg"]!.length, 1);
  assert.is(out.unclassified!.length, 1);
});

test("test_run_with_bytestreams_and_file_paths", async () => {
  const paths = [DOC1(), WAV(), DOC2(), JPG(), path("markdown", "sample.md")];
  const types = ["text/plain", "audio/x-wav", "text/plain", "image/jpeg", "text/markdown"];
  const streams = await Promise.all(paths.map(async (p, i) => new ByteStream(await readFile(p), {}, types[i])));
  const out = outputs(await route(new FileTypeRouter({ mime_types: ["text/plain", "audio/x-wav", "image/jpeg", "text/markdown"] }), [...paths.slice(0, 2), ...streams.slice(2)]));
  assert.is(out["text/plain"]!.length, 2);
  assert.is(out["audio/x-wav"]!.length, 1);
  assert.is(out["image/jpeg"]!.length, 1);
  assert.is(out["text/markdown"]!.length, 1);
});

test("test_no_files", async () => {
  assert.equal(outputs(await route(new FileTypeRouter({ mime_types: ["text/plain", "audio/x-wav", "image/jpeg"] }), [])), {});
});

test("test_unlisted_extensions", async () => {
  const mp3 = path("audio", "ignored.mp3"); // not among Haystack's test files either
  const out = outputs(await route(new FileTypeRouter({ mime_types: ["text/plain"], raise_on_failure: false }), [DOC1(), mp3, path("audio", "this is the content of the document.wav")]));
  assert.is(out["text/plain"]!.length, 1);
  assert.not.ok("mp3" in out);
  assert.is(out.unclassified!.length, 1);
  assert.is(String(out.failed![0]).split("/").pop(), "ignored.mp3");
});

test("test_no_extension", async () => {
  const out = outputs(await route(new FileTypeRouter({ mime_types: ["text/plain"] }), [DOC1(), DOC2(), path("txt", "doc_4")]));
  assert.is(out["text/plain"]!.length, 2);
  assert.is(out.unclassified!.length, 1);
});

test("test_unsupported_source_type", async () => {
  const error = await rejects(() => route(new FileTypeRouter({ mime_types: ["text/plain", "audio/x-wav", "image/jpeg"] }), [{ unsupported: "type" }]), /Unsupported data source type:/);
  assert.instance(error, TypeError);
});

test("test_invalid_regex_pattern", () => {
  assert.throws(() => new FileTypeRouter({ mime_types: ["[Invalid-Regex"] }), /Invalid MIME type or regex pattern/);
});

test("test_regex_mime_type_matching", async () => {
  const out = outputs(await route(new FileTypeRouter({ mime_types: ["text\\/.*", "audio\\/.*", "image\\/.*"] }), [DOC1(), WAV(), JPG()]));
  assert.is(out["text\\/.*"]!.length, 1, "Failed to match text file with regex");
  assert.is(out["audio\\/.*"]!.length, 1, "Failed to match audio file with regex");
  assert.is(out["image\\/.*"]!.length, 1, "Failed to match image file with regex");
});

test("test_exact_mime_type_matching", async () => {
  const txt = new ByteStream(Buffer.from("Text file content"), {}, "text/plain");
  const jpg = new ByteStream(Buffer.from("JPEG file content"), {}, "image/jpeg");
  const mp3 = new ByteStream(Buffer.from("MP3 file content"), {}, "audio/mpeg");
  const out = outputs(await route(new FileTypeRouter({ mime_types: ["text/plain", "image/jpeg"] }), [txt, jpg, mp3]));
  assert.equal([out["text/plain"], out["image/jpeg"], out.unclassified].map((l) => l!.length), [1, 1, 1]);
  assert.ok(out["text/plain"]!.includes(txt));
  assert.ok(out["image/jpeg"]!.includes(jpg));
  assert.ok(out.unclassified!.includes(mp3));
});

for (const literal of ["image/svg+xml", "application/ld+json", "application/atom+xml", "application/vnd.api+json", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"]) {
  test(`test_literal_mime_with_regex_metacharacters_matches_self[${literal}]`, async () => {
    const bs = new ByteStream(Buffer.from("x"), {}, literal);
    const out = outputs(await route(new FileTypeRouter({ mime_types: [literal] }), [bs]));
    assert.equal(out[literal], [bs]);
    assert.not.ok("unclassified" in out);
  });
}

test("test_to_dict_from_dict_preserves_literal_and_regex_mix", async () => {
  const loaded = fromDict(new FileTypeRouter({ mime_types: ["image/svg+xml", "audio/.*"] }).toDict());
  assert.equal(loaded.initParameters.mime_types, ["image/svg+xml", "audio/.*"]);
  const svg = new ByteStream(Buffer.from("<svg/>"), {}, "image/svg+xml");
  const wav = new ByteStream(Buffer.from("x"), {}, "audio/x-wav");
  const out = outputs(await route(loaded, [svg, wav]));
  assert.equal(out["image/svg+xml"], [svg]);
  assert.equal(out["audio/.*"], [wav]);
  assert.not.ok("unclassified" in out);
});

test("test_pipeline_output_socket_name_matches_literal_mime_with_plus", async () => {
  class Sink extends Component {
    static override readonly type = "test.Sink";
    protected inputSpecs() {
      return { value: socket(v.array(v.any())) };
    }
    protected outputSpecs() {
      return { received: output(v.array(v.any())) };
    }
    run(inputs: { value: unknown[] }) {
      return { received: inputs.value };
    }
  }
  const pipe = new Pipeline().addComponent("router", new FileTypeRouter({ mime_types: ["image/svg+xml"] })).addComponent("sink", new Sink()).connect("router.image/svg+xml", "sink.value");
  const svg = new ByteStream(Buffer.from("<svg/>"), {}, "image/svg+xml");
  const out = (await pipe.run({ router: { sources: [svg] } })) as any;
  assert.is(out.sink.received.length, 1);
  assert.equal(out.sink.received[0].data, svg.data);
  assert.is(out.sink.received[0].mimeType, "image/svg+xml");
});

for (const [name, mime, ext] of [["test_additional_mimetypes_with_literal_plus", "application/x-custom+xml", ".cxml"], ["test_additional_mimetypes_integration", "application/x-spam", ".spam"]] as const) {
  test(name, async () => {
    const dir = await mkdtemp(join(tmpdir(), "svc-router-extra-"));
    try {
      // Haystack's second case names the file `test..spam` (an f-string with the dotted extension).
      const file = join(dir, name === "test_additional_mimetypes_integration" ? `test.${ext}` : `test${ext}`);
      await writeFile(file, "");
      const out = outputs(await route(new FileTypeRouter({ mime_types: [mime], additional_mimetypes: { [mime]: ext } }), [file]));
      assert.ok(mime in out);
      assert.ok(out[mime]!.includes(file));
      assert.not.ok("unclassified" in out);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}

test("test_serde_in_pipeline", () => {
  const pipeline = new Pipeline().addComponent("file_type_router", new FileTypeRouter({ mime_types: ["text/plain", "application/pdf"] }));
  const yaml = dumpPipelineYaml(pipeline);
  const reloaded = loadPipelineYaml(yaml, createRegistry());
  assert.equal(reloaded.getComponent("file_type_router").toDict(), {
    type: "haystack.components.routers.file_type_router.FileTypeRouter",
    init_parameters: { mime_types: ["text/plain", "application/pdf"], additional_mimetypes: null, raise_on_failure: false },
  });
  assert.is(dumpPipelineYaml(reloaded), yaml);
  assert.match(yaml, /max_runs_per_component: 100/);
  assert.match(yaml, /connection_type_validation: true/);
  assert.match(yaml, /connections: \[\]/);
});

test("test_pipeline_with_converters", async () => {
  const pipe = new Pipeline()
    .addComponent("file_type_router", new FileTypeRouter({ mime_types: ["text/plain", "application/pdf"], additional_mimetypes: DOCX }))
    .addComponent("text_file_converter", new TextFileToDocument())
    .addComponent("pypdf_converter", new PyPDFToDocument())
    .connect("file_type_router.text/plain", "text_file_converter.sources")
    .connect("file_type_router.application/pdf", "pypdf_converter.sources");
  const out = (await pipe.run({ file_type_router: { sources: [DOC1(), path("pdf", "sample_pdf_1.pdf")], meta: [{ meta_field_1: "meta_value_1" }, { meta_field_2: "meta_value_2" }] } })) as any;
  assert.is(out.text_file_converter.documents[0].meta.meta_field_1, "meta_value_1");
  assert.is(out.pypdf_converter.documents[0].meta.meta_field_2, "meta_value_2");
});

test("test_non_existent_file", async () => {
  const router = new FileTypeRouter({ mime_types: ["text/plain"], raise_on_failure: true });
  for (const meta of [null, { spam: "eggs" }]) {
    const error = await rejects(() => route(router, ["non_existent.txt"], meta), /File not found: non_existent\.txt/);
    assert.is(error.name, "FileNotFoundError");
  }
});

test("test_logging_for_non_existent_file", async () => {
  const result = await route(new FileTypeRouter({ mime_types: ["text/plain"], raise_on_failure: false }), ["non_existent_file.txt"]);
  assert.match(result.__warnings.join("\n"), /File not found:/);
  assert.match(result.__warnings.join("\n"), /Skipping it\./);
  assert.equal(outputs(result).failed, ["non_existent_file.txt"]);
  assert.not.ok("text/plain" in result);
});

test.run();
