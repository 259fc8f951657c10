/**
 * @module What Haystack's converters share (haystack.components.converters.utils): a source is a
 * file path or a ByteStream; a path is read into a ByteStream whose meta gets `file_path`; MIME
 * types are guessed from extensions as Python's `mimetypes` does, plus Haystack's own additions.
 * `convertSources` is the loop every converter runs: read, convert, merge meta, skip (with a
 * warning) what cannot be read or converted.
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import * as v from "valibot";
import { Component, output, socket, warnerOf, type ComponentContext } from "../component.js";
import { ByteStream, Document } from "../dataclasses/document.js";
import { guessMimeType } from "../dataclasses/mime-type.js";
import { normalizeMetadata } from "./html-to-document.js";

export { guessMimeType } from "../dataclasses/mime-type.js";

/** A source as Haystack's converters accept it. */
export type Source = string | ByteStream;
export const SourceSchema = v.union([v.string(), v.instance(ByteStream)]);
export const SourcesSchema = v.array(SourceSchema);
const MetaSchema = v.record(v.string(), v.any());
export const MetaInputSchema = v.nullable(v.union([MetaSchema, v.array(MetaSchema)]));
export type MetaInput = Record<string, unknown> | Record<string, unknown>[] | null | undefined;

/** get_bytestream_from_source: a ByteStream as is, a path read (meta `file_path`). */
export async function byteStreamFromSource(source: Source, options: { guessMimeType?: boolean; signal?: AbortSignal } = {}): Promise<ByteStream> {
  if (source instanceof ByteStream) return source;
  if (typeof source !== "string") throw new Error(`Unsupported source type ${typeof source}`);
  const data = await readFile(source, { signal: options.signal });
  return new ByteStream(data, { file_path: source }, options.guessMimeType ? guessMimeType(source) : null);
}

/**
 * Meta of the document made from `stream`: its own meta, what the converter found (front matter),
 * the caller's, and `file_path` shortened unless full paths are kept.
 */
export function documentMeta(stream: ByteStream, meta: Record<string, unknown>, storeFullPath: boolean, found: Record<string, unknown> = {}): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stream.meta, ...found, ...meta };
  const filePath = stream.meta.file_path;
  if (!storeFullPath && typeof filePath === "string" && filePath) merged.file_path = basename(filePath);
  return merged;
}

/** What a converter makes of one source: its text, or its text and meta it found. */
export type Converted = string | { text: string; meta: Record<string, unknown> } | null;

/** One readable source: its stream, as given, and the caller's meta for it. */
export interface ReadSource {
  stream: ByteStream;
  source: Source;
  meta: Record<string, unknown>;
}

/**
 * Every converter's reading: the caller's meta matched to the sources (a list must match their
 * number), each source read into a ByteStream; one that cannot be read is a warning and skipped,
 * as in Haystack.
 */
export async function* readSources(sources: Source[], meta: MetaInput, ctx: ComponentContext | undefined): AsyncGenerator<ReadSource> {
  const metas = normalizeMetadata(meta, sources.length);
  for (const [i, source] of sources.entries()) {
    let stream: ByteStream;
    try {
      stream = await byteStreamFromSource(source, { signal: ctx?.signal });
    } catch (error) {
      if (ctx?.signal.aborted) throw error;
      warnerOf(ctx)(`Could not read ${describe(source)}. Skipping it. Error: ${(error as Error).message}`);
      continue;
    }
    yield { stream, source, meta: metas[i]! };
  }
}

/**
 * The one-document-per-source converters' loop. `convert` returns the text (or null to skip the
 * source); failures to read or to convert a source are warnings and the source is skipped, as in
 * Haystack.
 */
export async function convertSources(
  sources: Source[],
  meta: MetaInput,
  ctx: ComponentContext | undefined,
  storeFullPath: boolean,
  convert: (stream: ByteStream, source: Source) => Promise<Converted> | Converted,
): Promise<{ documents: Document[] }> {
  const documents: Document[] = [];
  for await (const { stream, source, meta: given } of readSources(sources, meta, ctx)) {
    let converted: Converted;
    try {
      converted = await convert(stream, source);
    } catch (error) {
      if (ctx?.signal.aborted) throw error;
      warnerOf(ctx)(`Could not convert ${describe(source)}. Skipping it. Error: ${(error as Error).message}`);
      continue;
    }
    if (converted === null) continue;
    const [text, found] = typeof converted === "string" ? [converted, {}] : [converted.text, converted.meta];
    documents.push(new Document({ content: text, meta: documentMeta(stream, given, storeFullPath, found) }));
  }
  return { documents };
}

export function describe(source: Source): string {
  return typeof source === "string" ? source : `ByteStream(${String(source.meta.file_path ?? source.mimeType ?? `${source.data.length} bytes`)})`;
}

/** A converter's sockets: `sources` and `meta` in, `documents` out. */
export abstract class SourcesConverter<P> extends Component<P> {
  protected inputSpecs() {
    return { sources: socket(SourcesSchema), meta: socket(MetaInputSchema, { default: null }) };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  abstract override run(inputs: { sources: Source[]; meta?: MetaInput }, ctx?: ComponentContext): Promise<{ documents: Document[] }>;
}
