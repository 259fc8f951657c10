import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join as joinPath } from "node:path";
import { PDFDocument, PDFName, PDFString, StandardFonts } from "pdf-lib";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { ByteStream, Document } from "../../../plugins/engine/dataclasses/document.js";
import { TextFileToDocument } from "../../../plugins/engine/components/text-file-to-document.js";
import { MarkdownToDocument } from "../../../plugins/engine/components/markdown-to-document.js";
import { PyPDFToDocument } from "../../../plugins/engine/components/pypdf-to-document.js";
import { FileTypeRouter } from "../../../plugins/engine/components/file-type-router.js";
import { DocumentCleaner } from "../../../plugins/engine/components/document-cleaner.js";
import { guessMimeType } from "../../../plugins/engine/components/converter-sources.js";
import enginePlugin, { createRegistry, loadPipelineYaml } from "svc/engine";
import { withPipelineKernel } from "../../helpers/pipelines.js";
import { rejects } from "../../helpers/rejects.js";

const warnings: string[] = [];
const ctx = () => ({ name: "x", signal: new AbortController().signal, tracer: NOOP_TRACER, log: { warn: (m: string) => warnings.push(m) } as any });

let dir = "";
test.before(async () => {
  dir = await mkdtemp(joinPath(tmpdir(), "svc-files-"));
});
test.after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A PDF with one text line per page (and an optional link annotation on the first page), made by pdf-lib. */
async function makePdf(pages: string[][], link?: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([400, 400]);
    lines.forEach((line, i) => page.drawText(line, { x: 40, y: 340 - i * 20, size: 12, font }));
  }
  if (link) {
    const annot = doc.context.obj({ Type: "Annot", Subtype: "Link", Rect: [40, 40, 200, 60], Border: [0, 0, 0], A: { Type: "Action", S: "URI", URI: PDFString.of(link) } });
    doc.getPage(0).node.set(PDFName.of("Annots"), doc.context.obj([doc.context.register(annot)]));
  }
  return Buffer.from(await doc.save());
}

// ---- TextFileToDocument ----

test("TextFileToDocument: paths and ByteStreams, meta merge, file_path shortened, encoding, unreadable skipped", async () => {
  const path = joinPath(dir, "doc_1.txt");
  await writeFile(path, "This is the content from the txt file.");
  const latin = new ByteStream(Buffer.from([0x63, 0x61, 0x66, 0xe9]), { encoding: "latin-1", source: "s" });
  warnings.length = 0;
  const { documents } = await new TextFileToDocument().run({ sources: [path, latin, joinPath(dir, "missing.txt")], meta: [{ a: 1 }, { b: 2 }, {}] }, ctx());
  assert.is(documents.length, 2);
  assert.is(documents[0]!.content, "This is the content from the txt file.");
  assert.equal(documents[0]!.meta, { file_path: "doc_1.txt", a: 1 });
  assert.is(documents[1]!.content, "café");
  assert.equal(documents[1]!.meta, { encoding: "latin-1", source: "s", b: 2 });
  assert.match(warnings.join("\n"), /Could not read .*missing\.txt\. Skipping it/);
  const full = await new TextFileToDocument({ store_full_path: true }).run({ sources: [path] }, ctx());
  assert.is(full.documents[0]!.meta.file_path, path);
  // Bytes that are not UTF-8 are a conversion failure (skipped), not mojibake.
  const bad = await new TextFileToDocument().run({ sources: [new ByteStream(Buffer.from([0xff, 0xfe, 0x41]))] }, ctx());
  assert.is(bad.documents.length, 0);
  await rejects(() => new TextFileToDocument().run({ sources: [path], meta: [{}, {}] }, ctx()), /length of the metadata list/);
});

test("TextFileToDocument: the Document id is Haystack's for the same content and meta", async () => {
  const { documents } = await new TextFileToDocument().run({ sources: [ByteStream.fromString("x", "text/plain")] }, ctx());
  assert.is(documents[0]!.id, new Document({ content: "x", meta: {} }).id);
});

// ---- MarkdownToDocument ----

