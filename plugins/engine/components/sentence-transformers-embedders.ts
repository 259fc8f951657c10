/**
 * @module SentenceTransformersTextEmbedder and SentenceTransformersDocumentEmbedder: Haystack's
 * local embedders (Haystack 2's `haystack.components.embedders…` paths and the
 * `haystack_integrations…` paths of Haystack 3), with its init parameters and defaults. The model
 * runs in-process from disk (sentence-transformers-model.ts). Parameters that only make sense for
 * PyTorch (`device`, `backend`, `trust_remote_code`, `config_kwargs`) are accepted and have no
 * effect; `precision` other than float32 and non-empty `encode_kwargs` are refused at init.
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { secretParameter } from "../dataclasses/secret.js";
import { documentTextEntries, textToEmbed, withEmbedding } from "./embedding-text.js";
import { encode, loadModel } from "./sentence-transformers-model.js";

const emptyOrNull = (what: string) =>
  v.nullish(v.pipe(v.record(v.string(), v.unknown()), v.check((o) => Object.keys(o).length === 0, `${what} is not supported by the in-process ONNX runtime`)));

const commonEntries = {
  model: v.optional(v.string(), "sentence-transformers/all-mpnet-base-v2"),
  device: v.nullish(v.unknown()),
  token: v.nullish(secretParameter(["HF_API_TOKEN", "HF_TOKEN"], false)),
  prefix: v.optional(v.string(), ""),
  suffix: v.optional(v.string(), ""),
  batch_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 32),
  progress_bar: v.optional(v.boolean(), true),
  normalize_embeddings: v.optional(v.boolean(), false),
  trust_remote_code: v.optional(v.boolean(), false),
  local_files_only: v.optional(v.boolean(), false),
  truncate_dim: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(1))),
  /** Only `file_name` is used: the ONNX file inside the model folder. */
  model_kwargs: v.nullish(v.record(v.string(), v.unknown())),
  /** Only `model_max_length` is used: the longest input in tokens. */
  tokenizer_kwargs: v.nullish(v.record(v.string(), v.unknown())),
  config_kwargs: v.nullish(v.record(v.string(), v.unknown())),
  precision: v.optional(v.literal("float32", "Only precision 'float32' is supported."), "float32"),
  encode_kwargs: emptyOrNull("encode_kwargs"),
  backend: v.optional(v.picklist(["torch", "onnx", "openvino"]), "torch"),
  revision: v.nullish(v.string()),
  quantization_ranges: v.nullish(v.unknown()),
};

type CommonParams = v.InferOutput<v.ObjectSchema<typeof commonEntries, undefined>>;

abstract class SentenceTransformersEmbedder<P extends CommonParams> extends Component<P> {
  /** Loads the model (once per process and file); fails naming where it looked. */
  async warmUp(): Promise<void> {
    await this.model();
  }

  private model() {
    const p = this.initParameters;
    const fileName = typeof p.model_kwargs?.file_name === "string" ? p.model_kwargs.file_name : null;
    return loadModel({ model: p.model, revision: p.revision, fileName }, this.constructor.name);
  }

  protected async embed(texts: string[]): Promise<number[][]> {
    const p = this.initParameters;
    const maxLength = p.tokenizer_kwargs?.model_max_length;
    return encode(await this.model(), texts, {
      batchSize: p.batch_size,
      normalize: p.normalize_embeddings,
      truncateDim: p.truncate_dim,
      maxSeqLength: typeof maxLength === "number" ? maxLength : null,
    });
  }
}

const TextInit = v.object(commonEntries);

export class SentenceTransformersTextEmbedder extends SentenceTransformersEmbedder<v.InferOutput<typeof TextInit>> {
  static override readonly type = "haystack_integrations.components.embedders.sentence_transformers.sentence_transformers_text_embedder.SentenceTransformersTextEmbedder";
  static override readonly aliases = [
    "haystack.components.embedders.sentence_transformers_text_embedder.SentenceTransformersTextEmbedder",
    "haystack_integrations.components.embedders.sentence_transformers.SentenceTransformersTextEmbedder",
    "SentenceTransformersTextEmbedder",
  ];
  static override readonly initSchema = TextInit;

  protected inputSpecs() {
    return { text: socket(v.string()) };
  }

  protected outputSpecs() {
    return { embedding: output(v.array(v.number())) };
  }

  async run(inputs: { text: string }, _ctx?: ComponentContext): Promise<{ embedding: number[] }> {
    if (typeof inputs.text !== "string") {
      throw new TypeError("SentenceTransformersTextEmbedder expects a string as input. In case you want to embed a list of Documents, please use the SentenceTransformersDocumentEmbedder.");
    }
    const p = this.initParameters;
    const [embedding] = await this.embed([p.prefix + inputs.text + p.suffix]);
    return { embedding: embedding! };
  }
}

const DocumentInit = v.object({ ...commonEntries, ...documentTextEntries });

export class SentenceTransformersDocumentEmbedder extends SentenceTransformersEmbedder<v.InferOutput<typeof DocumentInit>> {
  static override readonly type = "haystack_integrations.components.embedders.sentence_transformers.sentence_transformers_document_embedder.SentenceTransformersDocumentEmbedder";
  static override readonly aliases = [
    "haystack.components.embedders.sentence_transformers_document_embedder.SentenceTransformersDocumentEmbedder",
    "haystack_integrations.components.embedders.sentence_transformers.SentenceTransformersDocumentEmbedder",
    "SentenceTransformersDocumentEmbedder",
  ];
  static override readonly initSchema = DocumentInit;

  protected inputSpecs() {
    return { documents: socket(v.array(v.instance(Document))) };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  async run(inputs: { documents: Document[] }, _ctx?: ComponentContext): Promise<{ documents: Document[] }> {
    const { documents } = inputs;
    if (!Array.isArray(documents) || (documents.length > 0 && !(documents[0] instanceof Document))) {
      throw new TypeError("SentenceTransformersDocumentEmbedder expects a list of Documents as input. In case you want to embed a string, please use the SentenceTransformersTextEmbedder.");
    }
    const embeddings = await this.embed(documents.map((doc) => textToEmbed(doc, this.initParameters)));
    return { documents: documents.map((doc, i) => withEmbedding(doc, embeddings[i]!)) };
  }
}
