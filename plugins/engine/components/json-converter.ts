/**
 * @module JSONConverter (haystack.components.converters.json): JSON files or ByteStreams →
 * Documents. A `jq_schema` (real jq, compiled to WebAssembly by the jq-wasm package) picks values
 * out of each source; a `content_key` takes a document's content from an object (the whole source,
 * or each object the filter yields), `extra_meta_fields` (names, or "*" for all the others) its
 * meta. Values of the wrong shape are skipped with a warning, as are sources that are not UTF-8 or
 * JSON and filters that fail on a source.
 */
import * as v from "valibot";
import { warnerOf, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { pythonRepr } from "../jinja.js";
import { documentMeta, readSources, SourcesConverter, type MetaInput, type Source } from "./converter-sources.js";
import { decodeStrict } from "./python-codecs.js";

const Init = v.pipe(
  v.object({
    jq_schema: v.optional(v.nullable(v.string()), null),
    content_key: v.optional(v.nullable(v.string()), null),
    extra_meta_fields: v.optional(v.nullable(v.union([v.literal("*"), v.array(v.string())])), null),
    store_full_path: v.optional(v.boolean(), false),
  }),
  v.check((p) => Boolean(p.jq_schema) || p.content_key !== null, "No `jq_schema` nor `content_key` specified. Set either or both to extract data."),
);

/** Runs a jq filter; jq's 1.3 MB WebAssembly build is loaded on first use, not when the engine loads. */
const jq = async (input: string, filter: string, flags: string[]) => (await import("jq-wasm")).raw(input, filter, flags);
/** jq's own message, without the command-line prefix the WebAssembly build adds. */
const jqMessage = (error: unknown) => String((error as Error).message ?? error).replace(/^jq: (error(?: \(at [^)]*\))?: )?/, "").replace(/\njq: \d+ compile errors?$/, "");
/** Python's str() of a JSON scalar. */
const pyStr = (value: unknown) => (typeof value === "string" ? value : pythonRepr(value));
const isContainer = (value: unknown) => value !== null && typeof value === "object";

export class JSONConverter extends SourcesConverter<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.converters.json.JSONConverter";
  static override readonly aliases = ["JSONConverter"];
  static override readonly initSchema = Init;

  /** Compiles the filter once, so a pipeline with a broken one fails to deploy (Haystack: at init). */
  async warmUp() {
    const filter = this.initParameters.jq_schema;
    if (!filter) return;
    try {
      await jq("null", filter, ["-c"]);
    } catch (error) {
      const message = jqMessage(error);
      // A filter that compiles may still fail on `null`; only compile errors are the filter's fault.
      if (/compile error|syntax error/.test(String((error as Error).message))) throw new Error(`Invalid jq_schema ${JSON.stringify(filter)}: ${message}`);
    }
  }

  async run(inputs: { sources: Source[]; meta?: MetaInput }, ctx?: ComponentContext) {
    const warn = warnerOf(ctx);
    const documents: Document[] = [];
    for await (const { stream, meta: given } of readSources(inputs.sources, inputs.meta, ctx)) {
      for (const [text, found] of await this.contentAndMeta(stream.data, String(stream.meta.file_path || "unknown"), warn)) {
        documents.push(new Document({ content: text, meta: documentMeta(stream, { ...given, ...found }, this.initParameters.store_full_path) }));
      }
    }
    return { documents };
  }

  private async contentAndMeta(data: Buffer, source: string, warn: (m: string) => void): Promise<[string, Record<string, unknown>][]> {
    const { jq_schema, content_key, extra_meta_fields } = this.initParameters;
    let objects: unknown[];
    try {
      const text = decodeStrict(data, "utf-8");
      objects = jq_schema ? (await jq(text, jq_schema, ["-c"])).split("\n").filter(Boolean).map((line) => JSON.parse(line)) : [JSON.parse(text)];
    } catch (error) {
      warn(`Failed to extract text from ${source}. Skipping it. Error: ${error instanceof SyntaxError ? error.message : jqMessage(error)}`);
      return [];
    }
    const result: [string, Record<string, unknown>][] = [];
    for (const obj of objects) {
      if (content_key === null) {
        if (isContainer(obj)) warn(`Expected a scalar value but got ${pythonRepr(obj)}. Skipping it.`);
        else result.push([pyStr(obj), {}]);
        continue;
      }
      if (!isContainer(obj) || Array.isArray(obj)) {
        warn(`Expected a dictionary but got ${pythonRepr(obj)}. Skipping it.`);
        continue;
      }
      const record = obj as Record<string, unknown>;
      if (!(content_key in record)) {
        warn(`'${content_key}' not found in ${pythonRepr(obj)}. Skipping it.`);
        continue;
      }
      const text = record[content_key];
      if (isContainer(text)) {
        warn(`Expected a scalar value but got ${pythonRepr(obj)}. Skipping it.`);
        continue;
      }
      const meta: Record<string, unknown> =
        extra_meta_fields === "*" ? Object.fromEntries(Object.entries(record).filter(([k]) => k !== content_key)) : Object.fromEntries((extra_meta_fields ?? []).map((f) => [f, record[f] ?? null]));
      result.push([pyStr(text), meta]);
    }
    return result;
  }
}
