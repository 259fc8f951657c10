/**
 * Haystack's PyPDFToDocument tests (test/components/converters/test_pypdf_to_document.py), ported
 * value for value with Haystack's test PDFs (test/fixtures/haystack-files/pdf). The cases that mock
 * pypdf's PdfReader and its pages (`_default_convert`, annotations) run on real PDFs made by pdf-lib
 * with the same page texts and link annotations; a malformed annotation is a reference to an object
 * the file does not have, an unreadable `/Annots` is such a reference in place of the array.
 */
import { join } from "node:path";
import { degrees, PDFDocument, PDFName, PDFRef, PDFString, StandardFonts } from "pdf-lib";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ByteStream, Document, DocumentSplitter, PyPDFToDocument } from "svc/engine";
import { repoRoot } from "../../../helpers/cli.js";
import { loggedContext } from "../../../helpers/env.js";

const PDF_DIR = join(repoRoot, "test/fixtures/haystack-files/pdf");
const SAMPLE_1 = join(PDF_DIR, "sample_pdf_1.pdf");
const convert = async (converter: PyPDFToDocument, sources: unknown[], meta: unknown = null) => {
  const logged = loggedContext("converter");
  const out = await converter.run({ sources: sources as never, meta: meta as never }, logged.ctx);
  return { documents: out.documents, warnings: logged.warnings.join("\n") };
};

/** One text line per page; `annots` sets the first page's /Annots from the document's context. */
async function makePdf(pages: string[], annots?: (doc: PDFDocument) => void): Promise<ByteStream> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) doc.addPage([400, 400]).drawText(text, { x: 40, y: 340, size: 12, font });
  annots?.(doc);
  return new ByteStream(Buffer.from(await doc.save()));
}
const linkAnnotation = (doc: PDFDocument, uri: string) =>
  doc.context.register(doc.context.obj({ Type: "Annot", Subtype: "Link", Rect: [40, 40, 200, 60], A: { S: "URI", URI: PDFString.of(uri) } }));

const LAYOUT_PARAMS = {
  extraction_mode: "layout",
  plain_mode_orientations: [0, 90],
  plain_mode_space_width: 150.0,
  layout_mode_space_vertically: false,
  layout_mode_scale_weight: 2.0,
  layout_mode_strip_rotated: false,
} as const;

test("test_init", () => {
  const p = new PyPDFToDocument().initParameters;
  assert.is(p.extraction_mode, "plain");
  assert.equal(p.plain_mode_orientations, [0, 90, 180, 270]);
  assert.is(p.plain_mode_space_width, 200.0);
  assert.is(p.layout_mode_space_vertically, true);
  assert.is(p.layout_mode_scale_weight, 1.25);
  assert.is(p.layout_mode_strip_rotated, true);
  assert.is(p.layout_mode_font_height_weight, 1.0);
  assert.is(p.link_format, "none");
});

test("test_init_custom_params", () => {
  const p = new PyPDFToDocument({ ...LAYOUT_PARAMS, layout_mode_font_height_weight: 0.5, link_format: "markdown" }).initParameters;
  assert.is(p.extraction_mode, "layout");
  assert.equal(p.plain_mode_orientations, [0, 90]);
  assert.is(p.plain_mode_space_width, 150.0);
  assert.is(p.layout_mode_space_vertically, false);
  assert.is(p.layout_mode_scale_weight, 2.0);
  assert.is(p.layout_mode_strip_rotated, false);
  assert.is(p.layout_mode_font_height_weight, 0.5);
  assert.is(p.link_format, "markdown");
});

test("test_init_invalid_extraction_mode", () => {
  assert.throws(() => new PyPDFToDocument({ extraction_mode: "invalid" }), /Unknown extraction mode 'invalid'\. Supported modes are: \['plain', 'layout'\]/);
  // Also refused as in Haystack: an unknown link format and an unknown init parameter.
  assert.throws(() => new PyPDFToDocument({ link_format: "html" }), /Unknown link format 'html'/);
  assert.throws(() => new PyPDFToDocument({ no_such_param: 1 }), /no_such_param/);
});

