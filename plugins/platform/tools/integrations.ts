/**
 * @module Model-provider integrations as secrets: the platform keeps provider tokens (OpenAI,
 * Hugging Face, …) apart from user secrets, but components read both as environment variables,
 * so `list_secrets` and `get_secret` show each integration under the variable names it provides.
 */
import type { PlatformClient } from "../client/platform-client.js";

const ENV_BY_DOMAIN: [domain: string, names: string[]][] = [
  ["huggingface.co", ["HF_API_TOKEN", "HF_TOKEN"]],
  ["api.openai.com", ["OPENAI_API_KEY"]],
  ["bedrock.amazonaws.com", ["BEDROCK"]],
  ["api.cohere.ai", ["COHERE_API_KEY"]],
  ["openai.azure.com", ["AZURE_OPENAI_API_KEY"]],
  ["cognitive-services.azure.com", ["AZURE_AI_API_KEY"]],
  ["unstructured.io", ["UNSTRUCTURED_API_KEY"]],
  ["api.deepl.com", ["DEEPL_API_KEY"]],
  ["generativelanguage.googleapis.com", ["GOOGLE_API_KEY"]],
  ["api.nvidia.com", ["NVIDIA_API_KEY"]],
  ["api.voyageai.com", ["VOYAGE_API_KEY"]],
  ["searchapi.io", ["SEARCHAPI_API_KEY"]],
  ["snowflakecomputing.com", ["SNOWFLAKE_API_KEY"]],
  ["wandb.ai", ["WANDB_API_KEY"]],
  ["mongodb.com", ["MONGO_CONNECTION_STRING"]],
  ["together.ai", ["TOGETHERAI_API_KEY"]],
];

export interface IntegrationSecret {
  name: string;
  id: string;
  invalid: boolean;
}

/** One entry per environment variable an integration provides (GET v1/model_registry_tokens). */
export async function integrationSecrets(client: PlatformClient, signal?: AbortSignal): Promise<IntegrationSecret[]> {
  const body = await client.get("v1/model_registry_tokens", undefined, { signal });
  const tokens: any[] = Array.isArray(body) ? body : Array.isArray(body?.data) ? body.data : [];
  return tokens.flatMap((t) => {
    const domain = String(t?.provider_domain ?? "");
    const names = ENV_BY_DOMAIN.find(([d]) => domain === d || domain.endsWith(`.${d}`))?.[1] ?? [];
    return names.map((name) => ({ name, id: String(t.model_registry_token_id), invalid: Boolean(t.invalid) }));
  });
}
