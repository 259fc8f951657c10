/**
 * @module svc:openapi: the OpenAPI 3.1 document of every documented route and deployed pipeline
 * (`/openapi.json`, `/openapi.yaml`) and two offline documentation pages, Swagger UI (`/docs`)
 * and ReDoc (`/redoc`). The document is built lazily and cached until a pipeline is (un)deployed
 * or a route is added.
 */
import { REGISTRY, ROUTES, packageVersion, type KernelPlugin } from "svc/plugin";
import { registerAssets } from "./assets.js";
import { DocumentCache } from "./cache.js";
import { buildDocument } from "./document.js";
import { registerRoutes } from "./routes.js";

export { buildDocument, type OpenApiDocument } from "./document.js";

export interface OpenApiPlugin extends KernelPlugin {
  /** How many times the document was built since setup (0 before). */
  readonly builds: number;
}

export default function openapiPlugin(): OpenApiPlugin {
  let cache: DocumentCache | undefined;
  return {
    name: "svc:openapi",
    get builds() {
      return cache?.builds ?? 0;
    },
    setup(kernel) {
      const routes = kernel.resolve(ROUTES);
      const registry = kernel.resolve(REGISTRY);
      const version = packageVersion();
      const rootPath = kernel.settings.rootPath;
      const current = new DocumentCache(() => buildDocument({ routes, pipelines: registry.list(), rootPath, version }), routes);
      cache = current;
      kernel.hooks.deploy.deployed.tap(() => current.invalidate());
      kernel.hooks.deploy.undeployed.tap(() => current.invalidate());
      registerRoutes(kernel, current);
      registerAssets(kernel);
    },
  };
}
