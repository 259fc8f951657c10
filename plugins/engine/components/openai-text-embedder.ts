/**
 * @module OpenAITextEmbedder: one string in (`prefix + text + suffix`), its embedding and
 * `{model, usage}` out.
 */
import * as v from "valibot";
import { output, socket, type ComponentContext } from "../component.js";
import { OpenAIEmbedderBase, openAIEmbedderEntries } from "./openai-embedder-base.js";

const Init = v.object(openAIEmbedderEntries);

export class OpenAITextEmbedder extends OpenAIEmbedderBase {
  static override readonly type = "haystack.components.embedders.openai_text_embedder.OpenAITextEmbedder";
  static override readonly aliases = ["OpenAITextEmbedder"];
  static override readonly initSchema = Init;

  protected inputSpecs() {
    return { text: socket(v.string()) };
  }

  protected outputSpecs() {
    return { embedding: output(v.array(v.number())), meta: output(v.record(v.string(), v.unknown())) };
  }

  async run(inputs: { text: string }, ctx: ComponentContext): Promise<{ embedding: number[]; meta: Record<string, unknown> }> {
    if (typeof inputs.text !== "string") {
      throw new TypeError("OpenAITextEmbedder expects a string as an input. In case you want to embed a list of Documents, please use the OpenAIDocumentEmbedder.");
    }
    const p = this.initParameters;
    const result = await this.createEmbeddings(p.prefix + inputs.text + p.suffix, ctx);
    return { embedding: result.embeddings[0]!, meta: { model: result.model, usage: result.usage } };
  }
}