test("MarkdownToDocument: plain text without markup; front matter into meta on request", async () => {
  const md = "---\ntitle: Guide\ntags: [a, b]\n---\n# What to build with Haystack\n\nSome *emphasis* and `code`.\nNext line.\n\n- one\n- two\n\n```\nx = 1\n```\n";
  const stream = ByteStream.fromString(md, "text/markdown", { file_path: "/docs/guide.md" });
  const plain = await new MarkdownToDocument().run({ sources: [stream] }, ctx());
  const text = plain.documents[0]!.content!;
  assert.ok(text.includes("What to build with Haystack\nSome emphasis and code.\nNext line."), text);
  assert.ok(text.includes("one\ntwo") && text.includes("x = 1") && !text.includes("#") && !text.includes("*"), text);
  assert.is(plain.documents[0]!.meta.file_path, "guide.md");
  const withFm = await new MarkdownToDocument({ extract_frontmatter: true }).run({ sources: [stream], meta: { tags: "caller wins" } }, ctx());
  assert.equal(withFm.documents[0]!.meta, { file_path: "guide.md", title: "Guide", tags: "caller wins" });
  assert.ok(withFm.documents[0]!.content!.startsWith("What to build"));
  assert.ok(!text.startsWith("What"), "without extract_frontmatter the front matter stays content");
});

test("MarkdownToDocument: tables are text unless table_to_single_line", async () => {
  const table = "| a | b |\n|---|---|\n| 1 | 2 |\n";
  const off = await new MarkdownToDocument().run({ sources: [ByteStream.fromString(table)] }, ctx());
  assert.ok(off.documents[0]!.content!.includes("|"));
  const on = await new MarkdownToDocument({ table_to_single_line: true }).run({ sources: [ByteStream.fromString(table)] }, ctx());
  assert.is(on.documents[0]!.content, "a b 1 2");
});

// ---- PyPDFToDocument ----

test("PyPDFToDocument: pages joined by form feeds, meta, links, broken PDFs skipped", async () => {
  const pdf = await makePdf([["Hello page one", "second line"], ["Page two text"]], "https://example.com/x");
  const path = joinPath(dir, "sample.pdf");
  await writeFile(path, pdf);
  warnings.length = 0;
  const { documents } = await new PyPDFToDocument().run({ sources: [path, new ByteStream(Buffer.from("not a pdf"))], meta: { k: "v" } }, ctx());
  assert.is(documents.length, 1);
  assert.is(documents[0]!.content, "Hello page one\nsecond line\fPage two text");
  assert.equal(documents[0]!.meta, { file_path: "sample.pdf", k: "v" });
  assert.match(warnings.join("\n"), /Could not convert .* Skipping it/);
  const md = await new PyPDFToDocument({ link_format: "markdown" }).run({ sources: [new ByteStream(pdf)] }, ctx());
  assert.is(md.documents[0]!.content, "Hello page one\nsecond line\n\n[https://example.com/x](https://example.com/x)\fPage two text");
  const plain = await new PyPDFToDocument({ link_format: "plain" }).run({ sources: [new ByteStream(pdf)] }, ctx());
  assert.ok(plain.documents[0]!.content!.includes("https://example.com/x (https://example.com/x)"));
  assert.throws(() => new PyPDFToDocument({ extraction_mode: "fancy" }), /Unknown extraction mode/);
  // A PDF without text is an empty document, with a warning (Haystack's behaviour).
  const empty = await new PyPDFToDocument().run({ sources: [new ByteStream(await makePdf([[]]))] }, ctx());
  assert.is(empty.documents[0]!.content, "");
});

// ---- FileTypeRouter ----

