/**
 * @module PyPDFToDocument (haystack.components.converters.pypdf): PDF files → Documents, one per
 * file, pages separated by a form feed ("\f") as pypdf's text is joined in Haystack, so the
 * DocumentSplitter's `page` mode and the DocumentCleaner's header/footer removal work on it. Text
 * comes from PDF.js (through unpdf, which bundles it without native parts), as written in the file
 * (ligatures kept, as pypdf keeps them); `extraction_mode: layout` lays it out as pypdf's layout mode
 * does (pdf-page-text.ts), with its `layout_mode_*` parameters; the `plain_mode_*` ones tune pypdf's
 * own plain extraction and are accepted for Haystack YAML. Link annotations can be appended per
 * page (`link_format`).
 */
import type { getDocumentProxy } from "unpdf";
import * as v from "valibot";
import type { ComponentContext } from "../component.js";
import { convertSources, describe, SourcesConverter, type MetaInput, type Source } from "./converter-sources.js";
import { importOptional } from "./optional-package.js";
import { layoutPageText, plainPageText, type TextItem } from "./pdf-page-text.js";

const Init = v.object({
  extraction_mode: v.optional(v.picklist(["plain", "layout"], (i) => `Unknown extraction mode '${String(i.input)}'. Supported modes are: ['plain', 'layout']`), "plain"),
  plain_mode_orientations: v.optional(v.array(v.number()), [0, 90, 180, 270]),
  plain_mode_space_width: v.optional(v.number(), 200),
  layout_mode_space_vertically: v.optional(v.boolean(), true),
  layout_mode_scale_weight: v.optional(v.number(), 1.25),
  layout_mode_strip_rotated: v.optional(v.boolean(), true),
  layout_mode_font_height_weight: v.optional(v.number(), 1),
  store_full_path: v.optional(v.boolean(), false),
  link_format: v.optional(v.pipe(v.string(), v.toLowerCase(), v.picklist(["markdown", "plain", "none"], (i) => `Unknown link format '${String(i.input)}'. Supported formats are: ['markdown', 'plain', 'none']`)), "none"),
});

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** The URIs of a page's link annotations, formatted as Haystack formats them. */
async function pageLinks(pdf: PdfDocument, pageNumber: number, format: string): Promise<string[]> {
  try {
    const page = await pdf.getPage(pageNumber);
    const annotations = (await page.getAnnotations()) as { subtype?: string; url?: string; unsafeUrl?: string }[];
    // The URI as written (`unsafeUrl`), as pypdf reads it: PDF.js's `url` is normalized ("https://x.com/").
    const uris = annotations.filter((a) => a.subtype === "Link").map((a) => a.unsafeUrl || a.url);
    return uris.filter((uri): uri is string => !!uri).map((uri) => (format === "markdown" ? `[${uri}](${uri})` : `${uri} (${uri})`));
  } catch {
    return []; // unreadable annotations cost the links, not the page text (as in Haystack)
  }
}

export class PyPDFToDocument extends SourcesConverter<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.converters.pypdf.PyPDFToDocument";
  static override readonly aliases = ["PyPDFToDocument"];
  static override readonly initSchema = Init;

  run(inputs: { sources: Source[]; meta?: MetaInput }, ctx?: ComponentContext) {
    return convertSources(inputs.sources, inputs.meta, ctx, this.initParameters.store_full_path, async (stream, source) => {
      const text = await this.extract(stream.data);
      if (text.trim() === "") {
        const message = `PyPDFToDocument could not extract text from the file ${describe(source)}. Returning an empty document.`;
        if (ctx?.log) ctx.log.warn(message);
        else console.warn(message);
      }
      return text;
    });
  }

  /** As Haystack's `to_dict`: the enums written as their values (`link_format` lowercased). */
  override toDict() {
    const data = super.toDict();
    const { extraction_mode, link_format } = this.initParameters;
    return { ...data, init_parameters: { ...data.init_parameters, extraction_mode, link_format } };
  }

  /** Every page's text, pages joined by "\f". */
  async extract(data: Uint8Array): Promise<string> {
    // Loaded on first use: PDF.js is large, and most servers never convert a PDF.
    const { getDocumentProxy } = await importOptional<typeof import("unpdf")>("unpdf", "PyPDFToDocument");
    // PDF.js takes ownership of the buffer it is given, and wants a plain Uint8Array: pass a copy.
    const pdf = await getDocumentProxy(new Uint8Array(data), { isEvalSupported: false, useSystemFonts: false, verbosity: 0 });
    try {
      const { link_format: format, extraction_mode: mode } = this.initParameters;
      const pages: string[] = [];
      for (let n = 1; n <= pdf.numPages; n++) {
        const page = await pdf.getPage(n);
        // Unnormalized, as pypdf reads it: ligatures such as "ﬀ" stay one character.
        const items = (await page.getTextContent({ disableNormalization: true })).items.flatMap((item) => ("str" in item ? [item as TextItem] : []));
        const text = mode === "layout" ? layoutPageText(items, this.initParameters) : plainPageText(items);
        const links = format === "none" ? [] : await pageLinks(pdf, n, format);
        pages.push(links.length ? `${text}\n\n${links.join("\n")}` : text);
      }
      return pages.join("\f");
    } finally {
      await pdf.destroy();
    }
  }
}
