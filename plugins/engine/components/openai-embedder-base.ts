/**
 * @module What the OpenAI embedders share: their init parameters (Haystack's names and defaults)
 * and the `/v1/embeddings` call, sent to OpenAI or to any server that speaks its protocol
 * (`api_base_url`), with `encoding_format: "float"` and `dimensions` when set.
 */
import * as v from "valibot";
import type OpenAI from "openai";
import type { ComponentContext } from "../component.js";
import { secretParameter } from "../dataclasses/secret.js";
import { OpenAIBase } from "./openai-base.js";

export const openAIEmbedderEntries = {
  api_key: secretParameter("OPENAI_API_KEY"),
  model: v.optional(v.string(), "text-embedding-ada-002"),
  /** Only text-embedding-3 and later models take it. */
  dimensions: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(1))),
  /** Default: `OPENAI_BASE_URL`, else OpenAI's. */
  api_base_url: v.nullish(v.string()),
  organization: v.nullish(v.string()),
  prefix: v.optional(v.string(), ""),
  suffix: v.optional(v.string(), ""),
  /** Seconds per attempt; default `OPENAI_TIMEOUT`, else 30. */
  timeout: v.nullish(v.pipe(v.number(), v.minValue(0))),
  max_retries: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0))),
  /** Accepted for Haystack YAML; httpx settings have no equivalent here. */
  http_client_kwargs: v.nullish(v.record(v.string(), v.unknown())),
};

export type OpenAIEmbedderParams = v.InferOutput<v.ObjectSchema<typeof openAIEmbedderEntries, undefined>>;

export interface EmbeddingsResult {
  embeddings: number[][];
  model: string;
  usage: Record<string, unknown>;
}

export abstract class OpenAIEmbedderBase<P extends OpenAIEmbedderParams = OpenAIEmbedderParams> extends OpenAIBase<P> {
  protected async createEmbeddings(input: string | string[], ctx: ComponentContext): Promise<EmbeddingsResult> {
    const p = this.initParameters;
    const request: OpenAI.EmbeddingCreateParams = { model: p.model, input, encoding_format: "float" };
    if (p.dimensions != null) request.dimensions = p.dimensions;
    const response = await this.callApi(ctx, (client) => client.embeddings.create(request, this.requestOptions(ctx)));
    return { embeddings: response.data.map((d) => d.embedding), model: response.model, usage: { ...response.usage } };
  }
}
