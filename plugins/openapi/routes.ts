/**
 * @module The document and page routes: `GET /openapi.json`, `/openapi.yaml`, `/docs` (Swagger
 * UI) and `/redoc` (ReDoc). All stay out of the document themselves. The texts come from the
 * cache, so a request serializes nothing.
 */
import type { PluginApi, RequestContext } from "svc/plugin";
import type { DocumentCache } from "./cache.js";
import { TITLE } from "./document.js";
import { DOCS_CSP, redocPage, swaggerPage } from "./pages.js";

function sendText(c: RequestContext, type: string, text: string, headers: Record<string, string> = {}): void {
  c.res
    .writeHead(200, {
      ...headers,
      "content-type": type,
      "content-length": Buffer.byteLength(text),
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    })
    .end(text);
}

export function registerRoutes(kernel: PluginApi, cache: DocumentCache): void {
  const rootPath = kernel.settings.rootPath;
  const pageHeaders = { "content-security-policy": DOCS_CSP, "referrer-policy": "no-referrer" };
  const swagger = swaggerPage(rootPath, TITLE);
  const redoc = redocPage(rootPath, TITLE);
  const hidden = { docs: false, scope: "docs" } as const;

  kernel.route("GET", "/openapi.json", (c) => sendText(c, "application/json; charset=utf-8", cache.jsonText), hidden);
  kernel.route("GET", "/openapi.yaml", (c) => sendText(c, "application/yaml; charset=utf-8", cache.yamlText), hidden);
  kernel.route("GET", "/docs", (c) => sendText(c, "text/html; charset=utf-8", swagger, pageHeaders), hidden);
  kernel.route("GET", "/redoc", (c) => sendText(c, "text/html; charset=utf-8", redoc, pageHeaders), hidden);
}