test("FileTypeRouter: extensions, ByteStream mime types, regexes, additional types, failures", async () => {
  const txt = joinPath(dir, "file.txt"), pdf = joinPath(dir, "document.pdf"), mp3 = joinPath(dir, "song.mp3"), docx = joinPath(dir, "r.docx"), weird = joinPath(dir, "x.custom");
  for (const p of [txt, pdf, mp3, docx, weird]) await writeFile(p, "x");
  const svg = new ByteStream(Buffer.from("<svg/>"), {}, "image/svg+xml");
  const noType = new ByteStream(Buffer.from("?"));
  const router = new FileTypeRouter({ mime_types: ["text/plain", "application/pdf", "image/svg+xml", "audio/.*"], additional_mimetypes: { "application/x-custom": ".custom" } });
  assert.equal(Object.keys(router.outputSockets).sort(), ["application/pdf", "audio/.*", "failed", "image/svg+xml", "text/plain", "unclassified"]);
  const out = await router.run({ sources: [txt, pdf, mp3, svg, noType, docx, joinPath(dir, "gone.txt")] }, ctx());
  assert.equal(out["text/plain"], [txt]);
  assert.equal(out["application/pdf"], [pdf]);
  assert.equal(out["audio/.*"], [mp3]);
  assert.equal(out["image/svg+xml"], [svg]);
  assert.equal(out.unclassified, [noType, docx]);
  assert.equal(out.failed, [joinPath(dir, "gone.txt")]);
  assert.is(router.mimeTypeOf(weird), "application/x-custom");
  assert.is(guessMimeType("notes.md"), "text/markdown");
  assert.is(guessMimeType("mail.msg"), "application/vnd.ms-outlook");
  assert.is(guessMimeType("noext"), null);
  // Equality first; the regex fallback still reads `+` as a quantifier, as Python's fullmatch does.
  const plus = await new FileTypeRouter({ mime_types: ["image/svg+xml"] }).run({ sources: [new ByteStream(Buffer.from(""), {}, "image/svggxml"), new ByteStream(Buffer.from(""), {}, "image/svg-xml")] }, ctx());
  assert.equal(Object.keys(plus), ["image/svg+xml", "unclassified"]);
});

test("FileTypeRouter: meta turns sources into ByteStreams; raise_on_failure; bad init", async () => {
  const txt = joinPath(dir, "m.txt");
  await writeFile(txt, "hello");
  const out = await new FileTypeRouter({ mime_types: ["text/plain"] }).run({ sources: [txt], meta: { lang: "en" } }, ctx());
  const stream = out["text/plain"]![0] as ByteStream;
  assert.ok(stream instanceof ByteStream);
  assert.equal(stream.meta, { file_path: txt, lang: "en" });
  assert.is(stream.toString(), "hello");
  await rejects(() => new FileTypeRouter({ mime_types: ["text/plain"], raise_on_failure: true }).run({ sources: [joinPath(dir, "none.txt")] }, ctx()), /File not found/);
  assert.throws(() => new FileTypeRouter({ mime_types: [] }), /cannot be empty/);
  assert.throws(() => new FileTypeRouter({ mime_types: ["text/(plain"] }), /Invalid MIME type or regex pattern 'text\/\(plain'/);
});

// ---- DocumentCleaner: expected values computed by Haystack's DocumentCleaner code ----

const CLEANER_CASES: [string, Record<string, unknown>, string][] = [
  ["This   is  a  document  to  clean\n\n\nsubstring to remove", { remove_substrings: ["substring to remove"] }, "This is a document to clean "],
  ["  Hello\t\tworld  \n\n  second   line \fpage two\n\n\nend  ", {}, "Hello world second line\fpage two end"],
  ["  Hello\t\tworld  \n\n  second   line \fpage two\n\n\nend  ", { remove_extra_whitespaces: false }, "  Hello\t\tworld  \n  second   line \fpage two\nend  "],
  ["  Hello\t\tworld  \n\n  second   line \fpage two\n\n\nend  ", { remove_extra_whitespaces: false, remove_empty_lines: false, strip_whitespaces: true }, "Hello\t\tworld  \n\n  second   line \fpage two\n\n\nend"],
  ["Ünïcödé café ﬁ naïve – ok", { ascii_only: true }, "Unicode cafe fi naive ok"],
  ["ﬁ café", { unicode_normalization: "NFKC", remove_extra_whitespaces: false }, "fi café"],
  ["Tel 123-456 and 789-012 end", { remove_regex: "\\d{3}-\\d{3}" }, "Tel  and  end"],
  ["2024-01-05 and 2023-12-31\n\n\n\nx", { remove_empty_lines: false, remove_extra_whitespaces: false, replace_regexes: { "(\\d{4})-(\\d{2})-(\\d{2})": "\\3/\\2/\\1", "\\n\\n+": "\\n" } }, "05/01/2024 and 31/12/2023\nx"],
  [
    "Title page\fHeader Line Here A\nbody one\nFooter text goes here 1\fHeader Line Here A\nbody two more\nFooter text goes here 1\fHeader Line Here A\nbody three\nFooter text goes here 1\fLast page",
    { remove_repeated_substrings: true, remove_extra_whitespaces: false, remove_empty_lines: false },
    "Title page\f one\f two more\f three\fLast page",
  ],
];

