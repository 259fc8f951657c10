/**
 * @module FileTypeRouter (haystack.components.routers.file_type_router): sorts file paths and
 * ByteStreams into one output per MIME type (or regex over MIME types) given at init, plus
 * `unclassified` and `failed`. A path's type comes from its extension (Python's table plus
 * Haystack's and `additional_mimetypes`), a ByteStream's from its `mime_type`. Each entry matches
 * by equality first (so `image/svg+xml` matches itself), then as a regex over the whole type.
 */
import { access } from "node:fs/promises";
import * as v from "valibot";
import { Component, output, socket, type ComponentContext, warnerOf } from "../component.js";
import { ByteStream } from "../dataclasses/document.js";
import { normalizeMetadata } from "./html-to-document.js";
import { byteStreamFromSource, guessMimeType, MetaInputSchema, SourceSchema, SourcesSchema, type MetaInput, type Source } from "./converter-sources.js";
import { pythonRegExp } from "./python-regex.js";

const Init = v.object({
  mime_types: v.pipe(v.array(v.string()), v.minLength(1, "The list of mime types cannot be empty.")),
  /** MIME type → extension, as Python's mimetypes.add_type takes them. */
  additional_mimetypes: v.optional(v.nullable(v.record(v.string(), v.string())), null),
  raise_on_failure: v.optional(v.boolean(), false),
});

export class FileTypeRouter extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.routers.file_type_router.FileTypeRouter";
  static override readonly aliases = ["FileTypeRouter"];
  static override readonly initSchema = Init;

  private readonly patterns: RegExp[];
  /** Extension → MIME type, from `additional_mimetypes`. */
  private readonly extra = new Map<string, string>();

  constructor(init: unknown) {
    super(init);
    this.patterns = this.initParameters.mime_types.map((type) => {
      try {
        const re = pythonRegExp(type);
        return new RegExp(`^(?:${re.source})$`, re.flags); // Python's fullmatch
      } catch {
        throw new Error(`Invalid MIME type or regex pattern '${type}'.`);
      }
    });
    for (const [type, ext] of Object.entries(this.initParameters.additional_mimetypes ?? {})) {
      this.extra.set((ext.startsWith(".") ? ext : `.${ext}`).toLowerCase(), type);
    }
  }

  protected inputSpecs() {
    return { sources: socket(SourcesSchema), meta: socket(MetaInputSchema, { default: null }) };
  }

  protected outputSpecs() {
    const list = output(v.array(SourceSchema));
    return { unclassified: list, failed: list, ...Object.fromEntries(this.initParameters.mime_types.map((t) => [t, list])) };
  }

  /** The MIME type a path has by its extension, as this router sees it. */
  mimeTypeOf(path: string): string | null {
    return guessMimeType(path, this.extra);
  }

  async run(inputs: { sources: Source[]; meta?: MetaInput }, ctx?: ComponentContext): Promise<Record<string, Source[]>> {
    const raise = this.initParameters.raise_on_failure;
    const warn = warnerOf(ctx);
    const metas = normalizeMetadata(inputs.meta, inputs.sources.length);
    const buckets: Record<string, Source[]> = {};
    const add = (key: string, source: Source) => (buckets[key] ??= []).push(source);
    for (const [i, original] of inputs.sources.entries()) {
      let source: Source = original;
      let mimeType: string | null;
      if (typeof source === "string") {
        if (!(await exists(source))) {
          if (raise) throw fileNotFound(source);
          warn(`File not found: ${source}. Skipping it.`);
          add("failed", source);
          continue;
        }
        mimeType = this.mimeTypeOf(source);
      } else if (source instanceof ByteStream) {
        mimeType = source.mimeType;
      } else {
        throw new TypeError(`Unsupported data source type: ${typeof source}`);
      }
      // With meta, sources become ByteStreams carrying it (a new stream: the caller's is not changed).
      const meta = metas[i]!;
      if (Object.keys(meta).length) {
        try {
          const stream = await byteStreamFromSource(source, { signal: ctx?.signal });
          source = new ByteStream(stream.data, { ...stream.meta, ...meta }, stream.mimeType);
        } catch (error) {
          if (raise) throw error;
          warn(`Could not read ${String(original)}. Skipping it. Error: ${(error as Error).message}`);
          add("failed", original);
          continue;
        }
      }
      const types = this.initParameters.mime_types;
      const k = mimeType ? types.findIndex((type, j) => mimeType === type || this.patterns[j]!.test(mimeType)) : -1;
      add(k >= 0 ? types[k]! : "unclassified", source);
    }
    return buckets;
  }
}

/** Haystack raises Python's FileNotFoundError: the same name, and Node's ENOENT code. */
function fileNotFound(path: string): Error {
  return Object.assign(new Error(`File not found: ${path}`), { name: "FileNotFoundError", code: "ENOENT" });
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
