/**
 * @module TextFileToDocument (haystack.components.converters.txt): text files or ByteStreams →
 * Documents, decoded with `encoding` (a ByteStream's `meta.encoding` wins).
 */
import * as v from "valibot";
import type { ComponentContext } from "../component.js";
import { convertSources, SourcesConverter, type MetaInput, type Source } from "./converter-sources.js";

const Init = v.object({
  encoding: v.optional(v.string(), "utf-8"),
  store_full_path: v.optional(v.boolean(), false),
});

export { decodeStrict } from "./python-codecs.js";
import { decodeStrict } from "./python-codecs.js";

export class TextFileToDocument extends SourcesConverter<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.converters.txt.TextFileToDocument";
  static override readonly aliases = ["TextFileToDocument"];
  static override readonly initSchema = Init;

  run(inputs: { sources: Source[]; meta?: MetaInput }, ctx?: ComponentContext) {
    const { encoding, store_full_path } = this.initParameters;
    return convertSources(inputs.sources, inputs.meta, ctx, store_full_path, (stream) => {
      const own = stream.meta.encoding;
      return decodeStrict(stream.data, typeof own === "string" && own ? own : encoding);
    });
  }
}