test("DocumentCleaner: every option gives Haystack's text", () => {
  for (const [text, init, expected] of CLEANER_CASES) {
    const [doc] = new DocumentCleaner(init).run({ documents: [new Document({ content: text })] }, ctx()).documents;
    assert.is(doc!.content, expected, JSON.stringify(init));
  }
});

test("DocumentCleaner: ids, meta copies, non-text documents, bad input", () => {
  const doc = new Document({ content: "a  b", meta: { nested: { x: 1 } }, score: 0.5 });
  const [fresh] = new DocumentCleaner().run({ documents: [doc] }, ctx()).documents;
  assert.is(fresh!.id, new Document({ content: "a b", meta: { nested: { x: 1 } }, score: 0.5 }).id);
  assert.is.not(fresh!.meta.nested, doc.meta.nested, "meta is deep-copied");
  assert.is(fresh!.score, 0.5);
  assert.is(new DocumentCleaner({ keep_id: true }).run({ documents: [doc] }, ctx()).documents[0]!.id, doc.id);
  const blob = new Document({ blob: new ByteStream(Buffer.from("b")) });
  assert.is(new DocumentCleaner().run({ documents: [blob] }, ctx()).documents[0], blob);
  assert.throws(() => new DocumentCleaner().run({ documents: ["x"] as any }, ctx()), /expects a List of Documents/);
  assert.throws(() => new DocumentCleaner({ unicode_normalization: "NFX" }), /unicode_normalization must be one of/);
});

// ---- Loading Haystack's YAML ----

test("YAML: an indexing pipeline as Haystack writes it loads and runs", async () => {
  const yaml = `
components:
  router:
    type: haystack.components.routers.file_type_router.FileTypeRouter
    init_parameters:
      mime_types: [text/plain, application/pdf, text/markdown]
      additional_mimetypes: null
  text_converter:
    type: haystack.components.converters.txt.TextFileToDocument
    init_parameters: {encoding: utf-8, store_full_path: false}
  pdf_converter:
    type: haystack.components.converters.pypdf.PyPDFToDocument
    init_parameters: {extraction_mode: plain, plain_mode_orientations: !!python/tuple [0, 90, 180, 270], plain_mode_space_width: 200.0, layout_mode_space_vertically: true, layout_mode_scale_weight: 1.25, layout_mode_strip_rotated: true, layout_mode_font_height_weight: 1.0, store_full_path: false, link_format: none}
  markdown_converter:
    type: haystack.components.converters.markdown.MarkdownToDocument
    init_parameters: {table_to_single_line: false, progress_bar: true, store_full_path: false}
  joiner:
    type: haystack.components.joiners.document_joiner.DocumentJoiner
    init_parameters: {join_mode: concatenate}
  cleaner:
    type: haystack.components.preprocessors.document_cleaner.DocumentCleaner
    init_parameters: {remove_empty_lines: true, remove_extra_whitespaces: true, remove_repeated_substrings: false, keep_id: false, remove_substrings: null, remove_regex: null, unicode_normalization: null, ascii_only: false, strip_whitespaces: false, replace_regexes: null}
connections:
- {sender: router.text/plain, receiver: text_converter.sources}
- {sender: router.application/pdf, receiver: pdf_converter.sources}
- {sender: router.text/markdown, receiver: markdown_converter.sources}
- {sender: text_converter.documents, receiver: joiner.documents}
- {sender: pdf_converter.documents, receiver: joiner.documents}
- {sender: markdown_converter.documents, receiver: joiner.documents}
- {sender: joiner.documents, receiver: cleaner.documents}
`;
  const pipeline = loadPipelineYaml(yaml, createRegistry());
  const sources = [
    new ByteStream(Buffer.from("plain   text"), { file_path: "a.txt" }, "text/plain"),
    new ByteStream(await makePdf([["pdf text"]]), { file_path: "b.pdf" }, "application/pdf"),
    new ByteStream(Buffer.from("# Heading\n\nbody"), { file_path: "c.md" }, "text/markdown"),
  ];
  const result = await pipeline.run({ router: { sources } });
  const contents = (result.cleaner!.documents as Document[]).map((d) => d.content).sort();
  assert.equal(contents, ["Heading\nbody", "pdf text", "plain text"]);
});

