/**
 * @module PyPDFToDocument (haystack.components.converters.pypdf): PDF files → Documents, one per
 * file, pages separated by a form feed ("\f") as pypdf's text is joined in Haystack, so the
 * DocumentSplitter's `page` mode and the DocumentCleaner's header/footer removal work on it. Text
 * comes from PDF.js (through unpdf, which bundles it without native parts); pypdf's layout tuning
 * parameters are accepted for Haystack YAML and have no equivalent. Link annotations can be
 * appended per page (`link_format`).
 */
import type { getDocumentProxy } from "unpdf";
import * as v from "valibot";
import type { ComponentContext } from "../component.js";
import { convertSources, describe, SourcesConverter, type MetaInput, type Source } from "./converter-sources.js";
import { importOptional } from "./optional-package.js";

const Init = v.object({
  extraction_mode: v.optional(v.picklist(["plain", "layout"], "Unknown extraction mode. Supported modes are: ['plain', 'layout']"), "plain"),
  plain_mode_orientations: v.optional(v.array(v.number()), [0, 90, 180, 270]),
  plain_mode_space_width: v.optional(v.number(), 200),
  layout_mode_space_vertically: v.optional(v.boolean(), true),
  layout_mode_scale_weight: v.optional(v.number(), 1.25),
  layout_mode_strip_rotated: v.optional(v.boolean(), true),
  layout_mode_font_height_weight: v.optional(v.number(), 1),
  store_full_path: v.optional(v.boolean(), false),
  link_format: v.optional(v.pipe(v.string(), v.toLowerCase(), v.picklist(["markdown", "plain", "none"], "Unknown link format. Supported formats are: ['markdown', 'plain', 'none']")), "none"),
});

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** The URIs of a page's link annotations, formatted as Haystack formats them. */
async function pageLinks(pdf: PdfDocument, pageNumber: number, format: string): Promise<string[]> {
  try {
    const page = await pdf.getPage(pageNumber);
    const annotations = (await page.getAnnotations()) as { subtype?: string; url?: string }[];
    return annotations.filter((a) => a.subtype === "Link" && a.url).map((a) => (format === "markdown" ? `[${a.url}](${a.url})` : `${a.url} (${a.url})`));
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
      const text = await this.extract(new Uint8Array(stream.data));
      if (text.trim() === "") {
        const message = `PyPDFToDocument could not extract text from the file ${describe(source)}. Returning an empty document.`;
        if (ctx?.log) ctx.log.warn(message);
        else console.warn(message);
      }
      return text;
    });
  }

  /** Every page's text, pages joined by "\f". */
  async extract(data: Uint8Array): Promise<string> {
    // Loaded on first use: PDF.js is large, and most servers never convert a PDF.
    const { extractText, getDocumentProxy } = await importOptional<typeof import("unpdf")>("unpdf", "PyPDFToDocument");
    // PDF.js takes ownership of the buffer it is given; pass a copy.
    const pdf = await getDocumentProxy(data.slice(), { isEvalSupported: false, useSystemFonts: false, verbosity: 0 });
    try {
      const { text } = await extractText(pdf, { mergePages: false });
      const format = this.initParameters.link_format;
      const pages: string[] = [];
      for (const [i, pageText] of text.entries()) {
        const links = format === "none" ? [] : await pageLinks(pdf, i + 1, format);
        pages.push(links.length ? `${pageText}\n\n${links.join("\n")}` : pageText);
      }
      return pages.join("\f");
    } finally {
      await pdf.destroy();
    }
  }
}
