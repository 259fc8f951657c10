/**
 * @module OpenAIDocumentEmbedder: embeds documents in batches of `batch_size` (the text of each
 * from `meta_fields_to_embed`, `embedding_separator`, prefix and suffix) and returns copies with
 * their embeddings, plus `{model, usage}` summed over the batches. A failed batch is logged and
 * its documents come back without embeddings, unless `raise_on_failure` (Haystack's behaviour).
 */
import * as v from "valibot";
import { output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { documentTextEntries, textToEmbed, withEmbedding } from "./embedding-text.js";
import { OpenAIEmbedderBase, openAIEmbedderEntries } from "./openai-embedder-base.js";

const Init = v.object({
  ...openAIEmbedderEntries,
  ...documentTextEntries,
  batch_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 32),
  /** Accepted for Haystack YAML; nothing is drawn on a server. */
  progress_bar: v.optional(v.boolean(), true),
  raise_on_failure: v.optional(v.boolean(), false),
});

type InitParameters = v.InferOutput<typeof Init>;

export class OpenAIDocumentEmbedder extends OpenAIEmbedderBase<InitParameters> {
  static override readonly type = "haystack.components.embedders.openai_document_embedder.OpenAIDocumentEmbedder";
  static override readonly aliases = ["OpenAIDocumentEmbedder"];
  static override readonly initSchema = Init;

  /** Haystack writes `meta_fields_to_embed` as `[]` when none were given. */
  override toDict(): { type: string; init_parameters: Record<string, unknown> } {
    const dict = super.toDict();
    dict.init_parameters.meta_fields_to_embed ??= [];
    return dict;
  }

  protected inputSpecs() {
    return { documents: socket(v.array(v.instance(Document))) };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))), meta: output(v.record(v.string(), v.unknown())) };
  }

  async run(inputs: { documents: Document[] }, ctx: ComponentContext): Promise<{ documents: Document[]; meta: Record<string, unknown> }> {
    const { documents } = inputs;
    if (!Array.isArray(documents) || (documents.length > 0 && !(documents[0] instanceof Document))) {
      throw new TypeError("OpenAIDocumentEmbedder expects a list of Documents as input. In case you want to embed a string, please use the OpenAITextEmbedder.");
    }
    const p = this.initParameters;
    // A missing key fails the run (Haystack fails at warm-up), not each batch.
    if (documents.length > 0) this.checkApiKey(ctx);
    // Keyed by id, as Haystack's dict is: documents sharing an id are embedded once.
    const texts = new Map(documents.map((doc) => [doc.id, textToEmbed(doc, p)]));
    const entries = [...texts];
    const embeddings = new Map<string, number[]>();
    const meta: { model?: string; usage?: Record<string, unknown> } = {};
    for (let start = 0; start < entries.length; start += p.batch_size) {
      const batch = entries.slice(start, start + p.batch_size);
      let result;
      try {
        result = await this.createEmbeddings(batch.map(([, text]) => text), ctx);
      } catch (error) {
        if (p.raise_on_failure || ctx.signal.aborted) throw error;
        // Haystack's message quotes the API's error; svc's own failures keep their whole message.
        const cause = (error as { apiMessage?: string }).apiMessage ?? (error as Error).message;
        const message = `Failed embedding of documents ${batch.map(([id]) => id).join(", ")} caused by ${cause}`;
        if (ctx.log) ctx.log.error(message);
        else console.error(message);
        continue;
      }
      batch.forEach(([id], i) => embeddings.set(id, result.embeddings[i]!));
      meta.model ??= result.model;
      if (!meta.usage) meta.usage = result.usage;
      else {
        meta.usage.prompt_tokens = Number(meta.usage.prompt_tokens ?? 0) + Number(result.usage.prompt_tokens ?? 0);
        meta.usage.total_tokens = Number(meta.usage.total_tokens ?? 0) + Number(result.usage.total_tokens ?? 0);
      }
    }
    return { documents: documents.map((doc) => withEmbedding(doc, embeddings.get(doc.id) ?? doc.embedding)), meta };
  }
}