// ---- Uploads to a YAML pipeline whose input is `sources` ----

const INDEXING_YAML = `components:
  router:
    type: haystack.components.routers.file_type_router.FileTypeRouter
    init_parameters: {mime_types: [text/plain, application/pdf]}
  txt:
    type: haystack.components.converters.txt.TextFileToDocument
  pdf:
    type: haystack.components.converters.pypdf.PyPDFToDocument
  joiner:
    type: haystack.components.joiners.document_joiner.DocumentJoiner
connections:
- {sender: router.text/plain, receiver: txt.sources}
- {sender: router.application/pdf, receiver: pdf.sources}
- {sender: txt.documents, receiver: joiner.documents}
- {sender: pdf.documents, receiver: joiner.documents}
inputs:
  sources: router.sources
outputs:
  documents: joiner.documents
  unclassified: router.unclassified
`;

test("a YAML pipeline with a `sources` input takes multipart uploads", () =>
  withPipelineKernel(
    async (k) => {
      const deployed = await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name: "indexing", source_code: INDEXING_YAML, save_file: false }) });
      assert.is(deployed.status, 200, await deployed.clone().text());
      const form = new FormData();
      form.append("files", new Blob(["hello from a text file"], { type: "text/plain" }), "notes.txt");
      // No type from the client: guessed from the extension.
      form.append("files", new Blob([new Uint8Array(await makePdf([["pdf upload"]]))], { type: "application/octet-stream" }), "report.pdf");
      form.append("files", new Blob(["?"]), "data.bin");
      const res = await fetch(`${k.url}/indexing/run`, { method: "POST", body: form });
      const body = (await res.json()) as any;
      assert.is(res.status, 200, JSON.stringify(body));
      // Hayhooks' shape, objects in Haystack's to_dict form (a document's meta flattened).
      const docs = body.result.joiner.documents as { content: string; file_path: string }[];
      assert.equal(docs.map((d) => [d.content, d.file_path]).sort(), [["hello from a text file", "notes.txt"], ["pdf upload", "report.pdf"]]);
      assert.equal(body.result.router.unclassified.map((s: any) => [s.meta.file_path, s.data, s.mime_type]), [["data.bin", [63], "application/octet-stream"]]);
      const none = await fetch(`${k.url}/indexing/run`, { method: "POST", body: new FormData() });
      assert.is(none.status, 400);
      assert.match(((await none.json()) as any).error.message, /Upload at least one file/);
      const json = await fetch(`${k.url}/indexing/run`, { method: "POST", body: JSON.stringify({ sources: ["/etc/passwd"] }), headers: { "content-type": "application/json" } });
      assert.is(json.status, 400, "paths on the server cannot be sent: JSON takes ByteStreams only");
      const streams = await fetch(`${k.url}/indexing/run`, { method: "POST", body: JSON.stringify({ sources: [{ data: "hello as JSON", meta: { file_path: "j.txt" }, mime_type: "text/plain" }] }), headers: { "content-type": "application/json" } });
      const streamsBody = (await streams.json()) as any;
      assert.is(streams.status, 200, JSON.stringify(streamsBody));
      assert.equal(streamsBody.result.joiner.documents.map((d: any) => [d.content, d.file_path]), [["hello as JSON", "j.txt"]]);
    },
    { plugins: [enginePlugin()] },
  ));

test.run();