test("test_to_dict", () => {
  assert.equal(new PyPDFToDocument().toDict(), {
    type: "haystack.components.converters.pypdf.PyPDFToDocument",
    init_parameters: {
      extraction_mode: "plain",
      plain_mode_orientations: [0, 90, 180, 270],
      plain_mode_space_width: 200.0,
      layout_mode_space_vertically: true,
      layout_mode_scale_weight: 1.25,
      layout_mode_strip_rotated: true,
      layout_mode_font_height_weight: 1.0,
      store_full_path: false,
      link_format: "none",
    },
  });
  // The link format is written as its value, whatever case it was given in.
  assert.is(new PyPDFToDocument({ link_format: "MARKDOWN" }).toDict().init_parameters.link_format, "markdown");
});

test("test_from_dict", () => {
  const data = {
    type: "haystack.components.converters.pypdf.PyPDFToDocument",
    init_parameters: {
      extraction_mode: "plain",
      plain_mode_orientations: [0, 90, 180, 270],
      plain_mode_space_width: 200.0,
      layout_mode_space_vertically: true,
      layout_mode_scale_weight: 1.25,
      layout_mode_strip_rotated: true,
      layout_mode_font_height_weight: 1.0,
      link_format: "markdown",
    },
  };
  const instance = new PyPDFToDocument(data.init_parameters);
  assert.instance(instance, PyPDFToDocument);
  assert.equal(instance.initParameters, { ...data.init_parameters, store_full_path: false });
  assert.equal(new PyPDFToDocument(instance.toDict().init_parameters).toDict(), instance.toDict());
});

test("test_from_dict_defaults", () => {
  const instance = new PyPDFToDocument({});
  assert.instance(instance, PyPDFToDocument);
  assert.is(instance.initParameters.extraction_mode, "plain");
});

test("test_default_convert (pages joined by a form feed; layout parameters)", async () => {
  const pdf = await makePdf(["Page 1 content", "Page 2 content"]);
  const converter = new PyPDFToDocument({ ...LAYOUT_PARAMS, layout_mode_font_height_weight: 1.5 });
  assert.is(await converter.extract(pdf.data), "Page 1 content\fPage 2 content");
  assert.is(await new PyPDFToDocument().extract(pdf.data), "Page 1 content\fPage 2 content");
});

test("test_default_convert_with_link_format", async () => {
  const pdf = await makePdf(["Page 1 content"], (doc) => doc.getPage(0).node.set(PDFName.of("Annots"), doc.context.obj([linkAnnotation(doc, "https://example.com")])));
  const textMd = await new PyPDFToDocument({ link_format: "markdown" }).extract(pdf.data);
  assert.ok(textMd.includes("Page 1 content"));
  assert.ok(textMd.includes("[https://example.com](https://example.com)"));
  const textPlain = await new PyPDFToDocument({ link_format: "plain" }).extract(pdf.data);
  assert.ok(textPlain.includes("https://example.com (https://example.com)"));
});

test("test_malformed_annotation", async () => {
  const pdf = await makePdf(["Page 1 content"], (doc) =>
    doc.getPage(0).node.set(PDFName.of("Annots"), doc.context.obj([PDFRef.of(9999), linkAnnotation(doc, "https://valid.com")])),
  );
  const text = await new PyPDFToDocument({ link_format: "markdown" }).extract(pdf.data);
  assert.ok(text.includes("Page 1 content"));
  assert.ok(text.includes("[https://valid.com](https://valid.com)"));
});

test("test_unreadable_annotations", async () => {
  const pdf = await makePdf(["Page 1 content"], (doc) => doc.getPage(0).node.set(PDFName.of("Annots"), PDFRef.of(9998)));
  assert.is(await new PyPDFToDocument({ link_format: "markdown" }).extract(pdf.data), "Page 1 content");
});

test("test_run", async () => {
  const { documents } = await convert(new PyPDFToDocument(), [SAMPLE_1]);
  assert.is(documents.length, 1);
  assert.ok(documents[0]!.content!.includes("History"));
});

test("test_page_breaks_added", async () => {
  const { documents } = await convert(new PyPDFToDocument(), [SAMPLE_1]);
  assert.is(documents.length, 1);
  assert.is(documents[0]!.content!.split("\f").length - 1, 3);
});

test("test_run_with_meta (a real PDF where Haystack patches PdfReader)", async () => {
  const bytestream = new ByteStream((await makePdf(["test"])).data, { author: "test_author", language: "en" });
  const { documents } = await convert(new PyPDFToDocument(), [bytestream, SAMPLE_1], { language: "it" });
  // The ByteStream's meta is merged with the meta parameter, which wins.
  assert.is(documents[0]!.meta.author, "test_author");
  assert.is(documents[0]!.meta.language, "it");
  assert.is(documents[1]!.meta.language, "it");
});

