/**
 * @module `GET /v1/models` and `GET /models`: every deployed pipeline with a chat method, in
 * OpenAI's list format, in deploy order. Built from the registry on each request (one pass, no
 * I/O); `created` is the deploy time.
 */
import { REGISTRY, type PluginApi } from "svc";
import { ModelList } from "./schemas.js";

export function registerModelRoutes(kernel: PluginApi): void {
  const registry = kernel.resolve(REGISTRY);
  const list = () => ({
    object: "list",
    data: registry
      .list()
      .filter((p) => p.capabilities.chat)
      .map((p) => ({ id: p.name, name: p.name, object: "model", created: Math.floor(p.deployedAt.getTime() / 1000), owned_by: "svc" })),
  });
  for (const [i, path] of ["/v1/models", "/models"].entries()) {
    kernel.route("GET", path, list, {
      scope: "run",
      docs: { operationId: i === 0 ? "openai_models" : "openai_models_alias", summary: "Pipelines usable as chat models", tags: ["openai"], response: ModelList },
    });
  }
}
