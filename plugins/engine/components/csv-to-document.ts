/**
 * @module CSVToDocument (haystack.components.converters.csv): CSV files or ByteStreams →
 * Documents. `conversion_mode: file` (the default) makes one Document of the raw text per source;
 * `row` makes one per row (Python's `csv.DictReader` semantics: the first row is the header, a short
 * row's missing cells are "", a long row's surplus cells land under `extra_columns`), its content
 * the run's `content_column`, the other cells in meta (a name already in meta gets a `csv_` prefix
 * and, if needed, a numeric suffix). Sources that cannot be read or decoded are skipped with a
 * warning; a row-mode parse failure raises, as in Haystack.
 */
import * as v from "valibot";
import { parse } from "csv-parse/sync";
import { output, socket, type ComponentContext, warnerOf } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { pythonRepr } from "../jinja.js";
import { describe, documentMeta, MetaInputSchema, readSources, SourcesConverter, SourcesSchema, type MetaInput, type Source } from "./converter-sources.js";
import { decodeStrict } from "./python-codecs.js";

/** Row mode warns above this size: the whole file is parsed in memory. */
const ROW_MODE_SIZE_WARN_BYTES = 5 * 1024 * 1024;

const oneCharacter = (name: string) => v.pipe(v.string(), v.check((s) => s.length === 1, `CSVToDocument: ${name} must be a single character.`));

const Init = v.object({
  encoding: v.optional(v.string(), "utf-8"),
  store_full_path: v.optional(v.boolean(), false),
  conversion_mode: v.optional(v.picklist(["file", "row"]), "file"),
  delimiter: v.optional(oneCharacter("delimiter"), ","),
  quotechar: v.optional(oneCharacter("quotechar"), '"'),
});

type RunInputs = { sources: Source[]; content_column?: string | null; meta?: MetaInput };

export class CSVToDocument extends SourcesConverter<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.converters.csv.CSVToDocument";
  static override readonly aliases = ["CSVToDocument"];
  static override readonly initSchema = Init;

  protected override inputSpecs() {
    return { sources: socket(SourcesSchema), content_column: socket(v.nullable(v.string()), { default: null }), meta: socket(MetaInputSchema, { default: null }) };
  }

  protected override outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  async run(inputs: RunInputs, ctx?: ComponentContext) {
    const { encoding, store_full_path, conversion_mode } = this.initParameters;
    const warn = warnerOf(ctx);
    const documents: Document[] = [];
    for await (const { stream, source, meta: given } of readSources(inputs.sources, inputs.meta, ctx)) {
      let text: string;
      try {
        const own = stream.meta.encoding;
        text = decodeStrict(stream.data, typeof own === "string" && own ? own : encoding);
      } catch (error) {
        warn(`Could not convert file ${describe(source)}. Skipping it. Error message: ${(error as Error).message}`);
        continue;
      }
      const meta = documentMeta(stream, given, store_full_path);
      if (conversion_mode === "file") documents.push(new Document({ content: text, meta }));
      else documents.push(...this.rows(text, meta, inputs.content_column ?? null, describe(source), stream.data.length, warn));
    }
    return { documents };
  }

  private rows(text: string, base: Record<string, unknown>, contentColumn: string | null, source: string, size: number, warn: (m: string) => void): Document[] {
    if (!contentColumn) throw new Error("CSVToDocument(row): 'content_column' is required in run() when conversion_mode='row'.");
    if (size > ROW_MODE_SIZE_WARN_BYTES) warn(`CSVToDocument(row): parsing a large CSV (~${(size / (1024 * 1024)).toFixed(1)} MB). Consider chunking/streaming if you hit memory issues.`);
    let records: string[][];
    try {
      records = parse(text, { delimiter: this.initParameters.delimiter, quote: this.initParameters.quotechar, relax_column_count: true, relax_quotes: true, skip_empty_lines: true });
    } catch (error) {
      throw new Error(`CSVToDocument(row): could not parse CSV rows for ${source}: ${(error as Error).message}`, { cause: error });
    }
    const [header = [], ...rows] = records;
    if (!header.includes(contentColumn)) {
      throw new Error(`CSVToDocument(row): content_column='${contentColumn}' not found in header for ${source}. Available columns: ${pythonRepr(header)}`);
    }
    return rows.map((cells, rowNumber) => {
      const meta: Record<string, unknown> = { ...base };
      let content = "";
      const put = (name: string, value: string) => {
        if (name === contentColumn) return void (content = value);
        let key = name;
        if (key in meta) {
          const prefixed = `csv_${name}`;
          key = prefixed;
          for (let suffix = 1; key in meta; suffix++) key = `${prefixed}_${suffix}`;
        }
        meta[key] = value;
      };
      header.forEach((name, i) => put(name, cells[i] ?? ""));
      // DictReader's restkey: the surplus cells of a long row, as Python writes the list.
      if (cells.length > header.length) put("extra_columns", pythonRepr(cells.slice(header.length)));
      meta.row_number = rowNumber;
      return new Document({ content, meta });
    });
  }
}