test("test_run_with_store_full_path_false", async () => {
  let { documents } = await convert(new PyPDFToDocument({ store_full_path: true }), [SAMPLE_1]);
  assert.is(documents.length, 1);
  assert.is(documents[0]!.meta.file_path, SAMPLE_1);
  ({ documents } = await convert(new PyPDFToDocument({ store_full_path: false }), [SAMPLE_1]));
  assert.is(documents.length, 1);
  assert.is(documents[0]!.meta.file_path, "sample_pdf_1.pdf");
});

test("test_run_error_handling", async () => {
  const { documents, warnings } = await convert(new PyPDFToDocument(), ["non_existing_file.pdf"]);
  assert.match(warnings, /Could not read non_existing_file\.pdf/);
  assert.equal(documents, []);
});

test("test_mixed_sources_run", async () => {
  const { readFile } = await import("node:fs/promises");
  const { documents } = await convert(new PyPDFToDocument(), [SAMPLE_1, new ByteStream(await readFile(SAMPLE_1))]);
  assert.is(documents.length, 2);
  assert.ok(documents[0]!.content!.includes("History and standardization"));
  assert.ok(documents[1]!.content!.includes("History and standardization"));
});

test("test_run_empty_document", async () => {
  const { documents, warnings } = await convert(new PyPDFToDocument(), [join(PDF_DIR, "non_text_searchable.pdf")]);
  assert.match(warnings, /PyPDFToDocument could not extract text from the file/);
  assert.is(documents[0]!.content, "");
  // The meta is part of the document, and so of its id.
  assert.is(documents[0]!.meta.file_path, "non_text_searchable.pdf");
  assert.is.not(documents[0]!.id, new Document({ content: "" }).id);
});

test("test_run_detect_paragraphs_to_be_used_in_split_passage", async () => {
  const converter = new PyPDFToDocument({ extraction_mode: "layout" });
  const pdfDoc = await convert(converter, [join(PDF_DIR, "sample_pdf_2.pdf")]);
  const splitter = new DocumentSplitter({ split_length: 1, split_by: "passage" });
  const docs = (await splitter.run({ documents: pdfDoc.documents })) as { documents: Document[] };
  assert.is(docs.documents.length, 51);
  const expected =
    "A wiki (/ˈwɪki/ (About this soundlisten) WIK-ee) is a hypertext publication collaboratively\n" +
    "edited and managed by its own audience directly using a web browser. A typical wiki\ncontains " +
    "multiple pages for the subjects or scope of the project and may be either open\nto the public or " +
    "limited to use within an organization for maintaining its internal knowledge\nbase. Wikis are " +
    "enabled by wiki software, otherwise known as wiki engines. A wiki engine,\nbeing a form of a " +
    "content management system, diﬀers from other web-based systems\nsuch as blog software, in that " +
    "the content is created without any deﬁned owner or leader,\nand wikis have little inherent " +
    "structure, allowing structure to emerge according to the\nneeds of the users.[1]\n\n";
  assert.is(docs.documents[2]!.content, expected);
});

test("svc: layout mode's parameters (blank lines for vertical gaps, columns, rotated text)", async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([400, 400]);
  page.drawText("First paragraph", { x: 40, y: 340, size: 12, font });
  page.drawText("Right", { x: 300, y: 340, size: 12, font });
  page.drawText("Second paragraph", { x: 40, y: 280, size: 12, font });
  page.drawText("Sideways", { x: 380, y: 100, size: 12, font, rotate: degrees(90) });
  const data = Buffer.from(await doc.save());
  const layout = await new PyPDFToDocument({ extraction_mode: "layout" }).extract(data);
  // 60 points down at 12-point text: five lines, four of them blank; "Right" at its column.
  assert.match(layout, /^First paragraph {10,}Right\n{5}Second paragraph$/);
  const packed = await new PyPDFToDocument({ extraction_mode: "layout", layout_mode_space_vertically: false }).extract(data);
  assert.match(packed, /^First paragraph +Right\nSecond paragraph$/);
  const halfHeight = await new PyPDFToDocument({ extraction_mode: "layout", layout_mode_font_height_weight: 0.5 }).extract(data);
  assert.match(halfHeight, /Right\n{10}Second/);
  assert.not.ok(layout.includes("Sideways"));
  const withRotated = await new PyPDFToDocument({ extraction_mode: "layout", layout_mode_strip_rotated: false }).extract(data);
  assert.ok(withRotated.includes("Sideways"));
});

test.run();
