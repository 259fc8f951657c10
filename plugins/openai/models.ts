/**
 * @module `GET /v1/models` and `GET /models`: every deployed pipeline with a chat method, in
 * OpenAI's list format, in deploy order. Built from the registry on each request (one pass, no
 * I/O); `created` is the deploy time. A caller limited to some pipelines (an API key with a
 * pipeline list) sees only those.
 */
import { REGISTRY, type PluginApi, type RequestContext } from "svc/plugin";
import { ModelList } from "./schemas.js";

export function registerModelRoutes(kernel: PluginApi): void {
  const registry = kernel.resolve(REGISTRY);
  const list = (c: RequestContext) => {
    const principal = c.state.principal;
    const allowed = principal?.admin ? undefined : principal?.pipelines;
    const data = registry
      .list()
      .filter((p) => p.capabilities.chat && (!allowed || allowed.includes(p.name)))
      .map((p) => ({ id: p.name, name: p.name, object: "model", created: Math.floor(p.deployedAt.getTime() / 1000), owned_by: "svc" }));
    return { object: "list", data };
  };
  for (const [i, path] of ["/v1/models", "/models"].entries()) {
    kernel.route("GET", path, list, {
      scope: "run",
      docs: { operationId: i === 0 ? "openai_models" : "openai_models_alias", summary: "Pipelines usable as chat models", tags: ["openai"], response: ModelList },
    });
  }
}
